import { createHash } from 'node:crypto';
import { invalidArgument } from './errors';

const TRACK_KEY = /^[0-9a-f]{16}$/;

/** Lowercased, trimmed, NFC-normalised form of a name, as the contract hashes it. */
export function normaliseForKey(value: string): string {
  return value.normalize('NFC').trim().toLowerCase();
}

/**
 * The contract's track key: the first 16 hex characters of
 * sha256(lower(trim(artist)) + ":" + lower(trim(track))), after Unicode NFC so that
 * "Beyoncé" typed with a combining accent hashes like the precomposed one.
 */
export function trackKey(artist: string, track: string): string {
  const input = `${normaliseForKey(artist)}:${normaliseForKey(track)}`;
  return createHash('sha256').update(input, 'utf8').digest('hex').slice(0, 16);
}

export function isTrackKey(value: string): boolean {
  return TRACK_KEY.test(value);
}

/**
 * A client's track key as it is stored: keys are hex and clients may send either case, so this is
 * the one place a key is lowercased. INVALID_ARGUMENT when it is not 16 hex characters.
 */
export function checkedTrackKey(key: string): string {
  const trackKey = key.toLowerCase();
  if (!isTrackKey(trackKey)) {
    throw invalidArgument(`trackKey must be 16 lowercase hexadecimal characters (got "${trackKey.slice(0, 40)}")`);
  }
  return trackKey;
}

/** Would checkedTrackKey accept this key? For callers that batch keys before handing them on. */
export function isClientTrackKey(key: string): boolean {
  return isTrackKey(key.toLowerCase());
}
