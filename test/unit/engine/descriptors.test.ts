import type { AudioFeatures } from '../../../src/core/types';
import { type DescriptorInputs, computeDescriptors, ramp, softClamp, valenceInputs } from '../../../src/engine/descriptor.formulas';
import { logistic } from '../../../src/engine/logistic';
import { VALENCE_SIGNAL } from '../../../src/engine/valence';
import { BASE_INPUTS } from '../../helpers/descriptor-inputs';
import { RATE, denseDistorted, liveVersion, mixIn, normalise, quieterDarker, roughen, sinePad, song, sparsePiano, speechLike, sungVowels } from '../../../measure/audio/audio-signals';
import { analyse } from '../../helpers/engine-run';
import { type DrumHit, drumMachine } from '../../../measure/audio/signals';

const SECONDS = 16;

/** Each generated clip is analysed once per file. */
const cache = new Map<string, AudioFeatures>();
const features = (name: string, make: () => Float32Array): AudioFeatures => {
  if (!cache.has(name)) cache.set(name, analyse(make()));
  return cache.get(name)!;
};

/** The signal through a hard tanh clipper, brought back to its own peak: distortion without a level change. */
function distortedAtSameLevel(x: Float32Array): Float32Array {
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  return normalise(Float32Array.from(x, (v) => Math.tanh((10 * v) / peak)), peak);
}

/** Loud square-wave chords through a clipper with a four-on-the-floor click: electric and electronic. */
function distortedSquare(seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    let v = 0;
    for (const f of [110, 165, 220]) v += Math.sign(Math.sin(2 * Math.PI * f * t));
    const beat = t % 0.5;
    v += beat < 0.02 ? 3 * Math.sin(2 * Math.PI * 60 * beat) : 0;
    out[i] = Math.tanh(3 * v);
  }
  return normalise(out, 0.99);
}

/** A drum, bass and chords mix: the reference clip the direction tests change one thing of. */
const mixSignal = (drums = true) => song(SECONDS, { bpm: 112, tonic: 2, minor: false, bright: true, drums, seed: 5 });
const mix = () => features('mix', () => mixSignal());

