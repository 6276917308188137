import { measureSpectrum } from '../../../src/engine/measurements';
import { SpectrumFrames, forEachSpectrum, spectrumFrames } from '../../../src/engine/signal';
import { WindowCollector } from '../../../src/engine/window';
import { noise, song } from '../../helpers/audio-signals';

/**
 * The engine keeps its FFT tables, frame buffers and scratch arrays from one analysis to the
 * next (fewer allocations per clip, see BENCHMARKS.md, Speed). These tests check that nothing of
 * one analysis leaks into the next and that the reused buffers compute what a fresh one would.
 */
describe('buffers reused between analyses', () => {
  it('when the spectrum of another signal was measured before, then the measurements are the same as without it', () => {
    const a = song(6, { bpm: 100, tonic: 2, minor: false, bright: true, seed: 3 });
    const b = song(6, { bpm: 140, tonic: 9, minor: true, bright: false, seed: 4 });
    const first = measureSpectrum(b, 44100);
    measureSpectrum(a, 44100);
    measureSpectrum(noise(2, 0.3), 44100);
    const again = measureSpectrum(b, 44100);
    expect(again).toEqual(first);
  });

  it('when a frame is taken, then its magnitudes are those of the Hann-windowed frame (a direct DFT)', () => {
    const size = 256;
    const signal = Float32Array.from({ length: 2000 }, (_, i) => Math.sin(i * 0.3) + 0.5 * Math.cos(i * 1.1 + 0.2));
    const frames = new SpectrumFrames(size);
    for (const centre of [0, 700, 1990]) {
      const mags = frames.at(signal, centre);
      const start = centre - size / 2;
      for (const k of [0, 5, 12, 50, 128]) {
        let re = 0;
        let im = 0;
        for (let i = 0; i < size; i++) {
          const s = start + i;
          const x = s >= 0 && s < signal.length ? signal[s]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size)) : 0;
          re += x * Math.cos((2 * Math.PI * k * i) / size);
          im -= x * Math.sin((2 * Math.PI * k * i) / size);
        }
        expect(mags[k]!).toBeCloseTo(Math.hypot(re, im), 6);
      }
    }
  });

  it('when spectra are walked twice, then every frame has the same magnitudes both times', () => {
    const signal = song(3, { bpm: 120, tonic: 0, minor: false, bright: false, seed: 7 });
    const collect = (): Float64Array[] => {
      const out: Float64Array[] = [];
      forEachSpectrum(signal, 2048, 512, (_f, mags) => out.push(Float64Array.from(mags)));
      return out;
    };
    const first = collect();
    expect(first.length).toBe(SpectrumFrames.count(signal.length, 512));
    expect(collect()).toEqual(first);
    expect(spectrumFrames(2048)).toBe(spectrumFrames(2048));
  });
});

describe('WindowCollector buffer', () => {
  const stereo = (n: number): [Float32Array, Float32Array] => [
    Float32Array.from({ length: n }, (_, i) => Math.sin(i / 10)),
    Float32Array.from({ length: n }, (_, i) => Math.cos(i / 7)),
  ];

  it('when more samples arrive than expected, then the buffer grows and keeps every sample in order', () => {
    const [left, right] = stereo(50_000);
    const collector = new WindowCollector(undefined, () => 1000);
    for (let i = 0; i < left.length; i += 3000) collector.push([left.subarray(i, i + 3000), right.subarray(i, i + 3000)], 44100);
    expect(collector.keptLength).toBe(50_000);
    const { mono } = collector.cut({ start: 0, end: 50_000 });
    expect(mono.length).toBe(50_000);
    for (const i of [0, 2999, 3000, 20_001, 49_999]) expect(mono[i]).toBe(Math.fround((left[i]! + right[i]!) * 0.5));
  });

  it('when three channels arrive, then each kept sample is their mean', () => {
    const [a, b] = stereo(10_000);
    const c = Float32Array.from({ length: 10_000 }, (_, i) => (i % 5) / 5);
    const collector = new WindowCollector({ start: 1000, end: 9000 });
    for (let i = 0; i < 10_000; i += 2500) collector.push([a.subarray(i, i + 2500), b.subarray(i, i + 2500), c.subarray(i, i + 2500)], 44100);
    const { mono } = collector.cut({ start: 2000, end: 8000 });
    expect(mono.length).toBe(6000);
    for (const i of [0, 499, 500, 5999]) {
      const j = 2000 + i;
      expect(mono[i]!).toBeCloseTo((a[j]! + b[j]! + c[j]!) / 3, 6);
    }
  });

  it('when only part of the kept span is cut, then the window is a copy of just that part', () => {
    const [left, right] = stereo(40_000);
    const collector = new WindowCollector(undefined, () => 40_000);
    collector.push([left, right], 44100);
    const { mono } = collector.cut({ start: 30_000, end: 35_000 });
    expect(mono.length).toBe(5000);
    expect(mono.buffer.byteLength).toBe(5000 * 4);
    expect(mono[0]).toBe(Math.fround((left[30_000]! + right[30_000]!) * 0.5));
  });
});
