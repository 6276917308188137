import { createHash } from 'node:crypto';

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
