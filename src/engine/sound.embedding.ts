import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { MODELS_EMBEDDING, SIGNAL_EMBEDDING } from '../core/sound';
import type { SoundEmbedding } from '../core/types';
import { supervector } from './sound.frames';
import fitted from './sound.weights.json';
import type { TimbreStats } from './timbre.stats';
import { COEFFICIENTS, type SpectralShape } from './timbre.shape';

/**
 * The sound embeddings: a vector per analysis placing it among others by how it sounds, compared
 * by cosine (docs/SIMILARITY.md).
 *
 * **The signal path's** (`signal/4`, every analysis): 255 statistics of the window the engine
 * measures anyway — the timbre scalars, the cepstral coefficients' means, spreads, frame-to-frame
 * changes and covariance (as its matrix logarithm, so that covariances compare as vectors), the
 * octave-band contrast, the rhythm (tempo, pulse, the onset envelopes' levels and their
 * autocorrelation from 0.15 to 3 s), the harmony (its mode and colour, the chroma, bass line and
 * sustained chroma averaged and turned so the key's tonic comes first), the loudness, the voice
 * and the descriptors — each standardised by its mean and spread over the fit songs, then two
 * blocks: the 64 leading principal components (unit length), and as much of the 10 directions
 * that best separate the fit songs' AllMusic genres (a shrunk linear discriminant of all of each
 * song's genres, unit length); then the bag of frames (sound.frames.ts): the window's cepstral
 * frames as a supervector against a mixture of 32 Gaussians fitted on the fit songs' frames, its
 * 128 leading principal components each scaled by variance^-1/4, unit length times √1.25, and 0.7
 * as much of the 10 directions of the supervector that best separate the genres. 212 numbers.
 *
 * **The models'** (`musicnn/2`, MODELS_DIR): the MSD auto-tagger's 200-unit layer averaged over
 * the window's patches, centred, its 128 leading principal components each divided by the fourth
 * root of its variance (half-way to whitening: the leading directions, which hold the loudness and
 * production every song has, count less), unit length; a fifth as much of the five classifiers'
 * outputs, centred, unit length; the 15 directions of the layer that best separate the fit songs'
 * genres (a shrunk discriminant of the components whitened), unit length, at 0.7; and the signal
 * path's own embedding of the window beside.
 *
 * Both are fitted on the 448 fit songs of the 4Q dataset, and nothing else of it, by
 * `npm run bench:similarity -- --write` (sound.weights.json), and judged there with the artists
 * left out in turn.
 */

const TIMBRE_KEYS = [
  'centroid', 'centroidVariation', 'rolloff', 'flatness', 'highFrequencyRatio', 'lowFrequencyRatio', 'midFrequencyRatio', 'lowContrast', 'midContrast',
  'levelSmoothness', 'partials', 'spectralFlux', 'zcr', 'lowEnergyRatio', 'pauseRatio', 'floorDb', 'floorFlatness', 'syllabicModulation', 'modulationPeakiness',
  'modulationCentroid',
] as const satisfies readonly (keyof TimbreStats)[];

/** Lags of the onset envelope's autocorrelation: 16 from 0.15 to 3 s, evenly spaced in log time. */
export const ONSET_ACF_SECONDS = Array.from({ length: 16 }, (_, i) => 0.15 * (3 / 0.15) ** (i / 15));

/** The measurements of a window the signal path's embedding is made of (engine.ts gathers them). */
export interface SoundMeasurements {
  timbre: Readonly<Record<(typeof TIMBRE_KEYS)[number], number>>;
  shape: SpectralShape;
  tempo: number;
  tempoConfidence: number;
  onsetRate: number;
  midOnsetStrength: number;
  pulseClarity: number;
  beatPercussion: number;
  /** Mean and standard deviation of the low, mid, high and whole onset envelopes. */
  onsetLevels: { low: [number, number]; mid: [number, number]; high: [number, number]; all: [number, number] };
  /** The whole onset envelope's autocorrelation at ONSET_ACF_SECONDS, over its value at 0. */
  onsetAcf: readonly number[];
  /** The profile reading's mode (1 major) and its confidence, and its correlation (tonal.key.ts). */
  mode: number;
  modeConfidence: number;
  keyStrength: number;
  majorChords: number;
  dissonance: number;
  /** The key's tonic: the chroma is turned so that it comes first. */
  key: number;
  /** Means over the window's frames, C first. */
  chroma: { frames: readonly number[]; sustained: readonly number[]; bass: readonly number[] };
  loudness: number;
  loudnessRange: number;
  sectionLoudnessSpread: number;
  vocalFrames: number;
  heldFrames: number;
  /** energy, danceability, liveness, speechiness, instrumentalness, acousticness, valence, arousal, then the moods happy, sad, relaxed, aggressive. */
  descriptors: readonly number[];
}

