import fitted from './key.weights.json';
import { logRatio, logistic, winnerLead } from './logistic';

/**
 * Key and mode of a pitch-class profile: a small learned decision over the 24 keys.
 *
 * Each key is described by how well the window's sustained chroma (tonal.chroma.ts) fits three
 * published key profiles rotated to its tonic — Sha'ath's (2011, a revision of Krumhansl &
 * Kessler's probe-tone ratings for audio), Faraldo et al.'s "bgate" (2016, pop and rock; essentia
 * KeyExtractor's default) and Temperley's MIREX 2005 profiles, each a Pearson correlation — by the
 * same three correlations of the bass line, times the bass line's concentration (a bass part
 * resting on a few notes votes, the diffuse low register of a piano hardly), and by whether the key
 * is minor; and by the chroma itself read from the key's tonic (each of its twelve degrees, less
 * their mean, with weights of its own per mode: a learned correction of the profiles, which
 * weighs, say, a flat seventh against a major key, where it names the subdominant's). A key's
 * score is the weighted sum of these 31 numbers, and a softmax over the 24 scores gives each
 * key's probability. Every feature is relative to the key's tonic, so the decision is the same
 * in every transposition.
 *
 * The weights are data (key.weights.json), fitted by `npm run bench:key-profiles -- --write`:
 * softmax regression on human-labelled recordings of several kinds (GTZAN's fit clips, classical
 * recordings named by their key, producers' loops, EDM, solo piano) and rendered songs, each set
 * weighing alike, and reported there with every set left out in turn (docs/engine/key.md).
 * The minor weight is a prior the labels carry: popular music's keys are more often minor than a
 * profile's symmetry assumes.
 *
 * The key's confidence is a probability that it is exactly right: a logistic calibration of the
 * winner's probability, its lead over the runner-up and over its relative key (the commonest
 * confusion), and how clearly the chroma names a key at all (the profile reading's correlation),
 * fitted on the left-out predictions of the recorded sets (never the rendered ones), so that a
 * confidence of 0.8 is right about 8 times in 10 on music like those sets.
 */
export interface KeyEstimate {
  /** Pitch class of the tonic, C = 0. */
  key: number;
  /** 1 major, 0 minor. */
  mode: 0 | 1;
  /** The softmax probability of every key: index tonic for major, 12 + tonic for minor. */
  probabilities: Float64Array;
  /** The calibrated probability that the key and mode are both right, 0 … 1. */
  confidence: number;
  /** The probability of the chosen mode: the summed probabilities of its 12 keys, 0.5 … 1. */
  modeProbability: number;
}

