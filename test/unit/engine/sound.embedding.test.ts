import { MODELS_EMBEDDING, SIGNAL_EMBEDDING } from '../../../src/core/sound';
import {
  CLASSIFIER_ORDER,
  FITTED_SOUND_WEIGHTS,
  SOUND_FEATURE_NAMES,
  applyBlocks,
  logCovarianceTriangle,
  modelsEmbedding,
  signalEmbedding,
  soundFeatures,
  standardise,
  type SoundMeasurements,
} from '../../../src/engine/sound.embedding';
import { cepstralFrames, supervector } from '../../../src/engine/sound.frames';
import { Stft } from '../../../src/engine/signal.stft';
import { BASE_INPUTS } from '../../helpers/descriptor-inputs';
import { denseDistorted, sinePad, sparsePiano } from '../../../measure/audio/audio-signals';
import { analyse } from '../../helpers/engine-run';

/*
 * The sound embeddings: the signal path's 255 statistics, their projection by the fitted weights,
 * and the models' embedding; and on generated audio, that music alike lies nearer than music unalike.
 */

const SECONDS = 12;
const stft = new Stft();
const spectrogramOf = (samples: Float32Array) => stft.spectrogram(stft.halfRate(samples));

function measurements(patch: Partial<SoundMeasurements> = {}): SoundMeasurements {
  return {
    timbre: BASE_INPUTS.timbre,
    shape: BASE_INPUTS.shape,
    tempo: 120,
    tempoConfidence: 0.8,
    onsetRate: 4,
    midOnsetStrength: 3,
    pulseClarity: 0.6,
    beatPercussion: 0.5,
    onsetLevels: { low: [1, 0.5], mid: [1, 0.4], high: [1, 0.3], all: [3, 1] },
    onsetAcf: new Array<number>(16).fill(0.2),
    mode: 1,
    modeConfidence: 0.8,
    keyStrength: 0.7,
    majorChords: 0.6,
    dissonance: 0.3,
    key: 0,
    chroma: { frames: [1, 0, 0.5, 0, 0.8, 0.4, 0, 0.9, 0, 0.5, 0, 0.3], sustained: [1, 0, 0.5, 0, 0.8, 0.4, 0, 0.9, 0, 0.5, 0, 0.3], bass: [1, 0, 0, 0, 0, 0, 0, 0.5, 0, 0, 0, 0] },
    loudness: -12,
    loudnessRange: 6,
    sectionLoudnessSpread: 1,
    vocalFrames: 0.1,
    heldFrames: 0.5,
    descriptors: new Array<number>(12).fill(0.5),
    ...patch,
  };
}

const cosine = (a: readonly number[], b: readonly number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0) / Math.hypot(...a) / Math.hypot(...b);
const norm = (v: readonly number[]): number => Math.hypot(...v);