/** The names of the signal path's 255 statistics, in order. */
export const SOUND_FEATURE_NAMES: readonly string[] = [
  ...TIMBRE_KEYS.map((k) => `timbre.${k}`),
  ...Array.from({ length: COEFFICIENTS }, (_, i) => `mfcc.mean${i}`),
  ...Array.from({ length: COEFFICIENTS }, (_, i) => `mfcc.spread${i}`),
  ...Array.from({ length: 7 }, (_, i) => `contrast${i}`),
  ...Array.from({ length: 7 }, (_, i) => `valley${i}`),
  ...Array.from({ length: COEFFICIENTS }, (_, i) => `mfcc.delta${i}`),
  ...Array.from({ length: COEFFICIENTS }, (_, i) => Array.from({ length: COEFFICIENTS - i }, (_, d) => `mfcc.logcov${i}_${i + d}`)).flat(),
  'rhythm.logTempo', 'rhythm.tempoConfidence', 'rhythm.onsetRate', 'rhythm.midOnsetStrength', 'rhythm.pulseClarity', 'rhythm.beatPercussion',
  ...['low', 'mid', 'high', 'all'].flatMap((b) => [`onset.${b}Mean`, `onset.${b}Spread`]),
  ...ONSET_ACF_SECONDS.map((s) => `onset.acf${s.toFixed(2)}s`),
  'harmony.mode', 'harmony.modeConfidence', 'harmony.keyStrength', 'harmony.majorChords', 'harmony.dissonance',
  ...['frames', 'sustained', 'bass'].flatMap((part) => Array.from({ length: 12 }, (_, k) => `chroma.${part}${k}`)),
  'chroma.framesEntropy', 'chroma.sustainedEntropy', 'chroma.bassEntropy',
  'loudness', 'loudness.range', 'loudness.sectionSpread',
  'voice.vocalFrames', 'voice.heldFrames',
  ...['energy', 'danceability', 'liveness', 'speechiness', 'instrumentalness', 'acousticness', 'valence', 'arousal', 'happy', 'sad', 'relaxed', 'aggressive'].map((d) => `descriptor.${d}`),
];

/** The matrix logarithm of a symmetric positive-definite matrix (eigenvalues floored at 1e-8), its upper triangle row by row, the off-diagonal terms × √2. */
export function logCovarianceTriangle(covariance: readonly number[], n: number): number[] {
  const evd = new EigenvalueDecomposition(new Matrix(Array.from({ length: n }, (_, i) => covariance.slice(i * n, (i + 1) * n))), { assumeSymmetric: true });
  const values = evd.realEigenvalues.map((v) => Math.log(Math.max(v, 1e-8)));
  const vectors = evd.eigenvectorMatrix;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let v = 0;
      for (let k = 0; k < n; k++) v += vectors.get(i, k) * values[k]! * vectors.get(j, k);
      out.push(i === j ? v : v * Math.SQRT2);
    }
  }
  return out;
}

/** A profile as shares summing to 1, turned so that index 0 is `tonic`; and its entropy (nats). */
function turned(profile: readonly number[], tonic: number): { shares: number[]; entropy: number } {
  const total = profile.reduce((a, b) => a + b, 0);
  const shares = Array.from({ length: 12 }, (_, k) => (total > 0 ? profile[(k + tonic) % 12]! / total : 0));
  return { shares, entropy: -shares.reduce((s, p) => s + p * Math.log(p + 1e-9), 0) };
}

/** The signal path's 255 statistics of a window, in SOUND_FEATURE_NAMES' order (not standardised). */
export function soundFeatures(m: SoundMeasurements): number[] {
  const chroma = (['frames', 'sustained', 'bass'] as const).map((part) => turned(m.chroma[part], m.key));
  const x = [
    ...TIMBRE_KEYS.map((k) => (k === 'centroid' || k === 'rolloff' ? Math.log(Math.max(m.timbre[k], 1e-6)) : m.timbre[k])),
    ...m.shape.mean,
    ...m.shape.spread,
    ...m.shape.contrast,
    ...m.shape.valley,
    ...m.shape.deltaSpread,
    ...logCovarianceTriangle(m.shape.covariance, COEFFICIENTS),
    Math.log(Math.max(m.tempo, 1)), m.tempoConfidence, m.onsetRate, m.midOnsetStrength, m.pulseClarity, m.beatPercussion,
    ...m.onsetLevels.low, ...m.onsetLevels.mid, ...m.onsetLevels.high, ...m.onsetLevels.all,
    ...m.onsetAcf,
    m.mode, m.modeConfidence, m.keyStrength, m.majorChords, m.dissonance,
    ...chroma.flatMap((c) => c.shares),
    ...chroma.map((c) => c.entropy),
    m.loudness, m.loudnessRange, m.sectionLoudnessSpread,
    m.vocalFrames, m.heldFrames,
    ...m.descriptors,
  ];
  return x.map((v) => (Number.isFinite(v) ? v : Number.NaN));
}

/** A linear block of an embedding: y = z·matrix + offset (matrix: one row per input), unit length, times weight. */
export interface EmbeddingBlock {
  /** inputs × outputs, row-major. */
  matrix: number[][];
  offset: number[];
  weight: number;
}

export interface SignalEmbeddingWeights {
  /** SOUND_FEATURE_NAMES' means and standard deviations over the fit songs. */
  mean: number[];
  std: number[];
  blocks: EmbeddingBlock[];
  /** The bag-of-frames part (sound.frames.ts): the frames' supervector, projected. */
  frames?: FramesEmbeddingWeights;
}

