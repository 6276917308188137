import { loadEssentia } from '../../../src/engine/essentia';
import { analyzeRhythm, type RhythmResult } from '../../../src/engine/rhythm';
import { SAMPLE_RATE, clickTrack, drumPattern } from '../../helpers/signals';

const essentia = loadEssentia();
const within = (value: number, truth: number, tolerance = 0.04) => Math.abs(value - truth) <= tolerance * truth;

function expectWellFormed(result: RhythmResult, seconds: number): void {
  expect(result.beats.length).toBe(result.beatConfidences.length);
  for (let i = 1; i < result.beats.length; i++) expect(result.beats[i]!).toBeGreaterThan(result.beats[i - 1]!);
  for (const t of result.beats) {
    expect(t).toBeGreaterThanOrEqual(0);
    expect(t).toBeLessThanOrEqual(seconds);
  }
  for (const c of [result.tempoConfidence, result.timeSignatureConfidence, ...result.beatConfidences]) {
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBeLessThanOrEqual(1);
  }
  for (const d of result.downbeats) expect(result.beats).toContain(d);
  expect(result.onsetRate).toBeGreaterThan(0);
  expect(Number.isFinite(result.beatStrength)).toBe(true);
}

describe('analyzeRhythm', () => {
  describe.each([70, 120, 170])('when a 4/4 drum groove plays at %d BPM', (bpm) => {
    const seconds = 12;
    const result = analyzeRhythm(essentia, drumPattern({ bpm, seconds, beatsPerBar: 4, seed: bpm }), SAMPLE_RATE);

    it('then the tempo is the tapped level, not half or double', () => {
      expect(within(result.tempo, bpm)).toBe(true);
    });

    it('then the beats are one beat period apart and the result is well formed', () => {
      expectWellFormed(result, seconds);
      const gaps = result.beats.slice(1).map((t, i) => t - result.beats[i]!);
      const median = [...gaps].sort((a, b) => a - b)[gaps.length >> 1]!;
      expect(within(median, 60 / bpm, 0.05)).toBe(true);
    });

    it('then the bar has four beats and starts on the kick', () => {
      expect(result.timeSignature).toBe(4);
      const beatPeriod = 60 / bpm;
      // The kick (bar start) falls on beats 0, 4, 8... of the pattern.
      for (const d of result.downbeats) {
        const beatIndex = Math.round(d / beatPeriod);
        expect(beatIndex % 4).toBe(0);
      }
    });
  });

  describe.each([90, 150])('when a 3/4 groove plays at %d BPM', (bpm) => {
    const result = analyzeRhythm(essentia, drumPattern({ bpm, seconds: 12, beatsPerBar: 3, seed: 3 }), SAMPLE_RATE);

    it('then the time signature is 3 at the right tempo', () => {
      expect(within(result.tempo, bpm)).toBe(true);
      expect(result.timeSignature).toBe(3);
    });
  });

  describe.each([70, 95, 120])('when an isochronous click track plays at %d BPM', (bpm) => {
    it('then the tempo is the click rate, not its double', () => {
      const result = analyzeRhythm(essentia, clickTrack({ bpm, seconds: 12 }), SAMPLE_RATE);
      expect(within(result.tempo, bpm)).toBe(true);
      expectWellFormed(result, 12);
    });
  });

  it('when the same samples are analysed twice, then the results are identical', () => {
    const signal = drumPattern({ bpm: 133, seconds: 8, beatsPerBar: 4, seed: 9 });
    expect(analyzeRhythm(essentia, signal, SAMPLE_RATE)).toEqual(analyzeRhythm(essentia, Float32Array.from(signal), SAMPLE_RATE));
  });

  it('when the signal is silent, then there is no tempo and no beat, and nothing throws', () => {
    const result = analyzeRhythm(essentia, new Float32Array(SAMPLE_RATE * 5), SAMPLE_RATE);
    expect(result.beats.length).toBe(result.beatConfidences.length);
    expect(result.tempoConfidence).toBeGreaterThanOrEqual(0);
    expect(result.tempoConfidence).toBeLessThanOrEqual(1);
    expect(result.onsetRate).toBe(0);
  });

  it('when the sample rate is not 44.1 kHz, then it refuses', () => {
    expect(() => analyzeRhythm(essentia, new Float32Array(48000), 48000 as 44100)).toThrow(/44100/);
  });
});
