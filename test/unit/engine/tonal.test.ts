import { chromaSum } from '../../../src/engine/tonal.chroma';
import {
  FITTED_KEY_MODEL,
  KEY_FEATURES,
  KEY_PROFILES,
  PROFILE_NAMES,
  bassConcentration,
  calibratedConfidence,
  calibrationInputs,
  estimateKey,
  keyCorrelation,
  keyFeatures,
  modelOfWeights,
  type KeyModel,
  modeByThird,
  profileReading,
  relativeKeyIndex,
  weightVector,
} from '../../../src/engine/tonal.key';
import { tuningHz } from '../../../src/engine/engine';
import { framesOf, tonalOf } from '../../helpers/engine-run';
import { SAMPLE_RATE, chordProgression, midiToHz } from '../../../measure/audio/signals';

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const name = (r: { key: number; mode: number }): string => `${NAMES[r.key]} ${r.mode === 1 ? 'major' : 'minor'}`;

// Local bindings: under Jest's vm sandbox a global lookup per sample is several times slower.
const { PI, round, sin } = Math;

/** A sine of `hz` with three harmonics, `seconds` long. */
function note(hz: number, seconds: number): Float32Array {
  const out = new Float32Array(round(seconds * SAMPLE_RATE));
  const w = (2 * PI * hz) / SAMPLE_RATE;
  for (let i = 0; i < out.length; i++) out[i] = 0.3 * (sin(w * i) + 0.5 * sin(2 * w * i) + 0.25 * sin(3 * w * i));
  return out;
}

describe('chroma', () => {
  it.each([
    [57, 9],
    [60, 0],
    [66, 6],
    [40, 4],
  ])('when MIDI note %i plays alone, then its pitch class %i is the strongest class', (midi, pc) => {
    const profile = chromaSum(framesOf(note(midiToHz(midi), 3)).chroma);
    expect(profile.indexOf(Math.max(...profile))).toBe(pc);
  });

  it('when the instrument is tuned 30 cents sharp, then the tuning is measured and the pitch class stays', () => {
    const { chroma } = framesOf(note(midiToHz(60.3), 3));
    expect(chroma.tuning).toBeCloseTo(0.3, 1);
    const profile = chromaSum(chroma);
    expect(profile.indexOf(Math.max(...profile))).toBe(0);
  });

  it.each([
    [0, 440],
    [0.3, 447.7],
    [-0.5 + 0.1, 429.9],
  ])('when the instrument is tuned %f semitones off A = 440, then the analysis reports A4 at %f Hz', (cents, hz) => {
    const played = new Float32Array(SAMPLE_RATE * 6);
    // A, C♯, E in turn, each two seconds, all shifted alike.
    [69, 73, 76].forEach((m, i) => played.set(note(midiToHz(m + cents), 2), i * 2 * SAMPLE_RATE));
    expect(tuningHz(framesOf(played).chroma.tuning)).toBeCloseTo(hz, 0);
  });

  it('when short clicks sound over a held note, then the sustained chroma keeps the note and drops the clicks', () => {
    const held = note(midiToHz(57), 4);
    // A click of white noise 10 ms long every 250 ms, louder than the note.
    let seed = 1;
    for (let at = 0; at < held.length; at += SAMPLE_RATE / 4) {
      for (let i = 0; i < SAMPLE_RATE / 100 && at + i < held.length; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        held[at + i]! += 2 * (seed / 2147483648 - 0.5);
      }
    }
    const { chroma } = framesOf(held);
    const share = (row: Float64Array) => row[9]! / row.reduce((a, b) => a + b, 0);
    const plain = chromaSum(chroma);
    const sustained = chromaSum(chroma, 0, chroma.count, 'sustained');
    expect(sustained.indexOf(Math.max(...sustained))).toBe(9);
    expect(share(sustained)).toBeGreaterThan(share(plain));
    expect(share(sustained)).toBeGreaterThan(0.5);
  });

  it('when the signal is silent, then every frame is zero', () => {
    const { chroma } = framesOf(new Float32Array(SAMPLE_RATE * 2));
    expect(chroma.frames.every((v) => v === 0)).toBe(true);
    expect(chroma.bass.every((v) => v === 0)).toBe(true);
  });
});