export const PROFILE_NAMES = ['shaath', 'bgate', 'temperley'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** Major and minor profiles, tonic first. */
export const KEY_PROFILES: Record<ProfileName, { major: readonly number[]; minor: readonly number[] }> = {
  shaath: {
    major: [6.6, 2.0, 3.5, 2.3, 4.6, 4.0, 2.5, 5.2, 2.4, 3.7, 2.3, 3.4],
    minor: [6.5, 2.7, 3.5, 5.4, 2.6, 3.5, 2.5, 5.2, 4.0, 2.7, 4.3, 3.2],
  },
  bgate: {
    major: [1, 0, 0.42, 0, 0.53, 0.37, 0, 0.77, 0, 0.38, 0.21, 0.3],
    minor: [1, 0, 0.36, 0.39, 0, 0.38, 0, 0.74, 0.27, 0, 0.42, 0.23],
  },
  temperley: {
    major: [0.748, 0.06, 0.488, 0.082, 0.67, 0.46, 0.096, 0.715, 0.104, 0.366, 0.057, 0.4],
    minor: [0.712, 0.084, 0.474, 0.618, 0.049, 0.46, 0.105, 0.747, 0.404, 0.067, 0.133, 0.33],
  },
};

/** The key model's numbers, as key.weights.json holds them. */
export interface KeyModel {
  /** Weight of the chroma's correlation with each profile, in PROFILE_NAMES' order. */
  chroma: number[];
  /** Weight of the bass line's correlation with each profile (times its concentration). */
  bass: number[];
  /** Added to every minor key's score. */
  minor: number;
  /** Weights of the chroma's twelve degrees from the key's tonic (DEGREE_SCALE × the max-normalised chroma less its mean), per mode. */
  degrees: { major: number[]; minor: number[] };
  /**
   * P(right) = σ(bias + Σ weight · input) of the inputs CALIBRATION_INPUTS names
   * (calibrationInputs): logit(p₁), ln(p₁ / p₂) and ln(p₁ / p_relative) of the winner p₁, the
   * runner-up p₂ and the winner's relative key, and the profile reading's strength.
   */
  calibration: { bias: number } & Record<CalibrationInput, number>;
}

/** Where a key's features start: chroma correlations, bass correlations, minor, then the degrees. */
const MINOR_FEATURE = PROFILE_NAMES.length * 2;
const DEGREES_FEATURE = MINOR_FEATURE + 1;
/**
 * The features of one key, in the model's order: chroma correlations, bass correlations, minor,
 * the twelve degrees for a major key, the twelve for a minor one (the other mode's are 0).
 */
export const KEY_FEATURES = DEGREES_FEATURE + 24;
/**
 * The degrees' scale. The fit's L2 penalty weighs every weight alike, so a smaller scale asks the
 * degrees' weights to grow larger before they count: it sets how far the learned correction may
 * move the profiles. Chosen by the left-out figures (docs/engine/key.md: 0.5–1 alike, 2 worse).
 */
export const DEGREE_SCALE = 0.7;

export const FITTED_KEY_MODEL: KeyModel = {
  chroma: fitted.chroma,
  bass: fitted.bass,
  minor: fitted.minor,
  degrees: fitted.degrees,
  calibration: fitted.calibration,
};

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

/** `x` less its mean, over its norm (all 0 for a constant `x`). */
function standardised(x: ArrayLike<number>): Float64Array {
  let mean = 0;
  for (let i = 0; i < 12; i++) mean += x[i]!;
  mean /= 12;
  const out = new Float64Array(12);
  let norm = 0;
  for (let i = 0; i < 12; i++) {
    out[i] = x[i]! - mean;
    norm += out[i]! * out[i]!;
  }
  if (norm > 0) for (let i = 0; i < 12; i++) out[i] = out[i]! / Math.sqrt(norm);
  return out;
}

/** Each profile standardised once: index [profile][mode: 0 minor, 1 major]. */
const STANDARD_PROFILES = PROFILE_NAMES.map((p) => [standardised(KEY_PROFILES[p].minor), standardised(KEY_PROFILES[p].major)] as const);

/** Pearson correlation of `chroma` (C first) with `profile` (tonic first) rotated to `tonic`. */
export function keyCorrelation(chroma: ArrayLike<number>, profile: readonly number[], tonic: number): number {
  const x = standardised(chroma);
  const p = standardised(profile);
  let r = 0;
  for (let i = 0; i < 12; i++) r += x[(i + tonic) % 12]! * p[i]!;
  return r;
}

/**
 * The 24 keys' features (index tonic for major, 12 + tonic for minor; KEY_FEATURES each) of a
 * chroma profile and a bass line, both C first.
 */
export function keyFeatures(chroma: ArrayLike<number>, bass: ArrayLike<number>): Float64Array[] {
  const x = standardised(chroma);
  const b = standardised(bass);
  const concentration = bassConcentration(bass);
  // The chroma over its strongest class, less its mean, times DEGREE_SCALE.
  let max = 0;
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    max = Math.max(max, chroma[i]!);
    sum += chroma[i]!;
  }
  const degrees = new Float64Array(12);
  if (max > 0) for (let i = 0; i < 12; i++) degrees[i] = (DEGREE_SCALE * (chroma[i]! - sum / 12)) / max;
  const out: Float64Array[] = [];
  for (let index = 0; index < 24; index++) {
    const tonic = index % 12;
    const mode = index < 12 ? 1 : 0;
    const f = new Float64Array(KEY_FEATURES);
    STANDARD_PROFILES.forEach((profiles, j) => {
      const p = profiles[mode];
      let rc = 0;
      let rb = 0;
      for (let i = 0; i < 12; i++) {
        rc += x[(i + tonic) % 12]! * p[i]!;
        rb += b[(i + tonic) % 12]! * p[i]!;
      }
      f[j] = rc;
      f[PROFILE_NAMES.length + j] = concentration * rb;
    });
    f[MINOR_FEATURE] = mode === 0 ? 1 : 0;
    const at = DEGREES_FEATURE + (mode === 1 ? 0 : 12);
    for (let i = 0; i < 12; i++) f[at + i] = degrees[(i + tonic) % 12]!;
    out.push(f);
  }
  return out;
}

/** The model's weights as one vector in the features' order. */
export function weightVector(model: KeyModel): Float64Array {
  return Float64Array.from([...model.chroma, ...model.bass, model.minor, ...model.degrees.major, ...model.degrees.minor]);
}

/** The model's weights (calibration aside) of a vector in the features' order: weightVector's inverse. */
export function modelOfWeights(w: ArrayLike<number>): Omit<KeyModel, 'calibration'> {
  const n = PROFILE_NAMES.length;
  const part = (from: number, count: number) => Array.from({ length: count }, (_, i) => w[from + i]!);
  return {
    chroma: part(0, n),
    bass: part(n, n),
    minor: w[MINOR_FEATURE]!,
    degrees: { major: part(DEGREES_FEATURE, 12), minor: part(DEGREES_FEATURE + 12, 12) },
  };
}

/** The softmax over the 24 keys' scores. */
export function keyProbabilities(features: readonly Float64Array[], weights: ArrayLike<number>): Float64Array {
  const scores = features.map((f) => f.reduce((s, v, i) => s + v * weights[i]!, 0));
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const z = e.reduce((a, b) => a + b, 0);
  return Float64Array.from(e, (v) => v / z);
}

