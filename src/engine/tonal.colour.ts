import type { Chroma } from './tonal.chroma';

/**
 * The harmony's colour over a window, from the chroma frames (tonal.chroma.ts): what a listener
 * hears as bright or dark, sweet or tense, beyond the key's name. Valence reads it
 * (descriptor.formulas.ts, docs/FEATURES.md).
 */
export interface HarmonyColour {
  /**
   * The share of the window's chords that are major, 0–1: each frame whose pitch classes form a
   * triad (its best of the 24 major and minor triads holds at least TRIAD_SHARE of the frame's
   * chroma) votes for that triad's mode, weighted by how much of the frame the triad holds.
   * 0.5 when no frame forms one.
   */
  majorChords: number;
  /**
   * How dissonant the sounding pitch classes are together, 0–1: per frame, the mean roughness of
   * every pair of its classes by interval class (the minor second and major seventh roughest,
   * then the tritone, the major second and minor seventh; fifths and fourths smooth),
   * weighted by both classes' energies; over the window, the frames' mean weighted by their
   * energy.
   */
  dissonance: number;
}

/**
 * Roughness of each interval class (semitones 1–6, and their inversions), 0–1: the order of
 * consonance of Western tuning theory and of listeners' ratings (Malmberg 1918; Huron 1994): the
 * minor second roughest, the perfect fifth and fourth smoothest.
 */
const INTERVAL_ROUGHNESS = [0, 1, 0.55, 0.25, 0.2, 0.05, 0.65] as const;

/** The triad's share of a frame's chroma from which the frame counts as a chord. */
const TRIAD_SHARE = 0.6;

export function harmonyColour(chroma: Chroma): HarmonyColour {
  const { frames, count } = chroma;
  let majorVotes = 0;
  let chordVotes = 0;
  let roughness = 0;
  let energy = 0;
  for (let f = 0; f < count; f++) {
    const row = f * 12;
    let total = 0;
    for (let k = 0; k < 12; k++) total += frames[row + k]!;
    if (!(total > 0)) continue;

    // The best triad: the root, the third (minor or major) and the fifth.
    let best = 0;
    let bestMajor = false;
    for (let root = 0; root < 12; root++) {
      const rootAndFifth = frames[row + root]! + frames[row + ((root + 7) % 12)]!;
      const minor = rootAndFifth + frames[row + ((root + 3) % 12)]!;
      const major = rootAndFifth + frames[row + ((root + 4) % 12)]!;
      if (major > best) {
        best = major;
        bestMajor = true;
      }
      if (minor > best) {
        best = minor;
        bestMajor = false;
      }
    }
    const share = best / total;
    if (share >= TRIAD_SHARE) {
      chordVotes += share;
      if (bestMajor) majorVotes += share;
    }

    let pairs = 0;
    let rough = 0;
    for (let i = 0; i < 12; i++) {
      const a = frames[row + i]!;
      if (a === 0) continue;
      for (let j = i + 1; j < 12; j++) {
        const b = frames[row + j]!;
        if (b === 0) continue;
        const d = j - i;
        rough += a * b * INTERVAL_ROUGHNESS[d > 6 ? 12 - d : d]!;
        pairs += a * b;
      }
    }
    if (pairs > 0) {
      roughness += total * (rough / pairs);
      energy += total;
    }
  }
  return {
    majorChords: chordVotes > 0 ? majorVotes / chordVotes : 0.5,
    dissonance: energy > 0 ? roughness / energy : 0,
  };
}
