import { BINS, FRAME_SIZE, HOP_SIZE, Stft } from '../../../src/engine/signal.stft';
import { WindowCollector } from '../../../src/engine/window';
import { analyse } from '../../helpers/engine-run';
import { noise, song } from '../../../measure/audio/audio-signals';

/**
 * The engine keeps its FFT plan, window and frame buffers from one analysis to the next (fewer
 * allocations per clip). These tests check that the framing computes what a direct transform
 * does and that nothing of one analysis leaks into the next.
 */
describe('the framing (half rate, STFT)', () => {
  it('when a frame is taken, then its magnitudes are those of the Hann-windowed frame (a direct DFT), scaled to a sine peak of 1', () => {
    const signal = Float32Array.from({ length: 6000 }, (_, i) => Math.sin(i * 0.3) + 0.5 * Math.cos(i * 1.1 + 0.2));
    const spec = new Stft().spectrogram(signal);
    for (const f of [0, 5, 11]) {
      const start = f * HOP_SIZE - FRAME_SIZE / 2;
      for (const k of [0, 12, 97, 400]) {
        let re = 0;
        let im = 0;
        for (let i = 0; i < FRAME_SIZE; i++) {
          const s = start + i;
          const x = s >= 0 && s < signal.length ? signal[s]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME_SIZE)) : 0;
          re += x * Math.cos((2 * Math.PI * k * i) / FRAME_SIZE);
          im -= x * Math.sin((2 * Math.PI * k * i) / FRAME_SIZE);
        }
        expect(spec.mags[f * BINS + k]!).toBeCloseTo((Math.hypot(re, im) * 4) / FRAME_SIZE, 4);
      }
    }
  });

  it('when a full-scale sine on a bin centre is framed, then its bin reads 1', () => {
    const k = 100;
    const signal = Float32Array.from({ length: 8192 }, (_, i) => Math.sin((2 * Math.PI * k * i) / FRAME_SIZE));
    expect(new Stft().spectrogram(signal).mags[4 * BINS + k]!).toBeCloseTo(1, 2);
  });

  it('when 44.1 kHz audio is brought to half rate, then 1 kHz passes unchanged and 15 kHz is gone', () => {
    const stft = new Stft();
    const rms = (x: Float32Array) => Math.sqrt(x.slice(200, -200).reduce((s, v) => s + v * v, 0) / (x.length - 400));
    const tone = (hz: number) => Float32Array.from({ length: 44100 }, (_, i) => Math.sin((2 * Math.PI * hz * i) / 44100));
    expect(rms(Float32Array.from(stft.halfRate(tone(1000))))).toBeCloseTo(Math.SQRT1_2, 2);
    expect(rms(Float32Array.from(stft.halfRate(tone(15000))))).toBeLessThan(0.001);
  });

  it('when another signal was analysed before, then the analysis is the same as without it', () => {
    const b = song(6, { bpm: 140, tonic: 9, minor: true, bright: false, seed: 4 });
    const first = analyse(b);
    analyse(song(6, { bpm: 100, tonic: 2, minor: false, bright: true, seed: 3 }));
    analyse(noise(2, 0.3));
    expect(analyse(Float32Array.from(b))).toEqual(first);
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