describe('descriptors: directions a listener expects, on generated audio', () => {
  it('when the same mix is played 18 dB quieter and low-passed at 1 kHz, then its energy is lower', () => {
    const muffled = features('muffled', () => quieterDarker(mixSignal(), 18));
    expect(muffled.loudness).toBeLessThan(mix().loudness - 15);
    expect(muffled.energy).toBeLessThan(mix().energy - 0.15);
  });

  it('when the drums are taken out of the mix, then its danceability is lower', () => {
    const drumless = features('drumless', () => mixSignal(false));
    expect(drumless.danceability).toBeLessThan(mix().danceability - 0.1);
  });

  it.each([
    ['a low voice', 1, 110],
    ['a higher voice', 9, 210],
  ])('when the signal is speech-like (%s), then speechiness > 0.66 and it is not called instrumental', (_, seed, f0) => {
    const f = features(`speech-${seed}`, () => speechLike(SECONDS, { seed, f0 }));
    expect(f.speechiness).toBeGreaterThan(0.66);
    expect(f.instrumentalness).toBeLessThan(0.5);
  });

  it('when the signal is music (a mix, a drumless mix, distorted rock, a pad, sparse piano, a drum machine alone), then speechiness < 0.33', () => {
    const step = (voice: DrumHit[1], velocity: number, steps: number[]) => steps.map((s) => [s * 12, voice, velocity] as DrumHit);
    const bar = [...step('kick', 1, [0, 8, 10]), ...step('snare', 0.9, [4, 12]), ...step('hat', 0.6, [0, 2, 4, 6, 8, 10, 12, 14])];
    const music = [
      mix(),
      features('drumless', () => mixSignal(false)),
      features('dense', () => denseDistorted(SECONDS, { bpm: 176 })),
      features('pad', () => sinePad(SECONDS)),
      features('piano', () => sparsePiano(SECONDS)),
      features('drum-machine', () => drumMachine({ bpm: 100, seconds: SECONDS, ticksPerBeat: 48, bar })),
    ];
    for (const f of music) expect(f.speechiness).toBeLessThan(0.33);
  });

  it('when the mix is distorted and sixteenth-note hats are added, then it is more aggressive and less relaxed', () => {
    const rough = features('rough', () => roughen(mixSignal(), 112));
    expect(rough.mood.aggressive).toBeGreaterThan(mix().mood.aggressive + 0.1);
    expect(rough.mood.relaxed).toBeLessThan(mix().mood.relaxed);
    expect(rough.energy).toBeGreaterThan(mix().energy);
  });

  it('when sparse slow piano is compared with the mix, then it is more relaxed and sad, with less energy and aggression', () => {
    const piano = features('piano', () => sparsePiano(SECONDS));
    // The fitted relaxed spans what the models give (0.4–1 on most music): the direction, not a margin.
    expect(piano.mood.relaxed).toBeGreaterThan(mix().mood.relaxed);
    expect(piano.mood.sad).toBeGreaterThan(mix().mood.sad);
    expect(piano.energy).toBeLessThan(mix().energy);
    expect(piano.mood.aggressive).toBeLessThan(mix().mood.aggressive);
  });

  it('when loud distorted rock is compared with a quiet pad, then it is more energetic and more aggressive than happy', () => {
    const dense = features('dense', () => denseDistorted(SECONDS, { bpm: 176 }));
    const pad = features('pad', () => sinePad(SECONDS));
    expect(dense.energy).toBeGreaterThanOrEqual(0.8);
    expect(dense.mood.aggressive).toBeGreaterThan(dense.mood.happy);
    expect(pad.mood.relaxed).toBeGreaterThan(dense.mood.relaxed);
  });

  it('when a slow quiet pad is distorted at the same low level, then it stays relaxed and its happiness is not cut to a fraction', () => {
    const clean = features('pad', () => sinePad(SECONDS));
    const fuzz = features('fuzz-pad', () => distortedAtSameLevel(sinePad(SECONDS)));
    expect(fuzz.mood.relaxed).toBeGreaterThan(0.5);
    expect(fuzz.mood.relaxed).toBeGreaterThan(clean.mood.relaxed - 0.25);
    expect(fuzz.mood.happy).toBeGreaterThan(0.6 * clean.mood.happy);
    // The distortion is heard: the texture is harsher and less acoustic.
    expect(fuzz.acousticness).toBeLessThan(clean.acousticness);
  });

  it('when a voice sings over the mix, then instrumentalness drops; a sung melody alone reads not instrumental, a pad and a piano instrumental', () => {
    const sung = features('mix+voice', () => mixIn(mixSignal(), sungVowels(SECONDS, { peak: 0.4 }), 1));
    expect(sung.instrumentalness).toBeLessThan(mix().instrumentalness - 0.2);
    expect(features('voice', () => sungVowels(SECONDS)).instrumentalness).toBeLessThan(0.5);
    expect(features('pad', () => sinePad(SECONDS)).instrumentalness).toBeGreaterThan(0.5);
    expect(features('piano', () => sparsePiano(SECONDS)).instrumentalness).toBeGreaterThan(0.5);
  });

  it('when a sine pad is compared with a distorted square-wave track, then its acousticness is higher', () => {
    const pad = features('pad', () => sinePad(SECONDS));
    const square = features('square', () => distortedSquare(SECONDS));
    expect(pad.acousticness).toBeGreaterThan(square.acousticness + 0.3);
    expect(features('piano', () => sparsePiano(SECONDS)).acousticness).toBeGreaterThan(square.acousticness + 0.3);
  });

  it('when the same clip is played with reverb and an audience, then liveness rises', () => {
    const live = features('live', () => liveVersion(mixSignal()));
    expect(live.liveness).toBeGreaterThan(mix().liveness + 0.1);
  });

});