/** The key confidence's inputs, in the calibration's order. */
export const CALIBRATION_INPUTS = ['logit', 'margin', 'relative', 'strength'] as const;
export type CalibrationInput = (typeof CALIBRATION_INPUTS)[number];

/** The index (tonic for major, 12 + tonic for minor) of a key's relative: A minor for C major, C major for A minor. */
export function relativeKeyIndex(index: number): number {
  return index < 12 ? 12 + ((index + 9) % 12) : (index - 12 + 3) % 12;
}

/**
 * What the calibration reads of a decision: the winner's log odds, its lead over the runner-up
 * and over its own relative key (each a log ratio of probabilities), and the strength of the
 * profile reading of the same chroma and bass line (how clearly they name any key, 0 … 1).
 */
export function calibrationInputs(probabilities: ArrayLike<number>, chroma: ArrayLike<number>, bass: ArrayLike<number>): Record<CalibrationInput, number> {
  let best = 0;
  let p1 = 0;
  let p2 = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i]!;
    if (p > p1) {
      p2 = p1;
      p1 = p;
      best = i;
    } else if (p > p2) p2 = p;
  }
  return {
    ...winnerLead(p1, p2),
    relative: logRatio(p1, probabilities[relativeKeyIndex(best)] ?? 0),
    strength: profileReading(chroma, bass).strength,
  };
}

/** The calibrated probability that the most probable key is right. */
export function calibratedConfidence(inputs: Record<CalibrationInput, number>, calibration: KeyModel['calibration']): number {
  const { bias, ...weights } = calibration;
  return logistic({ bias, weights }, inputs);
}

/**
 * The most probable of the 24 keys for a chroma profile and a bass line (both C first), with its
 * calibrated confidence; no key (C major, confidence 0) for a silent chroma.
 */
export function estimateKey(chroma: ArrayLike<number>, bass: ArrayLike<number>, model: KeyModel = FITTED_KEY_MODEL): KeyEstimate {
  const probabilities = keyProbabilities(keyFeatures(chroma, bass), weightVector(model));
  let silent = true;
  for (let i = 0; i < 12; i++) if (chroma[i]! > 0) silent = false;
  if (silent) return { key: 0, mode: 1, probabilities, confidence: 0, modeProbability: 0.5 };
  let best = 0;
  for (let i = 1; i < 24; i++) if (probabilities[i]! > probabilities[best]!) best = i;
  const mode: 0 | 1 = best < 12 ? 1 : 0;
  let modeProbability = 0;
  for (let i = mode === 1 ? 0 : 12, end = i + 12; i < end; i++) modeProbability += probabilities[i]!;
  const confidence = calibratedConfidence(calibrationInputs(probabilities, chroma, bass), model.calibration);
  return { key: best % 12, mode, probabilities, confidence, modeProbability };
}

/**
 * The key profile's own reading of a chroma and bass line, as the key stage read it up to engine
 * 23: Sha'ath's profiles, the bass line's correlation added at its concentration, and the third
 * deciding the mode when both thirds are weak and one clearly leads. No longer the reported key;
 * the descriptor formulas (descriptor.formulas.ts: `major`, `keyed`) were fitted on its mode, its
 * margin and its correlation, and read them still, and the rhythm stage weighs the chord changes
 * by its tonality.
 */
export interface ProfileReading {
  key: number;
  mode: 0 | 1;
  /** The chroma's correlation with the chosen key's profile, -1 … 1. */
  strength: number;
  /** 0.5 + 2.5 × the score's lead over the best key of the other mode, 0 … 1 (0.25 when the third overrules the profiles). */
  modeConfidence: number;
  /** The chroma's best correlation with any of the 24 profiles, the bass line aside, 0 … 1. */
  tonality: number;
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

export function profileReading(chroma: ArrayLike<number>, bass: ArrayLike<number>): ProfileReading {
  const { major, minor } = KEY_PROFILES.shaath;
  const weight = bassConcentration(bass);
  const scores: Array<{ key: number; mode: 0 | 1; r: number; score: number }> = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [mode, profile] of [[1, major], [0, minor]] as const) {
      const r = keyCorrelation(chroma, profile, tonic);
      const score = weight > 0 ? (r + weight * keyCorrelation(bass, profile, tonic)) / (1 + weight) : r;
      scores.push({ key: tonic, mode, r, score });
    }
  }
  const tonality = clamp01(Math.max(0, ...scores.map((s) => s.r)));
  scores.sort((a, b) => b.score - a.score);
  const best = scores[0]!;
  if (!(best.r > 0)) return { key: 0, mode: 1, strength: 0, modeConfidence: 0, tonality };
  const otherMode = scores.find((s) => s.mode !== best.mode)!;
  const byThird = modeByThird(best.key, chroma);
  const overruled = byThird !== undefined && byThird !== best.mode;
  return {
    key: best.key,
    mode: overruled ? byThird : best.mode,
    strength: clamp01(best.r),
    modeConfidence: overruled ? 0.25 : clamp01(0.5 + 2.5 * (best.score - otherMode.score)),
    tonality,
  };
}