describe('bass line', () => {
  it.each([
    [28, 4],
    [33, 9],
    [36, 0],
    [43, 7],
  ])('when MIDI note %i (below 200 Hz) plays alone, then the bass profile is mostly its pitch class %i', (midi, pc) => {
    const bass = chromaSum(framesOf(note(midiToHz(midi), 3)).chroma, 0, Infinity, 'bass');
    const total = bass.reduce((a, b) => a + b, 0);
    expect(bass.indexOf(Math.max(...bass))).toBe(pc);
    expect(bass[pc]! / total).toBeGreaterThan(0.6);
  });

  it('when only notes above 200 Hz play, then the bass profile is empty', () => {
    const bass = chromaSum(framesOf(note(midiToHz(69), 3)).chroma, 0, Infinity, 'bass');
    expect(bass.every((v) => v === 0)).toBe(true);
  });
});

describe('key model', () => {
  const major = KEY_PROFILES.shaath.major;
  const rotated = (profile: readonly number[], tonic: number) => Array.from({ length: 12 }, (_, i) => profile[(i - tonic + 12) % 12]!);
  const silentBass = new Array<number>(12).fill(0);

  it('when the chroma is a major profile rotated to D, then the key is D major, its probability the largest and the 24 summing to 1', () => {
    const k = estimateKey(rotated(major, 2), silentBass);
    expect(name(k)).toBe('D major');
    expect(profileReading(rotated(major, 2), silentBass).strength).toBeCloseTo(1, 6);
    expect(keyCorrelation(rotated(major, 2), major, 2)).toBeCloseTo(1, 6);
    expect(k.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Math.max(...k.probabilities)).toBe(k.probabilities[2]);
    expect(k.confidence).toBeGreaterThan(0);
    expect(k.confidence).toBeLessThan(1);
  });

  it('when chroma and bass are transposed, then the probabilities move with them, key for key', () => {
    const chroma = [1, 0.1, 0.5, 0.2, 0.8, 0.6, 0.1, 0.9, 0.15, 0.7, 0.2, 0.4];
    const bass = [0.5, 0, 0, 0, 0.1, 0, 0, 0.3, 0, 0.1, 0, 0];
    const at = estimateKey(chroma, bass);
    for (const shift of [1, 5, 11]) {
      const moved = estimateKey(rotated(chroma, shift), rotated(bass, shift));
      expect(moved.key).toBe((at.key + shift) % 12);
      for (let k = 0; k < 24; k++) expect(moved.probabilities[(k % 12 + shift) % 12 + (k < 12 ? 0 : 12)]).toBeCloseTo(at.probabilities[k]!, 12);
      expect(moved.confidence).toBeCloseTo(at.confidence, 12);
    }
  });

  it('when the chroma is equally C major and A minor, then a bass line resting on A names A minor and one on C names C major', () => {
    // C, E, G, A: the triads of C major and A minor alike, with the diatonic D, F, B quieter.
    const chroma = [1, 0, 0.3, 0, 1, 0.3, 0, 1, 0, 1, 0, 0.3];
    const pedal = (pc: number) => Array.from({ length: 12 }, (_, i) => (i === pc ? 0.7 : i === (pc + 7) % 12 ? 0.3 : 0));
    expect(name(estimateKey(chroma, pedal(9)))).toBe('A minor');
    expect(name(estimateKey(chroma, pedal(0)))).toBe('C major');
  });

  it('a bass line spread over every pitch class (a piano\'s low register) barely votes: its concentration is near 0', () => {
    const diffuse = Array.from({ length: 12 }, (_, i) => (i === 9 ? 0.12 : i === 4 ? 0.1 : 0.078));
    expect(bassConcentration(diffuse)).toBeLessThan(0.15);
    expect(bassConcentration(new Array(12).fill(1))).toBe(0);
    expect(bassConcentration([1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])).toBe(1);
    expect(bassConcentration(silentBass)).toBe(0);
    // An even bass line's features are zero: it leaves the chroma alone to decide.
    const even = keyFeatures(rotated(major, 4), new Array(12).fill(1));
    for (const f of even) expect(Array.from(f.slice(3, 6))).toEqual([0, 0, 0]);
    expect(estimateKey(rotated(major, 4), new Array(12).fill(1)).probabilities).toEqual(estimateKey(rotated(major, 4), silentBass).probabilities);
  });

  it('the calibration reads the winner\'s log odds, its lead over the runner-up and over its relative key, and the profile reading\'s strength', () => {
    const chroma = rotated(major, 0);
    // C major first, A minor (its relative, index 21) third, D minor runner-up.
    const p = Float64Array.from({ length: 24 }, (_, i) => (i === 0 ? 0.6 : i === 14 ? 0.2 : i === 21 ? 0.1 : 0.1 / 21));
    const inputs = calibrationInputs(p, chroma, silentBass);
    expect(inputs.logit).toBeCloseTo(Math.log(0.6 / 0.4), 6);
    expect(inputs.margin).toBeCloseTo(Math.log(3), 6);
    expect(inputs.relative).toBeCloseTo(Math.log(6), 6);
    expect(inputs.strength).toBe(profileReading(chroma, silentBass).strength);
    expect(relativeKeyIndex(0)).toBe(21);
    expect(relativeKeyIndex(21)).toBe(0);
    expect(relativeKeyIndex(12 + 4)).toBe(7); // E minor's relative: G major
  });

  it('the confidence rises with the winner\'s probability and its lead, and lies in (0, 1)', () => {
    const calibration = FITTED_KEY_MODEL.calibration;
    const chroma = rotated(major, 0);
    const spread = Float64Array.from({ length: 24 }, (_, i) => (i === 0 ? 0.3 : 0.7 / 23));
    const sure = Float64Array.from({ length: 24 }, (_, i) => (i === 0 ? 0.9 : 0.1 / 23));
    const tied = Float64Array.from({ length: 24 }, (_, i) => (i < 2 ? 0.45 : 0.1 / 22));
    const confidence = (p: Float64Array) => calibratedConfidence(calibrationInputs(p, chroma, silentBass), calibration);
    expect(confidence(sure)).toBeGreaterThan(confidence(spread));
    expect(confidence(sure)).toBeGreaterThan(confidence(tied));
    for (const p of [spread, sure, tied]) {
      expect(confidence(p)).toBeGreaterThan(0);
      expect(confidence(p)).toBeLessThan(1);
    }
    expect(estimateKey(chroma, silentBass).confidence).toBe(confidence(estimateKey(chroma, silentBass).probabilities));
  });

  it('when the chroma is silent, then no key is claimed', () => {
    const none = estimateKey(new Array(12).fill(0), silentBass);
    expect(none.confidence).toBe(0);
    const reading = profileReading(new Array(12).fill(0), silentBass);
    expect(reading.strength).toBe(0);
    expect(reading.tonality).toBe(0);
  });

  it('the profile reading (the descriptors\' mode): the bass line at its concentration, and the third deciding only when both thirds are weak and one clearly leads', () => {
    const chroma = [1, 0, 0.3, 0, 1, 0.3, 0, 1, 0, 1, 0, 0.3];
    const resting = Array.from({ length: 12 }, (_, i) => (i === 9 ? 0.6 : i === 4 ? 0.4 : 0));
    expect(name(profileReading(chroma, resting))).toBe('A minor');
    expect(name(profileReading(chroma, Array.from({ length: 12 }, (_, i) => (i === 0 ? 0.6 : i === 7 ? 0.4 : 0))))).toBe('C major');
    expect(profileReading(new Array(12).fill(1), silentBass).tonality).toBe(0);
    expect(modeByThird(0, [1, 0, 0.1, 0.3, 0.05, 0.2, 0, 0.9, 0.1, 0, 0.2, 0])).toBe(0);
    expect(modeByThird(0, [1, 0, 0, 0.8, 0.9, 0, 0, 0.9, 0, 0, 0, 0])).toBeUndefined();
  });

  it('the shipped weights favour the profiles\' fit, and the model reads every profile', () => {
    expect(FITTED_KEY_MODEL.chroma).toHaveLength(PROFILE_NAMES.length);
    expect(FITTED_KEY_MODEL.bass).toHaveLength(PROFILE_NAMES.length);
    for (const w of FITTED_KEY_MODEL.chroma) expect(w).toBeGreaterThan(0);
    expect(weightVector(FITTED_KEY_MODEL)).toHaveLength(KEY_FEATURES);
    expect(FITTED_KEY_MODEL.degrees.major).toHaveLength(12);
    expect(FITTED_KEY_MODEL.degrees.minor).toHaveLength(12);
    const { calibration, ...weights } = FITTED_KEY_MODEL;
    // A surer decision (a larger lead) and a chroma naming a key more clearly both count for the key.
    expect(calibration.margin + calibration.relative).toBeGreaterThan(0);
    expect(calibration.strength).toBeGreaterThan(0);
    expect(modelOfWeights(weightVector(FITTED_KEY_MODEL))).toEqual(weights);
  });

  it('the degrees read the chroma from each key\'s tonic, per mode: a weight on a major key\'s fifth names the key a fifth below the chroma\'s strongest class', () => {
    const zero = new Array<number>(12).fill(0);
    const onFifth: KeyModel = { chroma: [0, 0, 0], bass: [0, 0, 0], minor: 0, degrees: { major: zero.map((_, i) => (i === 7 ? 10 : 0)), minor: zero }, calibration: FITTED_KEY_MODEL.calibration };
    // The chroma's strongest class is D (2): its key is G major (7) by this model alone.
    const chroma = zero.map((_, i) => (i === 2 ? 1 : 0.2));
    expect(name(estimateKey(chroma, silentBass, onFifth))).toBe('G major');
    // The same weight on the minor degrees names G minor instead.
    const minorFifth: KeyModel = { ...onFifth, degrees: { major: zero, minor: onFifth.degrees.major } };
    expect(name(estimateKey(chroma, silentBass, minorFifth))).toBe('G minor');
    // The degrees are the chroma less its mean over its strongest class (scaled): an even chroma adds nothing.
    for (const f of keyFeatures(new Array(12).fill(1), silentBass)) for (const v of f.slice(KEY_FEATURES - 24)) expect(v).toBe(0);
  });
});

