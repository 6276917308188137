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

describe('analyzeTonal with the rhythm context (phrase-start bass)', () => {
  const bpm = 100;
  const seconds = 20;
  const beats = Array.from({ length: Math.floor((seconds * bpm) / 60) }, (_, i) => (i * 60) / bpm);
  const context = { beats, timeSignature: 4, fromStart: true };
  const name = (r: { key: number; mode: 0 | 1 }): string => `${NAMES[r.key]} ${r.mode === 1 ? 'major' : 'minor'}`;

  describe('when a natural-minor loop i-VI-III-VII in A minor (the pitch content of C major) is played', () => {
    const signal = chordProgression({ tonic: 9, mode: 'minor', seconds, bpm, degrees: [0, 5, 2, 6] });

    it('then with the beats of a window that starts the song, the tonic of its phrases wins: A minor', () => {
      expect(name(analyzeTonal(essentia, signal, SAMPLE_RATE, context))).toBe('A minor');
    });

    it('then without the context the profiles alone read the relative major', () => {
      expect(name(analyzeTonal(essentia, signal, SAMPLE_RATE))).toBe('C major');
    });

    it('then a window from the middle of a file does not use phrase positions', () => {
      expect(analyzeTonal(essentia, signal, SAMPLE_RATE, { ...context, fromStart: false })).toEqual(analyzeTonal(essentia, signal, SAMPLE_RATE));
    });
  });

  it.each([
    [0, 'major', [0, 4, 5, 3]],
    [2, 'minor', [0, 2, 6, 3]],
    [4, 'minor', [0, 3, 0, 4]],
  ] as const)('when a loop in %i %s starts its phrases on the tonic, then the context keeps that key', (tonic, mode, degrees) => {
    const signal = chordProgression({ tonic, mode, seconds, bpm, degrees: [...degrees] });
    const result = analyzeTonal(essentia, signal, SAMPLE_RATE, context);
    expect(name(result)).toBe(`${NAMES[tonic]} ${mode}`);
    expect(result.modeConfidence).toBeGreaterThanOrEqual(0);
    expect(result.modeConfidence).toBeLessThanOrEqual(1);
  });

  it('when the bass has a weak fundamental and a loud third harmonic (an FM bass), then its root, not its fifth, names the phrases: E minor', () => {
    // Peak picking read this bass as B, the fifth, and kept the relative major (G major).
    const signal = chordProgression({ tonic: 4, mode: 'minor', seconds, bpm, degrees: [0, 5, 2, 6], bassPartials: [0.05, 0.2, 1, 0.1, 0.3] });
    expect(name(analyzeTonal(essentia, signal, SAMPLE_RATE, context))).toBe('E minor');
  });

  it.each([
    [2, [0, 3, 4, 0]],
    [9, [0, 3, 0, 4]],
  ] as const)('when i-iv-V in %i minor is played with quiet thirds, then the minor third decides: minor, not the parallel major', (tonic, degrees) => {
    const signal = chordProgression({ tonic, mode: 'minor', seconds, bpm, degrees: [...degrees], thirdGain: 0.5 });
    expect(name(analyzeTonal(essentia, signal, SAMPLE_RATE, context))).toBe(`${NAMES[tonic]} minor`);
    expect(name(analyzeTonal(essentia, signal, SAMPLE_RATE))).toBe(`${NAMES[tonic]} minor`);
  });

  it('when I-IV-V-I in F major is played with very quiet thirds, then it stays major', () => {
    const signal = chordProgression({ tonic: 5, mode: 'major', seconds, bpm, thirdGain: 0.2 });
    expect(name(analyzeTonal(essentia, signal, SAMPLE_RATE, context))).toBe('F major');
  });

  it('when the same samples and beats are analysed twice, then the results are identical', () => {
    const signal = chordProgression({ tonic: 9, mode: 'minor', seconds, bpm, degrees: [0, 5, 2, 6] });
    expect(analyzeTonal(essentia, signal, SAMPLE_RATE, context)).toEqual(analyzeTonal(essentia, Float32Array.from(signal), SAMPLE_RATE, { ...context }));
  });
});