describe('descriptor formulas', () => {
  const base = BASE_INPUTS;

  it('when the ramp input is outside its range or not a number, then it is clamped to [0, 1]', () => {
    expect(ramp(-5, 0, 10)).toBe(0);
    expect(ramp(50, 0, 10)).toBe(1);
    expect(ramp(5, 10, 0)).toBe(0.5);
    expect(ramp(Number.NaN, 0, 1)).toBe(0);
  });

  it('when a formula passes an end, then its value nears 0 or 1 without reaching it and keeps the order: the value itself from 0.1 to 0.9', () => {
    for (const v of [0.1, 0.25, 0.5, 0.9]) expect(softClamp(v)).toBe(v);
    const xs = [-2, -0.5, -0.1, 0, 0.05, 0.0999, 0.9001, 0.95, 1, 1.1, 1.5, 3];
    const ys = xs.map(softClamp);
    ys.forEach((y, i) => {
      expect(y).toBeGreaterThan(0);
      expect(y).toBeLessThan(1);
      if (i > 0) expect(y).toBeGreaterThan(ys[i - 1]!);
    });
    // Continuous where the tails meet the middle.
    expect(Math.abs(softClamp(0.0999) - 0.0999)).toBeLessThan(1e-4);
    expect(Math.abs(softClamp(0.9001) - 0.9001)).toBeLessThan(1e-4);
    expect(softClamp(Number.NaN)).toBe(0);
  });

  it('when two tracks are both louder, denser and grittier than the fitted range, then the one with more air still reads more energetic, short of 1', () => {
    const loudest: DescriptorInputs = { ...base, loudness: -6, onsetRate: 8, timbre: { ...base.timbre, flatness: 0.2, midContrast: 12, highFrequencyRatio: 0.1 } };
    const lessAir: DescriptorInputs = { ...loudest, timbre: { ...loudest.timbre, highFrequencyRatio: 0.064 } };
    const [a, b] = [computeDescriptors(loudest).energy, computeDescriptors(lessAir).energy];
    expect(a).toBeLessThan(1);
    expect(a).toBeGreaterThan(b);
    expect(b).toBeGreaterThan(0.9);
  });

  it('when only the number of partials sounding at once rises (a fuller arrangement), then happy rises', () => {
    const full = computeDescriptors({ ...base, timbre: { ...base.timbre, partials: 15 } });
    const sparse = computeDescriptors({ ...base, timbre: { ...base.timbre, partials: 4 } });
    expect(full.mood.happy).toBeGreaterThan(sparse.mood.happy + 0.1);
  });

  it('when only the treble rises (the roll-off), then happy stays where it was and sadness falls', () => {
    const bright = computeDescriptors({ ...base, timbre: { ...base.timbre, rolloff: 2800 } });
    const dark = computeDescriptors({ ...base, timbre: { ...base.timbre, rolloff: 400 } });
    expect(bright.mood.happy).toBe(dark.mood.happy);
    expect(bright.mood.sad).toBeLessThan(dark.mood.sad);
  });

  it('when only the loudness rises, then energy rises', () => {
    expect(computeDescriptors({ ...base, loudness: -8 }).energy).toBeGreaterThan(computeDescriptors(base).energy);
  });

  it('when a master is louder than -8 LUFS, as the loudest rock and club masters are, then it still reads more energetic and danceable than at -8', () => {
    const [at8, at6] = [computeDescriptors({ ...base, loudness: -8 }), computeDescriptors({ ...base, loudness: -6 })];
    expect(at6.energy).toBeGreaterThan(at8.energy);
    expect(at6.danceability).toBeGreaterThan(at8.danceability);
    expect(at6.mood.aggressive).toBeGreaterThan(at8.mood.aggressive);
  });

  it('when tracks differ, then valence is the fitted logistic model of their inputs (valence.ts), not the happy mood less the sad', () => {
    const variants: DescriptorInputs[] = [
      base,
      { ...base, mode: 0 },
      { ...base, loudness: -24, tempo: 70 },
      { ...base, midOnsetStrength: 8, keyStrength: 0.95 },
      { ...base, harmony: { majorChords: 0.2, dissonance: 0.42 } },
      { ...base, shape: { ...base.shape, mean: base.shape.mean.map((v, i) => (i === 1 ? 40 : v)) } },
    ];
    const d = variants.map((v) => computeDescriptors(v));
    variants.forEach((v, i) => expect(Math.abs(d[i]!.valence - logistic(VALENCE_SIGNAL, valenceInputs(v)))).toBeLessThanOrEqual(0.0005));
    expect(new Set(d.map((x) => x.valence)).size).toBe(variants.length);
    // The harmony's colour moves valence and leaves the moods alone: happy and sad no longer decide it.
    expect(d[4]!.mood).toEqual(d[0]!.mood);
    expect(d[4]!.valence).not.toBe(d[0]!.valence);
  });

  it('when only the mode flips from major to minor, then sadness rises', () => {
    const minor = computeDescriptors({ ...base, mode: 0 });
    expect(minor.mood.sad).toBeGreaterThan(computeDescriptors(base).mood.sad);
  });

  it('when a measurement is missing (NaN), then it counts as absent evidence in the formulas that use it and leaves the others alone', () => {
    // A NaN that reached a weighted sum would make the whole descriptor 0 (clamped); a missing
    // measurement must instead weigh as none of that evidence.
    const missing = computeDescriptors({ ...base, pulseClarity: Number.NaN, tempo: Number.NaN });
    const absent = computeDescriptors({ ...base, pulseClarity: 0, tempo: 0 });
    expect(missing).toEqual(absent);
    expect(missing.danceability).toBeGreaterThan(0);
    expect(missing.energy).toBe(computeDescriptors(base).energy);
  });
});

// RATE is the generators' sample rate; the analyses above assume it.
expect(RATE).toBe(44100);
