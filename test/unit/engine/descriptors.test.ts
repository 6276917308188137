import type { AudioFeatures } from '../../../src/core/types';
import { computeDescriptors, ramp, type DescriptorInputs } from '../../../src/engine/descriptors';
import { loadEssentia } from '../../../src/engine/essentia';
import { featuresFromWindow } from '../../../src/engine/features';
import { LoudnessMeter, integratedLoudness } from '../../../src/engine/loudness';
import { analyzeRhythm } from '../../../src/engine/rhythm';
import { analyzeTonal } from '../../../src/engine/tonal';
import { RATE, denseDistorted, liveVersion, noise, sinePad, song, speechLike } from '../../helpers/audio-signals';
import { type DrumHit, drumMachine } from '../../helpers/signals';

// Real analyses of generated audio: seconds each on an idle core, much more on a shared one.
jest.setTimeout(180_000);

const SECONDS = 16;

/** The whole pipeline after decoding, on a generated mono 44.1 kHz signal. */
function analyse(samples: Float32Array): AudioFeatures {
  const meter = new LoudnessMeter(RATE);
  meter.push([samples]);
  const powers = meter.subBlockPowers();
  return featuresFromWindow(
    loadEssentia(),
    { samples, offsetSeconds: 0, durationSeconds: samples.length / RATE, loudness: integratedLoudness(powers), subBlockPowers: powers },
    { analyzeRhythm, analyzeTonal },
  );
}

