import { type Chroma, chromaSum } from './tonal.chroma';
import { estimateKey } from './tonal.key';

/**
 * Key and mode of the window: the key profiles on the window's summed chroma and bass line
 * (tonal.key.ts), then the third. Major and minor differ by the third above the tonic; when both thirds are
 * weak in the profile (below half its strongest class) and one clearly outweighs the other
 * (1.5 times plus 0.02), that third names the mode. Songs on i-iv-V over a root-and-fifth bass
 * carry little third, and the profiles then decide the mode on the other degrees, usually for
 * major: the usual parallel-key miss.
 */
export interface TonalResult {
  key: number;
  mode: 0 | 1;
  keyConfidence: number;
  modeConfidence: number;
  /** The key profile's correlation, 0-1: how clearly the window is in one key. */
  strength: number;
  /**
   * The chroma's best correlation with any key profile, 0-1, the bass line aside (tonal.key.ts):
   * how far the chroma's changes are harmony. The rhythm stage weighs the chord changes by it.
   */
  tonality: number;
  /** The window's pitch-class profile (C first), its strongest class 1. */
  chroma: number[];
}

const THIRD_WEAK = 0.5;
const THIRD_RATIO = 1.5;
const THIRD_MARGIN = 0.02;

/** The mode the tonic's third names, when the thirds are weak and one clearly outweighs the other. */
export function modeByThird(tonic: number, profile: ArrayLike<number>): 0 | 1 | undefined {
  let max = 0;
  for (let i = 0; i < 12; i++) max = Math.max(max, profile[i]!);
  if (!(max > 0)) return undefined;
  const minor = profile[(tonic + 3) % 12]! / max;
  const major = profile[(tonic + 4) % 12]! / max;
  if (Math.max(minor, major) >= THIRD_WEAK) return undefined;
  if (minor > THIRD_RATIO * major + THIRD_MARGIN) return 0;
  if (major > THIRD_RATIO * minor + THIRD_MARGIN) return 1;
  return undefined;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Key and mode of the chroma frames [from, to) (the whole window by default). */
export function analyseTonal(chroma: Chroma, from = 0, to = chroma.count): TonalResult {
  const profile = chromaSum(chroma, from, to);
  let max = 0;
  for (const v of profile) max = Math.max(max, v);
  const normalisedProfile = Array.from(profile, (v) => (max > 0 ? v / max : 0));
  if (!(max > 0)) return { key: 0, mode: 1, keyConfidence: 0, modeConfidence: 0, strength: 0, tonality: 0, chroma: normalisedProfile };
  const estimate = estimateKey(profile, chromaSum(chroma, from, to, 'bass'));
  const byThird = modeByThird(estimate.key, profile);
  const overruled = byThird !== undefined && byThird !== estimate.mode;
  return {
    key: estimate.key,
    mode: overruled ? byThird : estimate.mode,
    // The correlation, less when a near rival key exists; the mode as sure as major beat minor.
    keyConfidence: clamp01(estimate.strength * Math.min(1, 0.5 + 5 * estimate.keyMargin)),
    modeConfidence: overruled ? 0.25 : clamp01(0.5 + 2.5 * estimate.modeMargin),
    strength: clamp01(estimate.strength),
    tonality: clamp01(estimate.tonality),
    chroma: normalisedProfile,
  };
}
