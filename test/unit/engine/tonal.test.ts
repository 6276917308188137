import { chromaSum } from '../../../src/engine/tonal.chroma';
import { estimateKey, keyCorrelation, KEY_PROFILES } from '../../../src/engine/tonal.key';
import { modeByThird } from '../../../src/engine/tonal';
import { framesOf, tonalOf } from '../../helpers/engine-run';
import { SAMPLE_RATE, chordProgression, midiToHz } from '../../helpers/signals';

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const name = (r: { key: number; mode: number }): string => `${NAMES[r.key]} ${r.mode === 1 ? 'major' : 'minor'}`;

/** A sine of `hz` with three harmonics, `seconds` long. */
function note(hz: number, seconds: number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * SAMPLE_RATE) }, (_, i) => {
    const t = i / SAMPLE_RATE;
    return 0.3 * (Math.sin(2 * Math.PI * hz * t) + 0.5 * Math.sin(4 * Math.PI * hz * t) + 0.25 * Math.sin(6 * Math.PI * hz * t));
  });
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

  it('when the signal is silent, then every frame is zero', () => {
    const { chroma } = framesOf(new Float32Array(SAMPLE_RATE * 2));
    expect(chroma.frames.every((v) => v === 0)).toBe(true);
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

  it('when the profile is flat, then no key is claimed', () => {
    expect(estimateKey(new Array(12).fill(1)).strength).toBe(0);
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
