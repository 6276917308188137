import { chromaSum } from '../../../src/engine/tonal.chroma';
import { bassConcentration, estimateKey, keyCorrelation, KEY_PROFILES } from '../../../src/engine/tonal.key';
import { modeByThird } from '../../../src/engine/tonal';
import { tuningHz } from '../../../src/engine/engine';
import { framesOf, tonalOf } from '../../helpers/engine-run';
import { SAMPLE_RATE, chordProgression, midiToHz } from '../../helpers/signals';

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

describe('key profiles', () => {
  it('when the profile is the major key profile itself rotated to D, then the key is D major with correlation 1', () => {
    const chroma = Array.from({ length: 12 }, (_, i) => KEY_PROFILES.major[(i - 2 + 12) % 12]!);
    const k = estimateKey(chroma);
    expect(name(k)).toBe('D major');
    expect(k.strength).toBeCloseTo(1, 6);
    expect(keyCorrelation(chroma, KEY_PROFILES.major, 2)).toBeCloseTo(1, 6);
  });

  it('when the chroma is equally C major and A minor, then the bass line names the key: on A, A minor; on C, C major', () => {
    // C, E, G, A: the triads of C major and A minor alike, with the diatonic D, F, B quieter.
    const chroma = [1, 0, 0.3, 0, 1, 0.3, 0, 1, 0, 1, 0, 0.3];
    const pedal = (pc: number) => Array.from({ length: 12 }, (_, i) => (i === pc ? 0.7 : i === (pc + 7) % 12 ? 0.3 : 0));
    expect(name(estimateKey(chroma, pedal(9)))).toBe('A minor');
    expect(name(estimateKey(chroma, pedal(0)))).toBe('C major');
    // A silent bass leaves the chroma alone to decide.
    expect(estimateKey(chroma, new Array(12).fill(0))).toEqual(estimateKey(chroma));
  });

  it('a bass line spread over every pitch class (a piano\'s low register) barely votes; one resting on a few notes decides', () => {
    const chroma = [1, 0, 0.3, 0, 1, 0.3, 0, 1, 0, 1, 0, 0.3];
    // Leaning to A and E by a little over an even spread: concentration (0.32 - 0.25) / 0.75.
    const diffuse = Array.from({ length: 12 }, (_, i) => (i === 9 ? 0.12 : i === 4 ? 0.1 : 0.078));
    expect(bassConcentration(diffuse)).toBeLessThan(0.15);
    expect(bassConcentration(new Array(12).fill(1))).toBe(0);
    expect(bassConcentration([1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])).toBe(1);
    expect(bassConcentration(new Array(12).fill(0))).toBe(0);
    // The same lean, concentrated, names A minor; spread, it leaves C major's stronger chroma fit alone.
    const resting = Array.from({ length: 12 }, (_, i) => (i === 9 ? 0.6 : i === 4 ? 0.4 : 0));
    expect(name(estimateKey(chroma, resting))).toBe('A minor');
    const spread = estimateKey(chroma, diffuse);
    expect(spread.key === estimateKey(chroma).key && spread.mode === estimateKey(chroma).mode).toBe(true);
  });

  it('when the bass line chooses a key the chroma fits less, then the tonality is still the chroma\'s best fit', () => {
    // The C major profile with A stressed a little: the chroma alone reads C major; a bass
    // resting on A reads A minor, whose profile the chroma fits less well.
    const chroma = Array.from({ length: 12 }, (_, i) => KEY_PROFILES.major[i]! + (i === 9 ? 1.5 : 0));
    const bass = Array.from({ length: 12 }, (_, i) => (i === 9 ? 0.7 : i === 4 ? 0.3 : 0));
    const alone = estimateKey(chroma);
    const withBass = estimateKey(chroma, bass);
    expect(name(alone)).toBe('C major');
    expect(name(withBass)).toBe('A minor');
    expect(withBass.strength).toBeLessThan(alone.strength);
    expect(withBass.tonality).toBeCloseTo(alone.strength, 12);
    expect(alone.tonality).toBeCloseTo(alone.strength, 12);
  });

  it('when the profile is flat, then no key is claimed', () => {
    const flat = estimateKey(new Array(12).fill(1));
    expect(flat.strength).toBe(0);
    expect(flat.tonality).toBe(0);
  });

  it('the third decides only when both thirds are weak and one clearly leads', () => {
    const profile = [1, 0, 0.1, 0.3, 0.05, 0.2, 0, 0.9, 0.1, 0, 0.2, 0];
    expect(modeByThird(0, profile)).toBe(0);
    expect(modeByThird(0, [1, 0, 0, 0.8, 0.9, 0, 0, 0.9, 0, 0, 0, 0])).toBeUndefined();
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
