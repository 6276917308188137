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
 * correlation plus a weight times the bass profile's correlation with the same key profile.
 *
 * The weight is BASS_WEIGHT times the bass line's concentration: the share of its three strongest
 * pitch classes, from 0 when the bass spreads evenly over the twelve to 1 when three hold it all.
 * A bass part (a bass guitar, a synth bass, a cello line) concentrates on a few notes; the low
 * register of a piano recording, where the 10.8 Hz bins cannot resolve semitones among a chord's
 * low notes and their partials, spreads over nearly all twelve (a concentration of 0.1–0.3 on
 * the piano recordings, 0.3–0.8 on rendered songs), and then hardly votes. BASS_WEIGHT is the one
 * fitted number here, chosen by `npm run bench:key-profiles` over rendered and recorded sets
 * (BENCHMARKS.md, "Key, cross-validated").
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

/** Weight of the bass profile's correlation beside the chroma's, times its concentration (cross-validated, BENCHMARKS.md). */
export const BASS_WEIGHT = 1;

/**
 * How much of the bass line its three strongest pitch classes hold, rescaled: 0 for an even
 * spread (3 of 12), 1 when they hold it all. 0 for an empty bass line.
 */
export function bassConcentration(bass: ArrayLike<number>): number {
  const sorted = Array.from(bass).sort((a, b) => b - a);
  const total = sorted.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return 0;
  const top3 = (sorted[0]! + sorted[1]! + sorted[2]!) / total;
  return Math.min(1, Math.max(0, (top3 - 0.25) / 0.75));
}

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
  const weight = bass ? BASS_WEIGHT * bassConcentration(bass) : 0;
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