describe('key of played progressions', () => {
  describe.each([
    [0, 'major'],
    [7, 'major'],
    [10, 'major'],
    [9, 'minor'],
    [2, 'minor'],
    [4, 'minor'],
  ] as const)('when I-IV-V-I (or i-iv-V-i) is played in %i %s', (tonic, mode) => {
    const result = tonalOf(chordProgression({ tonic, mode, seconds: 8 }));

    it('then the key is that tonic and mode', () => {
      expect(name(result)).toBe(`${NAMES[tonic]} ${mode}`);
    });

    it('then the chroma peaks on a tone of the tonic triad and the confidences lie in [0, 1]', () => {
      expect(result.chroma).toHaveLength(12);
      const top = result.chroma.indexOf(1);
      const triad = mode === 'major' ? [0, 4, 7] : [0, 3, 7];
      expect(triad.map((i) => (tonic + i) % 12)).toContain(top);
      for (const c of [result.keyConfidence, result.modeConfidence, result.strength]) {
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1);
      }
    });
  });

  it.each([
    [9, 'minor'],
    [0, 'major'],
  ] as const)('when C major and A minor chords alternate over a pedal bass on pitch class %i, then the key is that pitch class in %s', (pedal, mode) => {
    const seconds = 6;
    const signal = note(midiToHz(pedal === 9 ? 33 : 36), seconds).map((v) => 0.8 * v);
    const chords = [[60, 64, 67], [57, 60, 64]].map((midis) => {
      const tones = midis.map((m) => note(midiToHz(m), 1.5));
      return tones[0]!.map((_, i) => 0.3 * (tones[0]![i]! + tones[1]![i]! + tones[2]![i]!));
    });
    const bar = chords[0]!.length;
    for (let b = 0; b * bar < signal.length; b++) signal.set(chords[b % 2]!.map((v, i) => v + signal[b * bar + i]!).subarray(0, signal.length - b * bar), b * bar);
    expect(name(tonalOf(signal))).toBe(`${NAMES[pedal]} ${mode}`);
  });

  it('when a progression is transposed up a fifth, then the key moves up a fifth', () => {
    expect(tonalOf(chordProgression({ tonic: 5, mode: 'major', seconds: 8 })).key).toBe(5);
    expect(tonalOf(chordProgression({ tonic: 0, mode: 'major', seconds: 8 })).key).toBe(0);
  });

  it.each([
    [2, [0, 3, 4, 0]],
    [9, [0, 3, 0, 4]],
  ] as const)('when i-iv-V in %i minor is played with quiet thirds, then the minor third decides: minor, not the parallel major', (tonic, degrees) => {
    const signal = chordProgression({ tonic, mode: 'minor', seconds: 16, degrees: [...degrees], thirdGain: 0.5 });
    expect(name(tonalOf(signal))).toBe(`${NAMES[tonic]} minor`);
  });

  it('when the signal is silent, then the chroma is zero and the confidences are zero', () => {
    const result = tonalOf(new Float32Array(SAMPLE_RATE * 3));
    expect(result.chroma.every((v) => v === 0)).toBe(true);
    expect(result.keyConfidence).toBe(0);
    expect(result.modeConfidence).toBe(0);
  });
});
