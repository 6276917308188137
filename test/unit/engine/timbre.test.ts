import { createEngine } from '../../../src/engine/engine';
import type { DescriptorInputs } from '../../../src/engine/descriptor.formulas';
import { LoudnessMeter, integratedLoudness } from '../../../src/engine/loudness';
import { RATE, denseDistorted, noise, normalise, sinePad, song, sparsePiano } from '../../../measure/audio/audio-signals';

const SECONDS = 16;
const engine = createEngine({ windowSeconds: 30 });

/** The measurements the descriptor formulas are given for a generated clip (each clip measured once). */
const cache = new Map<string, DescriptorInputs>();
function inputs(name: string, make: () => Float32Array): DescriptorInputs {
  if (!cache.has(name)) {
    const samples = make();
    const meter = new LoudnessMeter(RATE);
    meter.push([samples]);
    const powers = meter.subBlockPowers();
    const window = { samples, offsetSeconds: 0, durationSeconds: samples.length / RATE, loudness: integratedLoudness(powers), subBlockPowers: powers };
    cache.set(name, engine.measureWindow(window).inputs);
  }
  return cache.get(name)!;
}

const pad = () => inputs('pad', () => sinePad(SECONDS));
const piano = () => inputs('piano', () => sparsePiano(SECONDS));
const mix = () => inputs('mix', () => song(SECONDS, { bpm: 112, tonic: 2, minor: false, bright: true, drums: true, seed: 5 }));
const rock = () => inputs('rock', () => denseDistorted(SECONDS));
const hiss = () => inputs('noise', () => noise(SECONDS, 0.5));

/** A 55 Hz sine bass and its octave, held. */
function subBass(seconds: number): Float32Array {
  return normalise(Float32Array.from({ length: Math.round(seconds * RATE) }, (_, i) => Math.sin((2 * Math.PI * 55 * i) / RATE) + 0.5 * Math.sin((2 * Math.PI * 110 * i) / RATE)), 0.5);
}

/** Sines at the given frequencies, held: equal, or each at its amplitude ([hz, amplitude]). */
function sines(seconds: number, partials: ReadonlyArray<number | readonly [number, number]>): Float32Array {
  const pairs = partials.map((p) => (typeof p === 'number' ? ([p, 1] as const) : p));
  return normalise(Float32Array.from({ length: Math.round(seconds * RATE) }, (_, i) => pairs.reduce((sum, [f, a]) => sum + a * Math.sin((2 * Math.PI * f * i) / RATE), 0)), 0.5);
}

/** Two held sines (330 and 990 Hz: two of the fluctuation bands) whose level beats `rate` times a second. */
function tremolo(seconds: number, rate: number): Float32Array {
  return normalise(
    Float32Array.from({ length: Math.round(seconds * RATE) }, (_, i) => {
      const t = i / RATE;
      return (0.55 + 0.45 * Math.sin(2 * Math.PI * rate * t)) * (Math.sin(2 * Math.PI * 330 * t) + 0.5 * Math.sin(2 * Math.PI * 990 * t));
    }),
    0.5,
  );
}

describe('timbre measurements the descriptors read, on generated audio', () => {
  it('when the level beats faster, then the bands\' modulation centroid is higher, near the rate of the beating', () => {
    const slow = inputs('tremolo 1.5', () => tremolo(SECONDS, 1.5)).timbre.modulationCentroid;
    const fast = inputs('tremolo 8', () => tremolo(SECONDS, 8)).timbre.modulationCentroid;
    expect(slow).toBeGreaterThan(1);
    expect(slow).toBeLessThan(3);
    expect(fast).toBeGreaterThan(6.5);
    expect(fast).toBeLessThan(10);
    // A drum mix flickers faster than a pad of held chords that swell.
    expect(mix().timbre.modulationCentroid).toBeGreaterThan(pad().timbre.modulationCentroid);
  });

  it('when more notes sound at once, then more partials are counted: one sine reads 1, a chord of six sines 6, and partials 20 dB under the strongest are not counted', () => {
    const seconds = 4;
    expect(inputs('sine', () => sines(seconds, [440])).timbre.partials).toBeCloseTo(1, 1);
    expect(inputs('chord', () => sines(seconds, [196, 247, 294, 392, 494, 587])).timbre.partials).toBeCloseTo(6, 1);
    // Three strong notes and three at -26 dB: only the three.
    const partly = () => sines(seconds, [196, 294, 392, ...[247, 494, 587].map((f) => [f, 0.05] as const)]);
    expect(inputs('partly', partly).timbre.partials).toBeCloseTo(3, 1);
    // Above 2 kHz nothing is counted.
    expect(inputs('high', () => sines(seconds, [3000, 4000])).timbre.partials).toBe(0);
    expect(mix().timbre.partials).toBeGreaterThan(pad().timbre.partials);
  });

  it('when the level swells and fades (a held pad) rather than pulsing (a drum mix) or jumping at random (noise, dense distorted rock), then its level smoothness is higher', () => {
    expect(pad().timbre.levelSmoothness).toBeGreaterThan(1.2);
    expect(piano().timbre.levelSmoothness).toBeGreaterThan(mix().timbre.levelSmoothness + 0.2);
    expect(pad().timbre.levelSmoothness).toBeGreaterThan(mix().timbre.levelSmoothness + 0.4);
    expect(hiss().timbre.levelSmoothness).toBeLessThan(0.65);
    expect(rock().timbre.levelSmoothness).toBeLessThan(0.7);
  });

  it('when the notes are clean (a pad, a piano), then 200-400 Hz shows a higher spectral contrast than distorted rock or noise', () => {
    expect(pad().timbre.lowContrast).toBeGreaterThan(24);
    expect(piano().timbre.lowContrast).toBeGreaterThan(24);
    expect(rock().timbre.lowContrast).toBeLessThan(20);
    expect(hiss().timbre.lowContrast).toBeLessThan(12);
  });

  it('when distortion or noise fills the valleys between partials in 1-4 kHz, then its spectral contrast falls; a band with nothing in it is not measured', () => {
    expect(piano().timbre.midContrast).toBeGreaterThan(40);
    expect(mix().timbre.midContrast).toBeGreaterThan(rock().timbre.midContrast + 6);
    expect(rock().timbre.midContrast).toBeLessThan(25);
    expect(hiss().timbre.midContrast).toBeLessThan(12);
    // The pad's partials end under 2 kHz, so its 1-4 kHz band holds only leakage 40 dB and more down.
    expect(pad().timbre.midContrast).toBeNaN();
  });

  it('when the energy lies in the bass (a 55 Hz sine), then the mid-frequency ratio is near 0; a pad of 200-2000 Hz partials reads near 1 and a mix between', () => {
    expect(inputs('bass', () => subBass(SECONDS)).timbre.midFrequencyRatio).toBeLessThan(0.05);
    expect(pad().timbre.midFrequencyRatio).toBeGreaterThan(0.9);
    expect(mix().timbre.midFrequencyRatio).toBeGreaterThan(0.2);
    expect(mix().timbre.midFrequencyRatio).toBeLessThan(0.8);
  });

  it('when chords and drums strike (a mix), then the mid-range onset strength is several times that of a held pad', () => {
    expect(mix().midOnsetStrength).toBeGreaterThan(4 * pad().midOnsetStrength);
    expect(mix().midOnsetStrength).toBeGreaterThan(1.5);
  });
});
