/**
 * Key and mode of a pitch-class profile: the Pearson correlation of the profile with each of the
 * 24 rotations of a major and a minor key profile (Krumhansl & Schmuckler's method), the best
 * one winning. The profiles are Sha'ath's (2011), a revision of Krumhansl & Kessler's probe-tone
 * ratings for audio chroma. The engine's one key path: the window's key and every section's
 * key come from here, over the same chroma.
 *
 * A key and its relative (C major, A minor) share all seven pitch classes, and the chroma of a
 * song tells them apart only by how much weight the tonic triad gets. The bass line tells them
 * apart better: it rests on the tonic and the fifth. So each key's score is the chroma's
 * correlation plus BASS_WEIGHT times the bass profile's correlation with the same key profile.
 * BASS_WEIGHT is the one fitted number here, chosen by `npm run bench:key-profiles` with each
 * rendered set held out in turn and the weight chosen on the others (0.5 in three folds of four,
 * 0.3 in the fourth; BENCHMARKS.md, "Key, cross-validated").
 */
export interface KeyEstimate {
  /** Pitch class of the tonic, C = 0. */
  key: number;
  /** 1 major, 0 minor. */
  mode: 0 | 1;
  /** The chroma's correlation with the winning key, -1 … 1. */
  strength: number;
  /** Its score's lead over the best key of the other mode, 0 … 2: how sure the mode is. */
  modeMargin: number;
  /** Its score's lead over the runner-up key of either mode: how sure the key is. */
  keyMargin: number;
  /**
   * The chroma's best correlation with any of the 24 keys, 0 … 1, the bass line aside: how
   * clearly the chroma names some key, whichever the bass then chooses.
   */
  tonality: number;
}

/** Weight of the bass profile's correlation beside the chroma's (cross-validated, BENCHMARKS.md). */
export const BASS_WEIGHT = 0.5;

const MAJOR = [6.6, 2.0, 3.5, 2.3, 4.6, 4.0, 2.5, 5.2, 2.4, 3.7, 2.3, 3.4];
const MINOR = [6.5, 2.7, 3.5, 5.4, 2.6, 3.5, 2.5, 5.2, 4.0, 2.7, 4.3, 3.2];

/** Pearson correlation of `chroma` (C first) with `profile` rotated to `tonic`. */
export function keyCorrelation(chroma: ArrayLike<number>, profile: readonly number[], tonic: number): number {
  let mx = 0;
  let mp = 0;
  for (let i = 0; i < 12; i++) {
    mx += chroma[i]!;
    mp += profile[i]!;
  }
  mx /= 12;
  mp /= 12;
  let sxy = 0;
  let sxx = 0;
  let spp = 0;
  for (let i = 0; i < 12; i++) {
    const a = chroma[(i + tonic) % 12]! - mx;
    const b = profile[i]! - mp;
    sxy += a * b;
    sxx += a * a;
    spp += b * b;
  }
  return sxx > 0 ? sxy / Math.sqrt(sxx * spp) : 0;
}

export const KEY_PROFILES = { major: MAJOR, minor: MINOR } as const;

/**
 * The best of the 24 keys for a chroma profile and, when given, the bass line's profile (both C
 * first). The margins are on the score scaled back to a correlation's range (divided by 1 + the
 * bass weight when a bass profile counts).
 */
export function estimateKey(chroma: ArrayLike<number>, bass?: ArrayLike<number>): KeyEstimate {
  let bassTotal = 0;
  for (let i = 0; i < 12 && bass; i++) bassTotal += bass[i]!;
  const weight = bass && bassTotal > 0 ? BASS_WEIGHT : 0;
  const scores: Array<{ key: number; mode: 0 | 1; r: number; score: number }> = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [mode, profile] of [[1, MAJOR], [0, MINOR]] as const) {
      const r = keyCorrelation(chroma, profile, tonic);
      const score = weight > 0 ? (r + weight * keyCorrelation(bass!, profile, tonic)) / (1 + weight) : r;
      scores.push({ key: tonic, mode, r, score });
    }
  }
  const tonality = Math.max(0, ...scores.map((s) => s.r));
  scores.sort((a, b) => b.score - a.score);
  const best = scores[0]!;
  if (!(best.r > 0)) return { key: 0, mode: 1, strength: 0, modeMargin: 0, keyMargin: 0, tonality };
  const otherMode = scores.find((s) => s.mode !== best.mode)!;
  return { key: best.key, mode: best.mode, strength: best.r, modeMargin: best.score - otherMode.score, keyMargin: best.score - scores[1]!.score, tonality };
}
