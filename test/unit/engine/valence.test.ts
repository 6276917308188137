import { computeDescriptors, valenceInputs, type DescriptorInputs } from '../../../src/engine/descriptor.formulas';
import { modelDescriptors } from '../../../src/engine/models/model-descriptors';
import { CLASSIFIERS, type ClassifierName, MSD_TAGS, type MsdTag } from '../../../src/engine/models/model-files';
import type { ModelOutputs } from '../../../src/engine/models/runtime';
import { harmonyColour } from '../../../src/engine/tonal.colour';
import type { Chroma } from '../../../src/engine/tonal.chroma';
import { spectralShape, OCTAVES } from '../../../src/engine/timbre.shape';
import { BINS, BIN_HZ } from '../../../src/engine/signal.stft';
import { logistic } from '../../../src/engine/logistic';
import { VALENCE_MODELS, VALENCE_SIGNAL, byArousal, modelValenceInputs, signalValenceInputs } from '../../../src/engine/valence';
import fitted from '../../../src/engine/valence.weights.json';
import { BASE_INPUTS } from '../../helpers/descriptor-inputs';
import { chordProgression, midiToHz, seeded, SAMPLE_RATE } from '../../../measure/audio/signals';
import { framesOf } from '../../helpers/engine-run';

const inputs: DescriptorInputs = {
  ...BASE_INPUTS,
  shape: {
    mean: [-20, 12, 1, 3, 0.5, 1, -0.5, 0.3, 0, -0.2, 0.1, 0, 0.1],
    spread: [8, 4, 3, 2, 2, 1.5, 1.5, 1.2, 1, 1, 1, 0.9, 0.9],
    covariance: BASE_INPUTS.shape.covariance,
    deltaSpread: BASE_INPUTS.shape.deltaSpread,
    contrast: [1.5, 1.8, 2, 2.1, 1.9, 1.7, 1.2],
    valley: [-3, -3.2, -3.5, -3.8, -4, -4.3, -5],
  },
};

const classes = (v: number): Record<ClassifierName, number> => Object.fromEntries(CLASSIFIERS.map((c) => [c.name, v])) as Record<ClassifierName, number>;
const tags = (v: number): Record<MsdTag, number> => Object.fromEntries(MSD_TAGS.map((t) => [t, v])) as Record<MsdTag, number>;

