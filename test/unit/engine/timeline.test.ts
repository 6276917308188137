import { barIntervals, beatIntervals, sectionBoundaries } from '../../../src/engine/timeline';

describe('timeline', () => {
  const beats = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0];
  const confidences = beats.map((_, i) => (i % 2 === 0 ? 1 : 0.5));

  it('when beats are given in window time, then intervals start from the file’s start', () => {
    const intervals = beatIntervals(beats, confidences, 100, 5);
    expect(intervals[0]).toEqual({ start: 100.5, duration: 0.5, confidence: 1 });
    expect(intervals).toHaveLength(beats.length);
    expect(intervals.at(-1)).toEqual({ start: 104, duration: 0.5, confidence: 0.5 });
  });

  it('when the last beat is near the window end, then its interval stops there', () => {
    expect(beatIntervals([1, 2, 3, 3.8], [1, 1, 1, 1], 0, 4).at(-1)!.duration).toBeCloseTo(0.2, 6);
  });

  it('when bars are built from downbeats, then each spans to the next and carries the meter confidence', () => {
    const bars = barIntervals(beats, confidences, [0.5, 2.5], 4, 0.8, 10, 5);
    expect(bars).toHaveLength(2);
    expect(bars[0]).toEqual({ start: 10.5, duration: 2, confidence: 0.6 });
    expect(bars[1]!.start).toBe(12.5);
    expect(bars[1]!.duration).toBeCloseTo(2, 6);
  });

  it('when the level jumps by 12 dB halfway, then one certain boundary is found there', () => {
    const frameRate = 50;
    const frameDb = Float64Array.from({ length: 30 * frameRate }, (_, i) => (i < 15 * frameRate ? -30 : -18));
    const candidates = Array.from({ length: 15 }, (_, i) => i * 2);
    const boundaries = sectionBoundaries(frameDb, frameRate, candidates, 30);
    expect(boundaries).toHaveLength(1);
    expect(Math.abs(boundaries[0]!.at - 15)).toBeLessThanOrEqual(2);
    expect(boundaries[0]!.confidence).toBe(1);
  });

  it('when the level never changes, then there is no boundary', () => {
    expect(sectionBoundaries(new Float64Array(30 * 50).fill(-20), 50, [], 30)).toEqual([]);
  });
});
