import { PolyphaseResampler } from '../../../src/engine/models/resample';

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