describe('the signal path’s statistics', () => {
  it('are 255, named in order, and every one a number', () => {
    const x = soundFeatures(measurements());
    expect(SOUND_FEATURE_NAMES).toHaveLength(255);
    expect(new Set(SOUND_FEATURE_NAMES).size).toBe(255);
    expect(x).toHaveLength(255);
    expect(x.every(Number.isFinite)).toBe(true);
  });

  it('read the chroma from the key’s tonic: the same song a fifth higher gives the same statistics', () => {
    const turn = (p: readonly number[], by: number) => Array.from({ length: 12 }, (_, k) => p[(k - by + 12) % 12]!);
    const m = measurements();
    const up = measurements({ key: 7, chroma: { frames: turn(m.chroma.frames, 7), sustained: turn(m.chroma.sustained, 7), bass: turn(m.chroma.bass, 7) } });
    const a = soundFeatures(up);
    soundFeatures(m).forEach((v, i) => expect(a[i]).toBeCloseTo(v, 12));
  });

  it('hold the cepstral covariance as its matrix logarithm: the identity gives 0, e² on the diagonal gives 2, a covariance of 1 between two terms its own mark', () => {
    const n = 3;
    expect(logCovarianceTriangle([1, 0, 0, 0, 1, 0, 0, 0, 1], n).map((v) => Math.abs(v))).toEqual([0, 0, 0, 0, 0, 0]);
    const e2 = Math.E ** 2;
    expect(logCovarianceTriangle([e2, 0, 0, 0, e2, 0, 0, 0, e2], n).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([2, 0, 0, 2, 0, 2]);
    const coupled = logCovarianceTriangle([2, 1, 0, 1, 2, 0, 0, 0, 1], n);
    expect(coupled[1]).toBeGreaterThan(0);
    expect(coupled[2]).toBeCloseTo(0, 12);
  });

  it('leave a missing measurement at the mean: its z-score is 0', () => {
    expect(standardise([Number.NaN, 3], [1, 1], [2, 2])).toEqual([0, 1]);
  });
});

describe('the embeddings by the shipped weights', () => {
  const signal = FITTED_SOUND_WEIGHTS.signal;
  const shipped = signal ? it : it.skip;

  shipped('signal/4: the statistics\' two blocks and the frames\' two, each of unit length times its weight; no embedding without frames of the mixture\'s width', () => {
    const frames = cepstralFrames(spectrogramOf(denseDistorted(4, { bpm: 150, seed: 1 })));
    const e = signalEmbedding(soundFeatures(measurements()), frames)!;
    expect(e.kind).toBe(SIGNAL_EMBEDDING);
    const framesBlocks = [signal!.frames!.block, signal!.frames!.discriminant!];
    const blocks = [...signal!.blocks, ...framesBlocks];
    expect(blocks.map((b) => b.offset.length)).toEqual([64, 10, 128, 10]);
    const sizes = blocks.map((b) => b.offset.length);
    expect(e.vector).toHaveLength(sizes.reduce((a, b) => a + b, 0));
    let at = 0;
    blocks.forEach((b, i) => {
      expect(norm(e.vector.slice(at, at + sizes[i]!))).toBeCloseTo(b.weight, 4);
      at += sizes[i]!;
    });
    // Blocks applied by hand give the same numbers.
    const z = standardise(soundFeatures(measurements()), signal!.mean, signal!.std);
    const bag = supervector(signal!.frames!.gmm, frames, signal!.frames!.relevance);
    expect([...applyBlocks(z, signal!.blocks), ...applyBlocks(bag, framesBlocks)].map((v, i) => v - e.vector[i]!).every((d) => Math.abs(d) < 1e-4)).toBe(true);
    expect(signalEmbedding(soundFeatures(measurements()), frames.subarray(1))).toBeUndefined();
    expect(signalEmbedding(soundFeatures(measurements()), frames, { signal: { ...signal!, frames: undefined } })).toBeUndefined();
  });

  shipped('on generated audio, two renditions of one kind of music lie nearer than music of another kind', () => {
    const embed = (x: Float32Array) => analyse(x).embeddings!.find((e) => e.kind === SIGNAL_EMBEDDING)!.vector;
    const rock = [embed(denseDistorted(SECONDS, { bpm: 150, seed: 1 })), embed(denseDistorted(SECONDS, { bpm: 160, seed: 2 }))];
    const pads = [embed(sinePad(SECONDS, { root: 57 })), embed(sinePad(SECONDS, { root: 62, minor: true }))];
    const piano = embed(sparsePiano(SECONDS, { seed: 3 }));
    expect(cosine(rock[0]!, rock[1]!)).toBeGreaterThan(cosine(rock[0]!, pads[0]!));
    expect(cosine(rock[0]!, rock[1]!)).toBeGreaterThan(cosine(rock[1]!, piano));
    expect(cosine(pads[0]!, pads[1]!)).toBeGreaterThan(cosine(pads[0]!, rock[1]!));
  });

  (FITTED_SOUND_WEIGHTS.models ? it : it.skip)('musicnn/2: the layer’s components (unit length), the classifiers and the genre directions (their weights), then the signal path’s vector; without weights or the signal path’s vector, none', () => {
    const w = FITTED_SOUND_WEIGHTS.models!;
    const layer = w.mean.map((v, i) => v + (i % 7) * 0.1);
    const classes = Object.fromEntries(CLASSIFIER_ORDER.map((c, i) => [c, 0.2 + 0.1 * i])) as Parameters<typeof modelsEmbedding>[1];
    const signal = Array.from({ length: 12 }, (_, i) => (i % 3) - 1);
    const e = modelsEmbedding(layer, classes, signal)!;
    expect(e.kind).toBe(MODELS_EMBEDDING);
    const parts = [w.components.length, CLASSIFIER_ORDER.length, w.discriminant?.offset.length ?? 0];
    expect(e.vector).toHaveLength(parts[0]! + parts[1]! + parts[2]! + (w.signal ? signal.length : 0));
    expect(norm(e.vector.slice(0, parts[0]))).toBeCloseTo(1, 4);
    expect(norm(e.vector.slice(parts[0], parts[0]! + parts[1]!))).toBeCloseTo(w.classifiers.weight, 4);
    if (w.discriminant) expect(norm(e.vector.slice(parts[0]! + parts[1]!, parts[0]! + parts[1]! + parts[2]!))).toBeCloseTo(w.discriminant.weight, 4);
    if (w.signal) {
      const signalNorm = norm(signal);
      e.vector.slice(-signal.length).forEach((v, i) => expect(v).toBeCloseTo((signal[i]! / signalNorm) * w.signal!.weight, 5));
      expect(modelsEmbedding(layer, classes, undefined)).toBeUndefined();
    }
    expect(modelsEmbedding(layer, classes, signal, {})).toBeUndefined();
    expect(modelsEmbedding(layer.slice(1), classes, signal)).toBeUndefined();
  });
});