describe('valence, fitted on people’s labels', () => {
  it('weighs exactly the inputs the engine builds, on both paths: none missing, none the engine never makes', () => {
    expect(Object.keys(VALENCE_SIGNAL.weights).sort()).toEqual(Object.keys(valenceInputs(inputs)).sort());
    expect(Object.keys(VALENCE_MODELS.weights).sort()).toEqual(Object.keys(modelValenceInputs(classes(0.5), tags(0.1))).sort());
    for (const f of [VALENCE_SIGNAL, VALENCE_MODELS]) {
      expect(Number.isFinite(f.bias)).toBe(true);
      for (const w of Object.values(f.weights)) expect(Number.isFinite(w)).toBe(true);
    }
    expect(fitted.fittedOn).toMatch(/4Q audio emotion dataset/);
  });

  it('signal inputs: each feature, the spectral shape’s coefficients, arousal less 0.5, and each of them times it', () => {
    const row = signalValenceInputs({ loud: 0.8, major: 0.25 }, inputs.shape, 0.9);
    expect(row.arousal).toBeCloseTo(0.4, 12);
    expect(row.loud).toBe(0.8);
    expect(row[byArousal('loud')]).toBeCloseTo(0.32, 12);
    expect(row[byArousal('major')]).toBeCloseTo(0.1, 12);
    expect(row.mfcc1).toBe(12);
    expect(row.mfcc1sd).toBe(4);
    expect(row[`contrast${OCTAVES - 1}`]).toBe(1.2);
    expect(row.valley0).toBe(-3);
    expect(row[byArousal('mfcc1')]).toBeCloseTo(4.8, 12);
    expect(Object.keys(row)).toHaveLength(1 + 2 * (2 + 13 * 2 + OCTAVES * 2));
  });

  it('logistic: one half at a zero sum, rising with an input of positive weight; an absent or non-finite input counts 0', () => {
    const f = { bias: 0, weights: { a: 2, b: -1 } };
    expect(logistic(f, { a: 0, b: 0 })).toBe(0.5);
    expect(logistic(f, { a: 1, b: 0 })).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
    expect(logistic(f, { a: 1, b: 0 })).toBeGreaterThan(logistic(f, { a: 0.5, b: 0 }));
    expect(logistic(f, { b: 1 })).toBeCloseTo(1 / (1 + Math.exp(1)), 12);
    expect(logistic(f, { a: Number.NaN, b: 0 })).toBe(0.5);
  });

  it('the signal path’s valence is the signal model of the window’s inputs, rounded', () => {
    expect(computeDescriptors(inputs).valence).toBeCloseTo(logistic(VALENCE_SIGNAL, valenceInputs(inputs)), 3);
    // The spectral shape moves it: it is read.
    const other: DescriptorInputs = { ...inputs, shape: { ...inputs.shape, mean: inputs.shape.mean.map((v) => v + 3) } };
    expect(computeDescriptors(other).valence).not.toBe(computeDescriptors(inputs).valence);
  });

  it('the models’ valence is the models’ fit of their outputs, rounded; more of a tag with positive weight never lowers it', () => {
    const out: ModelOutputs = { classes: classes(0), tags: tags(0), patches: { used: 10, of: 10 }, embedding: [] };
    const d = modelDescriptors(out);
    expect(d.valence).toBeCloseTo(logistic(VALENCE_MODELS, modelValenceInputs(out.classes, out.tags)), 3);
    const [tag, w] = Object.entries(VALENCE_MODELS.weights).filter(([k]) => k.startsWith('tag:')).sort((a, b) => b[1] - a[1])[0]!;
    expect(w).toBeGreaterThan(0);
    // Tag probabilities are small (most under 0.2), and their weights large to match.
    const more = { ...out, tags: { ...out.tags, [tag.slice(4)]: 0.01 } };
    expect(modelDescriptors(more).valence).toBeGreaterThan(d.valence);
  });
});

/** A chroma of given frames (each 12 classes, C first). */
function chromaOf(rows: number[][]): Chroma {
  return { frames: Float32Array.from(rows.flat()), bass: new Float32Array(rows.length * 12), sustained: Float32Array.from(rows.flat()), count: rows.length, tuning: 0 };
}
const pcs = (...classes: number[]): number[] => Array.from({ length: 12 }, (_, k) => (classes.includes(k) ? 1 : 0));

describe('the harmony’s colour', () => {
  it('counts major and minor triads, and gives 0.5 where no frame forms one', () => {
    expect(harmonyColour(chromaOf([pcs(0, 4, 7), pcs(5, 9, 0), pcs(7, 11, 2)])).majorChords).toBe(1);
    expect(harmonyColour(chromaOf([pcs(9, 0, 4), pcs(2, 5, 9)])).majorChords).toBe(0);
    expect(harmonyColour(chromaOf([pcs(0, 4, 7), pcs(9, 0, 4), pcs(9, 0, 4), pcs(2, 5, 9)])).majorChords).toBeCloseTo(0.25, 12);
    // A cluster of six classes holds no triad's share.
    expect(harmonyColour(chromaOf([pcs(0, 1, 2, 3, 4, 5)])).majorChords).toBe(0.5);
    expect(harmonyColour(chromaOf([new Array<number>(12).fill(0)]))).toEqual({ majorChords: 0.5, dissonance: 0 });
  });

  it('orders dissonance as ears do: the fifth smoothest, a triad next, a tritone rougher, a cluster of seconds roughest', () => {
    const d = (c: number[]): number => harmonyColour(chromaOf([c])).dissonance;
    expect(d(pcs(0, 7))).toBeLessThan(d(pcs(0, 4, 7)));
    expect(d(pcs(0, 4, 7))).toBeLessThan(d(pcs(0, 6)));
    expect(d(pcs(0, 6))).toBeLessThan(d(pcs(0, 1, 2)));
    expect(d(pcs(0, 1))).toBe(1);
  });

  it('on audio: a major progression reads more major chords than the same in minor', () => {
    const major = harmonyColour(framesOf(chordProgression({ tonic: 0, mode: 'major', seconds: 8 })).chroma);
    const minor = harmonyColour(framesOf(chordProgression({ tonic: 0, mode: 'minor', seconds: 8 })).chroma);
    expect(major.majorChords).toBeGreaterThan(0.7);
    expect(minor.majorChords).toBeLessThan(0.5);
  });
});

