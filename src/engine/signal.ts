/**
 * Small DSP helpers shared by the rhythm and tonal measurements.
 *
 * The short-time spectra are computed in JS rather than frame by frame through essentia.js:
 * one WASM round trip per frame (copy in, Windowing, Spectrum, copy out, delete) costs more
 * than the FFT itself, and both measurements need the whole magnitude sequence anyway.
 */
import FFT = require('fft.js');

/** A real-input FFT of one fixed size (fft.js, radix-4); tables are built once per instance. */
export interface Fft {
  readonly size: number;
  /** Magnitude spectrum (size / 2 + 1 bins) of `frame` (length `size`, already windowed). */
  magnitudes(frame: Float64Array, out: Float64Array): void;
}

export function createFft(size: number): Fft {
  if (size < 4 || (size & (size - 1)) !== 0) throw new Error(`FFT size must be a power of two, got ${size}`);
  const fft = new FFT(size);
  const complex = new Float64Array(size * 2);
  const half = size >> 1;
  return {
    size,
    magnitudes(frame, out) {
      fft.realTransform(complex, frame);
      for (let k = 0; k <= half; k++) {
        const re = complex[2 * k]!;
        const im = complex[2 * k + 1]!;
        out[k] = Math.sqrt(re * re + im * im);
      }
    },
  };
}

export function hann(size: number): Float64Array {
  const w = new Float64Array(size);
  for (let i = 0; i < size; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  return w;
}

/**
 * Calls `onFrame(index, magnitudes)` for every frame of `frameSize` samples every `hop` samples
 * (frames centred on `index * hop`, zero-padded at the edges). `magnitudes` is reused between calls.
 */
export function forEachSpectrum(
  signal: Float32Array,
  frameSize: number,
  hop: number,
  onFrame: (index: number, magnitudes: Float64Array) => void,
): number {
  const fft = createFft(frameSize);
  const window = hann(frameSize);
  const frame = new Float64Array(frameSize);
  const mags = new Float64Array(frameSize / 2 + 1);
  const count = Math.max(1, Math.ceil(signal.length / hop));
  const halfFrame = frameSize >> 1;
  for (let f = 0; f < count; f++) {
    const start = f * hop - halfFrame;
    for (let i = 0; i < frameSize; i++) {
      const s = start + i;
      frame[i] = s >= 0 && s < signal.length ? signal[s]! * window[i]! : 0;
    }
    fft.magnitudes(frame, mags);
    onFrame(f, mags);
  }
  return count;
}

export function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}