describe('descriptors on generated signals', () => {
  const cache = new Map<string, AudioFeatures>();
  const features = (name: string, make: () => Float32Array): AudioFeatures => {
    if (!cache.has(name)) cache.set(name, analyse(make()));
    return cache.get(name)!;
  };
  const brightFastMajor = (): AudioFeatures =>
    features('bright', () => song(SECONDS, { bpm: 138, tonic: 2, minor: false, bright: true }));
  const darkSlowMinor = (): AudioFeatures =>
    features('dark', () => song(SECONDS, { bpm: 66, tonic: 9, minor: true, bright: false, drums: false }));
  const dense = (): AudioFeatures => features('dense', () => denseDistorted(SECONDS, { bpm: 176 }));
  const pad = (): AudioFeatures => features('pad', () => sinePad(SECONDS));

  it.each([
    ['a low male voice', 1, 110],
    ['a higher female voice', 9, 210],
  ])('when the signal is speech-like (%s), then speechiness > 0.66 and it is not called instrumental', (_, seed, f0) => {
    const f = features(`speech-${seed}`, () => speechLike(SECONDS, { seed, f0 }));
    expect(f.speechiness).toBeGreaterThan(0.66);
    expect(f.instrumentalness).toBeLessThan(0.5);
  });

  it('when the signal is music, then speechiness < 0.33', () => {
    const music = [
      brightFastMajor(),
      darkSlowMinor(),
      dense(),
      pad(),
      features('drummed-minor', () => song(SECONDS, { bpm: 92, tonic: 5, minor: true, bright: false })),
    ];
    for (const f of music) expect(f.speechiness).toBeLessThan(0.33);
  });

  it('when a drum machine plays alone (dry hits with silence between them), then speechiness < 0.33 and it is instrumental', () => {
    // Pauses, level dips and kick/hat timbre changes are speech cues too; engine 4 gave this 0.73.
    const step = (voice: DrumHit[1], velocity: number, steps: number[]) => steps.map((s) => [s * 12, voice, velocity] as DrumHit);
    const bar = [...step('kick', 1, [0, 8, 10]), ...step('snare', 0.9, [4, 12]), ...step('hat', 0.6, [0, 2, 4, 6, 8, 10, 12, 14])];
    const f = features('drum-machine', () => drumMachine({ bpm: 100, seconds: SECONDS, ticksPerBeat: 48, bar }));
    expect(f.speechiness).toBeLessThan(0.33);
    expect(f.instrumentalness).toBeGreaterThan(0.5);
  });

  it('when a loud, dense, fast, distorted track is compared with a quiet, slow sine pad, then it is more energetic and aggressive', () => {
    expect(dense().energy).toBeGreaterThan(pad().energy + 0.2);
    expect(dense().mood.aggressive).toBeGreaterThan(pad().mood.aggressive + 0.2);
    expect(dense().arousal).toBeGreaterThan(pad().arousal);
    expect(pad().mood.relaxed).toBeGreaterThan(dense().mood.relaxed);
  });

  it('when a bright fast major track is compared with a dark slow minor one, then it is happier and higher in valence', () => {
    expect(brightFastMajor().mode).toBe(1);
    expect(darkSlowMinor().mode).toBe(0);
    expect(brightFastMajor().valence).toBeGreaterThan(darkSlowMinor().valence + 0.15);
    expect(brightFastMajor().mood.happy).toBeGreaterThan(darkSlowMinor().mood.happy + 0.15);
    expect(darkSlowMinor().mood.sad).toBeGreaterThan(brightFastMajor().mood.sad);
  });

  it.each([
    ['a pop song', () => song(SECONDS, { bpm: 124, tonic: 0, minor: false, bright: true })],
    ['a sine pad', () => sinePad(SECONDS)],
  ])('when audience noise and reverb are added to %s, then liveness rises', (name, make) => {
    const dry = make();
    const studio = features(`dry-${name}`, () => dry);
    const live = features(`live-${name}`, () => liveVersion(dry));
    expect(live.liveness).toBeGreaterThan(studio.liveness + 0.05);
    expect(studio.liveness).toBeLessThan(0.3);
  });

  it('when the music has a steady, strong beat, then it is more danceable than a beatless pad', () => {
    expect(brightFastMajor().danceability).toBeGreaterThan(pad().danceability);
  });

  it('when the signal is white noise, then no descriptor leaves [0, 1]', () => {
    const f = features('noise', () => noise(8, 0.5));
    for (const v of [f.energy, f.danceability, f.liveness, f.speechiness, f.valence, f.arousal, f.engagement, ...Object.values(f.mood)]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });
});

describe('descriptor formulas', () => {
  const base: DescriptorInputs = {
    loudness: -14,
    spectral: {
      centroid: 1500, rolloff: 3000, flatness: 0.03, zcr: 0.05, zcrVariation: 0.5, centroidVariation: 0.5,
      lowEnergyRatio: 0.15, pauseRatio: 0, floorDb: -12, floorFlatness: 0.02, syllabicModulation: 0.3,
      modulationPeakiness: 80, highFrequencyRatio: 0.05, lowFrequencyRatio: 0.3, spectralFlux: 0.6,
    },
    essentia: { danceability: 1.5, dynamicComplexity: 3 },
    tempo: 120, tempoConfidence: 0.8, mode: 1, modeConfidence: 0.6,
    keyStrength: 0.7, sectionLoudnessSpread: 1, pulseClarity: 0.7,
  };

  it('when the ramp input is outside its range or not a number, then it is clamped to [0, 1]', () => {
    expect(ramp(-5, 0, 10)).toBe(0);
    expect(ramp(15, 0, 10)).toBe(1);
    expect(ramp(5, 10, 0)).toBe(0.5);
    expect(ramp(Number.NaN, 0, 1)).toBe(0);
  });

  it('when only the loudness rises, then energy rises and nothing else falls out of range', () => {
    const quiet = computeDescriptors({ ...base, loudness: -28 });
    const loud = computeDescriptors({ ...base, loudness: -8 });
    expect(loud.energy).toBeGreaterThan(quiet.energy);
    expect(loud.arousal).toBeGreaterThan(quiet.arousal);
  });

  it('when only the mode flips from major to minor, then valence falls and sadness rises', () => {
    const major = computeDescriptors(base);
    const minor = computeDescriptors({ ...base, mode: 0 });
    expect(minor.valence).toBeLessThan(major.valence);
    expect(minor.mood.sad).toBeGreaterThan(major.mood.sad);
  });

  it('when measurements are missing (NaN), then descriptors stay finite and in range', () => {
    const d = computeDescriptors({ ...base, loudness: Number.NEGATIVE_INFINITY, tempo: Number.NaN });
    for (const v of [d.energy, d.valence, d.arousal, d.danceability, d.approachability, d.engagement, ...Object.values(d.mood)]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });
});