describe('the spectral shape', () => {
  const sine = (hz: number, gain: number, seconds = 3): Float32Array => {
    const out = new Float32Array(seconds * SAMPLE_RATE);
    for (let i = 0; i < out.length; i++) out[i] = gain * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE);
    return out;
  };
  const noise = (gain: number, seconds = 3): Float32Array => {
    const random = seeded(7);
    return Float32Array.from({ length: seconds * SAMPLE_RATE }, () => gain * (2 * random() - 1));
  };

  it('a tone stands out of its octave where noise fills it: contrast higher, valleys lower', () => {
    const tone = spectralShape(framesOf(sine(midiToHz(69), 0.3)).spec);
    const hiss = spectralShape(framesOf(noise(0.3)).spec);
    // 440 Hz lies in the 400–800 Hz octave, band 2.
    expect(tone.contrast[2]).toBeGreaterThan(hiss.contrast[2]! + 1);
    expect(tone.valley[2]).toBeLessThan(hiss.valley[2]!);
    expect(tone.contrast).toHaveLength(OCTAVES);
  });

  it('the first coefficient is the level: louder reads higher; a timbre that changes half-way spreads more than either half', () => {
    const quiet = spectralShape(framesOf(noise(0.05)).spec);
    const loud = spectralShape(framesOf(noise(0.5)).spec);
    expect(loud.mean[0]).toBeGreaterThan(quiet.mean[0]! + 10);
    expect(loud.mean).toHaveLength(13);
    const [tone, hiss] = [sine(440, 0.3), noise(0.3)];
    const both = new Float32Array(tone.length + hiss.length);
    both.set(tone);
    both.set(hiss, tone.length);
    const spreadOf = (x: Float32Array): number => spectralShape(framesOf(x).spec).spread[1]!;
    expect(spreadOf(both)).toBeGreaterThan(Math.max(spreadOf(tone), spreadOf(hiss)));
  });

  it('contrast and valleys are those of each band sorted: its strongest and weakest fifth, ties and repeats included', () => {
    const frames = 64;
    const random = seeded(11);
    // Coarse levels (many ties) and a fifth of the bins at one value: the selection's hard cases.
    const mags = Float32Array.from({ length: frames * BINS }, () => (random() < 0.2 ? 0.5 : Math.floor(random() * 50) / 50));
    const shape = spectralShape({ frames, mags, blockPower: new Float64Array(frames), blockCrossings: new Float64Array(frames) });
    const edges = [0, 200, 400, 800, 1600, 3200, 6400, 11025].map((hz) => Math.min(BINS, Math.max(1, Math.round(hz / BIN_HZ))));
    for (let b = 0; b < OCTAVES; b++) {
      let contrast = 0;
      let valley = 0;
      let measured = 0;
      for (let f = 0; f < frames; f += 4, measured++) {
        const band = Float32Array.from(mags.subarray(f * BINS + edges[b]!, f * BINS + edges[b + 1]!)).sort();
        const q = Math.max(1, Math.floor(band.length / 5));
        const weakest = band.subarray(0, q).reduce((x, y) => x + y, 0) / q;
        const strongest = band.subarray(band.length - q).reduce((x, y) => x + y, 0) / q;
        contrast += Math.log10(strongest + 1e-9) - Math.log10(weakest + 1e-9);
        valley += Math.log10(weakest + 1e-9);
      }
      expect(shape.contrast[b]).toBeCloseTo(contrast / measured, 9);
      expect(shape.valley[b]).toBeCloseTo(valley / measured, 9);
    }
  });
});
