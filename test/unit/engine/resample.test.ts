import { PolyphaseResampler } from '../../../src/engine/models/resample';
import { startBackend } from '../../../src/engine/models/runtime';

// The models' 44.1 → 16 kHz resampler, on pure tones: what it keeps, what it removes, where.

const tone = (hz: number, rate: number, seconds: number, amplitude = 0.5): Float32Array =>
  Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));

/** Amplitude of the `hz` component of x (at `rate`), from its correlation with a sine and a cosine over the middle half. */
function amplitudeAt(x: Float32Array, hz: number, rate: number): number {
  const from = Math.floor(x.length / 4);
  const to = Math.floor((3 * x.length) / 4);
  let s = 0;
  let c = 0;
  for (let i = from; i < to; i++) {
    s += x[i]! * Math.sin((2 * Math.PI * hz * i) / rate);
    c += x[i]! * Math.cos((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(s, c)) / (to - from);
}

describe('PolyphaseResampler, 44.1 → 16 kHz', () => {
  const resampler = new PolyphaseResampler(44100, 16000);

  it('when a second of audio is resampled, then 16,000 samples come out, and a constant stays that constant', () => {
    const out = resampler.resample(new Float32Array(44100).fill(0.25));
    expect(out).toHaveLength(16000);
    // Away from the ends, where the filter reaches past the input.
    for (let i = 100; i < 15900; i += 97) expect(out[i]).toBeCloseTo(0.25, 5);
  });

  it('when a 1 kHz tone is resampled, then it is the same tone at 16 kHz, sample for sample', () => {
    const out = resampler.resample(tone(1000, 44100, 1));
    const expected = tone(1000, 16000, 1);
    let worst = 0;
    for (let i = 100; i < 15900; i++) worst = Math.max(worst, Math.abs(out[i]! - expected[i]!));
    expect(worst).toBeLessThan(1e-3);
  });

  it('when tones up to 7 kHz are resampled (the models’ top mel bands reach 8 kHz), then they keep their level (a filter rolling off below 8 kHz would not)', () => {
    for (const hz of [3000, 6000, 7000]) expect(amplitudeAt(resampler.resample(tone(hz, 44100, 1)), hz, 16000)).toBeGreaterThan(0.49);
  });

  it('when a tone lies above the new Nyquist frequency (10 and 12 kHz), then it is removed, not folded back to 6 and 4 kHz', () => {
    const out10 = resampler.resample(tone(10000, 44100, 1));
    const out12 = resampler.resample(tone(12000, 44100, 1));
    // 0.5 in; what folds back is below 1e-4 (−74 dB).
    expect(amplitudeAt(out10, 6000, 16000)).toBeLessThan(1e-4);
    expect(amplitudeAt(out12, 4000, 16000)).toBeLessThan(1e-4);
  });

  it('when a filter of an odd number of taps a side is asked for, then it is refused (the sums run four taps at a time)', () => {
    expect(() => new PolyphaseResampler(44100, 16000, 63)).toThrow(RangeError);
    expect(() => new PolyphaseResampler(44100, 16000, 0)).toThrow(RangeError);
  });
});

describe('PolyphaseResampler on the WebAssembly backend (what the models use)', () => {
  beforeAll(async () => {
    await startBackend();
  });

  /** Noise and a tone, so every tap and phase carries something. */
  const signal = (rate: number, seconds: number): Float32Array => {
    let s = 12345;
    return Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return 0.3 * (s / 2 ** 32 - 0.5) + 0.4 * Math.sin((2 * Math.PI * 440 * i) / rate);
    });
  };

  it.each([
    [44100, 16000],
    [48000, 16000],
    [22050, 16000],
    [8000, 16000],
  ])('when %i Hz is resampled to %i Hz, then it gives the loop’s samples, the ends included', (from, to) => {
    const r = new PolyphaseResampler(from, to);
    try {
      // A length that is no whole number of the resampler's blocks.
      const x = signal(from, 1.37);
      const [loop, backend] = [r.resample(x), r.resampleOnBackend(x)];
      expect(backend).toHaveLength(loop.length);
      expect(loop.some((v) => Math.abs(v) > 0.3)).toBe(true);
      let worst = 0;
      for (let i = 0; i < loop.length; i++) worst = Math.max(worst, Math.abs(loop[i]! - backend[i]!));
      expect(worst).toBeLessThan(1e-5);
    } finally {
      r.dispose();
    }
  });

  it('when the input is empty, then so is the output', () => {
    expect(new PolyphaseResampler(44100, 16000).resampleOnBackend(new Float32Array(0))).toHaveLength(0);
  });
});
