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
