/** Pitch-class names as the contract writes them in keyString: 0 = C … 9 = A … 11 = B. */
export const PITCH_CLASSES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

const ALIASES: Record<string, number> = {
  C: 0, 'B#': 0, 'C#': 1, Db: 1, D: 2, 'D#': 3, Eb: 3, E: 4, Fb: 4, F: 5, 'E#': 5, 'F#': 6, Gb: 6,
  G: 7, 'G#': 8, Ab: 8, A: 9, 'A#': 10, Bb: 10, B: 11, Cb: 11,
};

/** Pitch class of a note name written with sharps or flats ("Eb" -> 3), or undefined. */
export function pitchClassOf(note: string): number | undefined {
  return ALIASES[note.trim()];
}

/** "<note> <major|minor>" for a pitch class and the contract's mode (1 major, 0 minor). */
export function keyString(key: number, mode: number): string {
  const note = PITCH_CLASSES[((key % 12) + 12) % 12];
  return `${note} ${mode === 1 ? 'major' : 'minor'}`;
}

/** Standard notation, as beets writes initial_key and ID3's TKEY asks: "C", "F#", "Am", "C#m". */
export function standardKey(key: number, mode: number): string | undefined {
  if (!Number.isInteger(key) || key < 0 || key > 11) return undefined;
  return `${PITCH_CLASSES[key]}${mode === 1 ? '' : 'm'}`;
}

/**
 * Open Key notation (Traktor's, Mixxx's "OpenKey"): the circle of fifths numbered 1–12 from
 * C major ("1d") and A minor ("1m"), "d" for major, "m" for minor. A major key's number is
 * 7·pitch class mod 12, plus 1; a minor key has its relative major's number (pitch class + 3).
 */
export function openKey(key: number, mode: number): string | undefined {
  if (!Number.isInteger(key) || key < 0 || key > 11) return undefined;
  const major = mode === 1 ? key : (key + 3) % 12;
  return `${((major * 7) % 12) + 1}${mode === 1 ? 'd' : 'm'}`;
}

/**
 * Camelot notation (Mixed In Key's; rekordbox's "alphanumeric"): the Open Key wheel turned by
 * seven, "B" for major and "A" for minor: C major is "8B", A minor "8A".
 */
export function camelotKey(key: number, mode: number): string | undefined {
  const open = openKey(key, mode);
  if (!open) return undefined;
  const n = ((Number.parseInt(open, 10) + 6) % 12) + 1;
  return `${n}${mode === 1 ? 'B' : 'A'}`;
}

/** The key notations DJ software shows: what the initial-key tag holds (docs/TAGS.md, --key-notation) and GraphQL's keyName names. */
export const KEY_NOTATIONS = {
  standard: standardKey,
  'open-key': openKey,
  camelot: camelotKey,
} as const;
export type KeyNotation = keyof typeof KEY_NOTATIONS;

/**
 * The key confidence under which a key is not written into a file's tags (`npm run index --
 * --write-tags`, LIBRARY_WRITE_TAGS): the confidence is a calibrated probability, and on recordings
 * left out of the key model's fit (engine 30), keys at 0.85 or more — a fifth of them — were
 * exactly right 93 % of the time, where keys at 0.7–0.85 were right two times in three
 * (docs/engine/key.md, "The confidence"); a key written into a DJ's files should rather be missing
 * than wrong.
 */
export const DEFAULT_MIN_KEY_CONFIDENCE = 0.85;
