import { loadEssentia } from '../../../src/engine/essentia';
import { analyzeTonal } from '../../../src/engine/tonal';
import { SAMPLE_RATE, chordProgression } from '../../helpers/signals';

const essentia = loadEssentia();
const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

describe('analyzeTonal', () => {
  describe.each([
    [0, 'major'],
    [7, 'major'],
    [10, 'major'],
    [9, 'minor'],
    [2, 'minor'],
    [4, 'minor'],
  ] as const)('when I-IV-V-I (or i-iv-V-i) is played in %i %s', (tonic, mode) => {
    const result = analyzeTonal(essentia, chordProgression({ tonic, mode, seconds: 8 }), SAMPLE_RATE);

    it(`then the key is ${'that'} tonic and mode`, () => {
      expect(`${NAMES[result.key]} ${result.mode === 1 ? 'major' : 'minor'}`).toBe(`${NAMES[tonic]} ${mode}`);
    });

    it('then the chroma peaks on a tone of the tonic triad and confidences lie in [0,1]', () => {
      expect(result.chroma).toHaveLength(12);
      expect(Math.max(...result.chroma)).toBe(1);
      const top = result.chroma.indexOf(1);
      const triad = mode === 'major' ? [0, 4, 7] : [0, 3, 7];
      expect(triad.map((i) => (tonic + i) % 12)).toContain(top);
      for (const c of [result.keyConfidence, result.modeConfidence]) {
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1);
      }
    });
  });

  it('when a progression is transposed up a fifth, then the key moves up a fifth', () => {
    const a = analyzeTonal(essentia, chordProgression({ tonic: 5, mode: 'major', seconds: 8 }), SAMPLE_RATE);
    const b = analyzeTonal(essentia, chordProgression({ tonic: 0, mode: 'major', seconds: 8 }), SAMPLE_RATE);
    expect(a.key).toBe(5);
    expect(b.key).toBe(0);
  });

  it('when the same samples are analysed twice, then the results are identical', () => {
    const signal = chordProgression({ tonic: 3, mode: 'minor', seconds: 8 });
    expect(analyzeTonal(essentia, signal, SAMPLE_RATE)).toEqual(analyzeTonal(essentia, Float32Array.from(signal), SAMPLE_RATE));
  });

  it('when the signal is silent, then the chroma is all zero and the confidences are zero', () => {
    const result = analyzeTonal(essentia, new Float32Array(SAMPLE_RATE * 3), SAMPLE_RATE);
    expect(result.chroma.every((v) => v === 0)).toBe(true);
    expect(result.keyConfidence).toBe(0);
    expect(result.modeConfidence).toBe(0);
  });
});
