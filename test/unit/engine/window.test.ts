import { ANALYSIS_RATE, WindowCollector, chooseWindow, keepRangeFor, toAnalysisRate } from '../../../src/engine/window';

describe('analysis window', () => {
  const rate = 44100;

  it('when the file is up to 45 s long, then it is analysed whole', () => {
    expect(chooseWindow(30 * rate, rate, 30)).toEqual({ start: 0, end: 30 * rate });
    expect(chooseWindow(45 * rate, rate, 30)).toEqual({ start: 0, end: 45 * rate });
  });

  it('when the file is longer, then windowSeconds from its middle are analysed', () => {
    const w = chooseWindow(600 * rate, rate, 30);
    expect(w.end - w.start).toBe(30 * rate);
    expect((w.start + w.end) / 2).toBeCloseTo(300 * rate, -1);
  });

  it('when windowSeconds is longer than the file, then the whole file is analysed', () => {
    expect(chooseWindow(50 * rate, rate, 60)).toEqual({ start: 0, end: 50 * rate });
  });

  it('when the header estimate is off by a few percent, then the kept range still covers the exact window', () => {
    for (const truth of [200, 600]) {
      for (const estimate of [truth * 0.97, truth * 1.03]) {
        const keep = keepRangeFor(estimate, rate, 30)!;
        const exact = chooseWindow(truth * rate, rate, 30);
        expect(keep.start).toBeLessThanOrEqual(exact.start);
        expect(keep.end).toBeGreaterThanOrEqual(exact.end);
      }
    }
    expect(keepRangeFor(undefined, rate, 30)).toBeUndefined();
    expect(keepRangeFor(40, rate, 30)).toBeUndefined();
  });

  it('when chunks stream in, then only the kept range is held, as mono, and the cut is exact', () => {
    const total = 10 * 4096;
    const left = Float32Array.from({ length: total }, (_, i) => i);
    const right = Float32Array.from({ length: total }, (_, i) => -i + 2);
    const keep = { start: 5000, end: 9000 };
    const collector = new WindowCollector(keep);
    for (let i = 0; i < total; i += 1500) collector.push([left.subarray(i, i + 1500), right.subarray(i, i + 1500)], rate);
    expect(collector.totalSamples).toBe(total);
    expect(collector.keptLength).toBe(4000);
    expect(collector.channels).toBe(2);
    expect(collector.covers({ start: 6000, end: 8000 })).toBe(true);
    expect(collector.covers({ start: 4000, end: 8000 })).toBe(false);
    const { mono } = collector.cut({ start: 6000, end: 8000 });
    expect(mono.length).toBe(2000);
    expect(Array.from(mono.subarray(0, 3))).toEqual([1, 1, 1]);
  });

  it('when the keep range is planned from the first chunk’s rate, then it is applied at that rate', () => {
    const collector = new WindowCollector((r) => ({ start: r, end: 2 * r }));
    collector.push([new Float32Array(48000 * 3).fill(0.5)], 48000);
    expect(collector.sampleRate).toBe(48000);
    expect(collector.keptLength).toBe(48000);
  });

  it('when the window is not at 44.1 kHz, then it is resampled to it', () => {
    const x = Float32Array.from({ length: 48000 }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / 48000));
    const y = toAnalysisRate(x, 48000);
    expect(y.length).toBe(ANALYSIS_RATE);
    expect(toAnalysisRate(y, ANALYSIS_RATE)).toBe(y);
  });
});
