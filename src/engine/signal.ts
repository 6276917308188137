/**
 * Small DSP helpers shared by the rhythm and tonal measurements.
 *
 * The short-time spectra are computed in JS rather than frame by frame through essentia.js:
 * one WASM round trip per frame (copy in, Windowing, Spectrum, copy out, delete) costs more
 * than the FFT itself, and both measurements need the whole magnitude sequence anyway.
 *
 * Speed notes (see BENCHMARKS.md, Speed): every analysis thread runs these loops for every clip,
 * so their per-frame work lives in small functions called once per frame. Those are optimised
 * once and stay optimised from clip to clip, whereas one long loop in a function called once per
 * clip is recompiled (on-stack replacement) for every clip and runs unoptimised until then,
 * boxing every intermediate double: garbage and compilation that kept V8's helper threads busy.
 * The FFT tables, window and frame buffers of each frame size are built once per thread.
 */
import FFT = require('fft.js');

/** |X[k]| for k = 0 … half from fft.js's interleaved complex output. */
function magnitudesOf(complex: Float64Array, half: number, out: Float64Array): void {
  for (let k = 0; k <= half; k++) {
    const re = complex[2 * k]!;
    const im = complex[2 * k + 1]!;
    out[k] = Math.sqrt(re * re + im * im);
  }
}

export function hann(size: number): Float64Array {
  const w = new Float64Array(size);
  for (let i = 0; i < size; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  return w;
}

/**
 * Hann-windowed magnitude spectra of one frame size, with every buffer allocated once: frames
 * `frameSize` samples long centred on `index * hop` (zero-padded at the edges). One instance
 * per frame size and thread (`spectrumFrames`); the returned magnitudes are overwritten by the
 * next call.
 */
export class SpectrumFrames {
  readonly bins: number;
  private readonly fft: InstanceType<typeof FFT>;
  private readonly window: Float64Array;
  private readonly frame: Float64Array;
  private readonly complex: Float64Array;
  private readonly mags: Float64Array;

  constructor(readonly frameSize: number) {
    if (frameSize < 4 || (frameSize & (frameSize - 1)) !== 0) throw new Error(`FFT size must be a power of two, got ${frameSize}`);
    this.fft = new FFT(frameSize);
    this.window = hann(frameSize);
    this.frame = new Float64Array(frameSize);
    this.complex = new Float64Array(frameSize * 2);
    this.bins = frameSize / 2 + 1;
    this.mags = new Float64Array(this.bins);
  }

  /** Number of frames `forEachSpectrum` visits for a signal of `length` samples. */
  static count(length: number, hop: number): number {
    return Math.max(1, Math.ceil(length / hop));
  }

  /** Magnitudes of the frame centred on sample `centre` (shared buffer, valid until the next call). */
  at(signal: Float32Array, centre: number): Float64Array {
    windowed(signal, centre - (this.frameSize >> 1), this.window, this.frame);
    this.fft.realTransform(this.complex, this.frame);
    magnitudesOf(this.complex, this.frameSize >> 1, this.mags);
    return this.mags;
  }
}

/** frame[i] = signal[start + i] * window[i], zero outside the signal. */
function windowed(signal: Float32Array, start: number, window: Float64Array, frame: Float64Array): void {
  const size = frame.length;
  if (start >= 0 && start + size <= signal.length) {
    for (let i = 0; i < size; i++) frame[i] = signal[start + i]! * window[i]!;
    return;
  }
  for (let i = 0; i < size; i++) {
    const s = start + i;
    frame[i] = s >= 0 && s < signal.length ? signal[s]! * window[i]! : 0;
  }
}

const framesBySize = new Map<number, SpectrumFrames>();

/** The thread's SpectrumFrames of one frame size (built on first use). */
export function spectrumFrames(frameSize: number): SpectrumFrames {
  let frames = framesBySize.get(frameSize);
  if (!frames) {
    frames = new SpectrumFrames(frameSize);
    framesBySize.set(frameSize, frames);
  }
  return frames;
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
  const frames = spectrumFrames(frameSize);
  const count = SpectrumFrames.count(signal.length, hop);
  for (let f = 0; f < count; f++) onFrame(f, frames.at(signal, f * hop));
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

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Every `factor` samples replaced by their mean: a crude low-pass and decimation in one, enough
 * where only the level over time, or a band far below the new Nyquist frequency, is read.
 * Writes into `out` (at least length / factor samples) when given, else a new array.
 */
export function decimateByMean(signal: Float32Array, factor: number, out?: Float32Array): Float32Array {
  const length = Math.floor(signal.length / factor);
  const target = out ? out.subarray(0, length) : new Float32Array(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (let j = i * factor, end = j + factor; j < end; j++) sum += signal[j]!;
    target[i] = sum / factor;
  }
  return target;
}
