import { type Chroma, chromaSum } from './tonal.chroma';
import { estimateKey, profileReading } from './tonal.key';

/**
 * Key and mode of the window (or of a section's frames): the key model (tonal.key.ts) on the
 * sustained chroma's sum and the bass line's. Beside it, Sha'ath's profiles' own reading of the
 * plain chroma (tonal.key.ts, `profileReading`), whose tonality tells the rhythm stage how far
 * chord changes can be believed and whose mode and correlation the descriptor formulas read.
 */
export interface TonalResult {
  key: number;
  mode: 0 | 1;
  /** The calibrated probability that key and mode are both right. */
  keyConfidence: number;
  /** The probability of the mode, its 12 keys' probabilities summed, 0.5-1. */
  modeConfidence: number;
  /** The profile reading's correlation with its key, 0-1: how clearly the window is in one key. */
  strength: number;
  /** The profile reading's mode and its confidence, 0-1: the descriptor formulas' `major`. */
  profileMode: 0 | 1;
  profileModeConfidence: number;
  /**
   * The chroma's best correlation with any key profile, 0-1, the bass line aside (tonal.key.ts):
   * how far the chroma's changes are harmony. The rhythm stage weighs the chord changes by it.
   */
  tonality: number;
  /** The window's pitch-class profile (C first), its strongest class 1. */
  chroma: number[];
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** The key model's reading of a sustained chroma's sum and a bass line's (a window's, a section's or a whole file's). */
export type KeyReading = Pick<TonalResult, 'key' | 'mode' | 'keyConfidence' | 'modeConfidence'>;

export function keyOfSums(sustained: ArrayLike<number>, bass: ArrayLike<number>): KeyReading {
  const estimate = estimateKey(sustained, bass);
  return { key: estimate.key, mode: estimate.mode, keyConfidence: clamp01(estimate.confidence), modeConfidence: clamp01(estimate.modeProbability) };
}

/** Key and mode of the chroma frames [from, to) (the whole window by default). */
export function analyseTonal(chroma: Chroma, from = 0, to = chroma.count): TonalResult {
  const profile = chromaSum(chroma, from, to);
  let max = 0;
  for (const v of profile) max = Math.max(max, v);
  const normalisedProfile = Array.from(profile, (v) => (max > 0 ? v / max : 0));
  const sustained = chromaSum(chroma, from, to, 'sustained');
  if (!(max > 0)) {
    return { key: 0, mode: 1, keyConfidence: 0, modeConfidence: 0, strength: 0, profileMode: 1, profileModeConfidence: 0, tonality: 0, chroma: normalisedProfile };
  }
  const bass = chromaSum(chroma, from, to, 'bass');
  const reading = profileReading(profile, bass);
  return {
    ...keyOfSums(sustained, bass),
    strength: reading.strength,
    profileMode: reading.mode,
    profileModeConfidence: reading.modeConfidence,
    tonality: reading.tonality,
    chroma: normalisedProfile,
  };
}
