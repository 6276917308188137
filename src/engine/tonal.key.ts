/**
 * Key and mode of a pitch-class profile: the Pearson correlation of the profile with each of the
 * 24 rotations of a major and a minor key profile (Krumhansl & Schmuckler's method), the best
 * one winning. The profiles are Sha'ath's (2011), a revision of Krumhansl & Kessler's probe-tone
 * ratings for audio chroma. The engine's one key path: the window's key and every section's
 * key come from here, over the same chroma.
 */
export interface KeyEstimate {
  /** Pitch class of the tonic, C = 0. */
  key: number;
  /** 1 major, 0 minor. */
  mode: 0 | 1;
  /** Correlation of the winning key, -1 … 1. */
  strength: number;
  /** Its lead over the best key of the other mode, 0 … 2: how sure the mode is. */
  modeMargin: number;
  /** Its lead over the runner-up key of either mode: how sure the key is. */
  keyMargin: number;
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

export function estimateKey(chroma: ArrayLike<number>): KeyEstimate {
  const scores: Array<{ key: number; mode: 0 | 1; r: number }> = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    scores.push({ key: tonic, mode: 1, r: keyCorrelation(chroma, MAJOR, tonic) });
    scores.push({ key: tonic, mode: 0, r: keyCorrelation(chroma, MINOR, tonic) });
  }
  scores.sort((a, b) => b.r - a.r);
  const best = scores[0]!;
  if (!(best.r > 0)) return { key: 0, mode: 1, strength: 0, modeMargin: 0, keyMargin: 0 };
  const otherMode = scores.find((s) => s.mode !== best.mode)!;
  return { key: best.key, mode: best.mode, strength: best.r, modeMargin: best.r - otherMode.r, keyMargin: best.r - scores[1]!.r };
}