export interface FramesEmbeddingWeights {
  /** The mixture of Gaussians the supervector is taken against: components × CEPSTRAL_DIMS means and variances, row-major. */
  gmm: { dims: number; weights: number[]; means: number[]; variances: number[] };
  /** MAP adaptation's relevance factor. */
  relevance: number;
  /** The supervector's leading principal components, scaled: a block of the embedding. */
  block: EmbeddingBlock;
  /** The directions of the supervector that best separate the fit songs' genres (`signal/4` on): the last block. */
  discriminant?: EmbeddingBlock;
}

export interface ModelsEmbeddingWeights {
  /** The tagger layer's mean over the fit songs, and its principal components (rows) with their scales. */
  mean: number[];
  components: number[][];
  scale: number[];
  /** The five classifiers (CLASSIFIER_ORDER) centred on their fit means, unit length, times weight. */
  classifiers: { mean: number[]; weight: number };
  /** The directions of the layer that best separate the fit songs' genres, over the layer itself (`musicnn/2` on). */
  discriminant?: EmbeddingBlock;
  /** The signal path's embedding of the same window beside, unit length, times weight (`musicnn/2` on). */
  signal?: { weight: number };
}

export interface SoundWeights {
  signal?: SignalEmbeddingWeights;
  models?: ModelsEmbeddingWeights;
}

/** The shipped weights (sound.weights.json), empty until a fit has written them. */
export const FITTED_SOUND_WEIGHTS = fitted as SoundWeights;

function unitScaled(y: number[], weight: number): number[] {
  const norm = Math.hypot(...y);
  return y.map((v) => (norm > 0 ? (v / norm) * weight : 0));
}

/** z-scores: a statistic that is not a number (a missing measurement) sits at the mean (0). */
export function standardise(x: readonly number[], mean: readonly number[], std: readonly number[]): number[] {
  return x.map((v, i) => (Number.isFinite(v) ? (v - mean[i]!) / (std[i]! || 1) : 0));
}

/** Applies the blocks to a standardised vector. */
export function applyBlocks(z: readonly number[], blocks: readonly EmbeddingBlock[]): number[] {
  return blocks.flatMap((b) => {
    const y = b.offset.slice();
    for (let i = 0; i < z.length; i++) {
      const zi = z[i]!;
      if (zi === 0) continue;
      const row = b.matrix[i]!;
      for (let j = 0; j < y.length; j++) y[j]! += zi * row[j]!;
    }
    return unitScaled(y, b.weight);
  });
}

/** The signal path's embedding of a window's statistics and cepstral frames (sound.frames.ts); undefined without fitted weights. */
export function signalEmbedding(x: readonly number[], frames: Float32Array, weights: SoundWeights = FITTED_SOUND_WEIGHTS): SoundEmbedding | undefined {
  const w = weights.signal;
  if (!w?.frames || w.mean.length !== x.length || frames.length % w.frames.gmm.dims !== 0) return undefined;
  const statistics = applyBlocks(standardise(x, w.mean, w.std), w.blocks);
  const bag = applyBlocks(supervector(w.frames.gmm, frames, w.frames.relevance), w.frames.discriminant ? [w.frames.block, w.frames.discriminant] : [w.frames.block]);
  return { kind: SIGNAL_EMBEDDING, vector: [...statistics, ...bag].map(round) };
}

/** The order of the classifiers in the models' embedding, each read at its positive class. */
export const CLASSIFIER_ORDER = ['mood_happy', 'mood_sad', 'mood_relaxed', 'mood_aggressive', 'danceability'] as const;

/**
 * The models' embedding of the tagger layer's mean, the classifiers' outputs and (`musicnn/2` on)
 * the signal path's embedding of the same window; undefined without fitted weights, or without
 * the signal path's vector where the weights want it.
 */
export function modelsEmbedding(
  layer: readonly number[],
  classes: Readonly<Record<(typeof CLASSIFIER_ORDER)[number], number>>,
  signal: readonly number[] | undefined,
  weights: SoundWeights = FITTED_SOUND_WEIGHTS,
): SoundEmbedding | undefined {
  const w = weights.models;
  if (!w || w.mean.length !== layer.length || (w.signal && !signal)) return undefined;
  const centred = layer.map((v, i) => v - w.mean[i]!);
  const y = w.components.map((c, k) => c.reduce((s, v, i) => s + v * centred[i]!, 0) * w.scale[k]!);
  const c = CLASSIFIER_ORDER.map((name, i) => classes[name] - w.classifiers.mean[i]!);
  const vector = [...unitScaled(y, 1), ...unitScaled(c, w.classifiers.weight)];
  if (w.discriminant) vector.push(...applyBlocks(layer, [w.discriminant]));
  if (w.signal && signal) vector.push(...unitScaled([...signal], w.signal.weight));
  return { kind: MODELS_EMBEDDING, vector: vector.map(round) };
}

/** Six significant digits: the vectors are stored as 32-bit floats anyway. */
function round(v: number): number {
  return Number(v.toPrecision(6));
}
