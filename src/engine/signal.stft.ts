import FFT from 'fft.js';

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { PI, cos, sin, sqrt } = Math;

/**
 * The engine's one framing: the 44.1 kHz window is brought to 22.05 kHz (half-band FIR) and cut
 * into Hann frames of 2048 samples (93 ms, 10.8 Hz bins) every 512 samples (23 ms, 43 frames
 * per second). Every measurement reads these magnitudes: onsets and tempo, chroma and key,
 * spectral shape. 10.8 Hz bins resolve a semitone from ~190 Hz up, and spectral peaks
 * (parabolic interpolation) place notes below that; 23 ms is the hop of the usual onset and
 * tempo front ends (librosa's, for one), and nothing the analysis reports needs finer timing.
 */
export const STFT_RATE = 22050;
export const FRAME_SIZE = 2048;
export const HOP_SIZE = 512;
export const FRAMES_PER_SECOND = STFT_RATE / HOP_SIZE;
export const BIN_HZ = STFT_RATE / FRAME_SIZE;
/**
 * Bins per frame. The modules whose per-bin loops read it bind it in their own scope (`const BINS
 * = FRAME_BINS`): where tsx or swc compile the sources (benchmarks, tests), each read of an
 * imported binding is a getter call (in the onset, timbre and voice stages, a sixth of the
 * analysis' CPU there); compiled by tsc, as the service runs, a property read.
 */
export const BINS = FRAME_SIZE / 2 + 1;

/** Magnitude spectra of one window: frame f's bins are mags[f * BINS … f * BINS + BINS). */
export interface Spectrogram {
  frames: number;
  /** Linear magnitudes, scaled so that a full-scale sine peaks at 1. */
  mags: Float32Array;
  /** Mean power of the HOP_SIZE samples from each frame's centre on (23 ms blocks), for level statistics. */
  blockPower: Float64Array;
  /** Zero crossings per sample in each of those blocks. */
  blockCrossings: Float64Array;
}

/**
 * Half-band low-pass taps (odd ones only; the even ones of a half-band filter are zero but the
 * centre): a 31-tap Blackman-windowed sinc, cut-off at 11.025 kHz, > 70 dB down from 13 kHz.
 */
function halfBandTaps(length: number): Float64Array {
  const half = (length - 1) / 2;
  const taps = new Float64Array((half + 1) / 2);
  for (let i = 0; i < taps.length; i++) {
    const n = 2 * i + 1;
    const sinc = sin((PI * n) / 2) / ((PI * n) / 2);
    const x = (n + half) / (length - 1);
    const blackman = 0.42 - 0.5 * cos(2 * PI * x) + 0.08 * cos(4 * PI * x);
    taps[i] = 0.5 * sinc * blackman;
  }
  return taps;
}

/**
 * y[i] = filtered x at sample 2i for the 8 odd taps of the 31-tap filter, away from the edges:
 * the loop of decimateBlock unrolled, the same sums in the same order (the same numbers), with
 * the taps in registers (a third of the time).
 */
function decimateInterior8(x: Float32Array, taps: Float64Array, from: number, to: number, y: Float32Array): void {
  const t0 = taps[0]!;
  const t1 = taps[1]!;
  const t2 = taps[2]!;
  const t3 = taps[3]!;
  const t4 = taps[4]!;
  const t5 = taps[5]!;
  const t6 = taps[6]!;
  const t7 = taps[7]!;
  for (let i = from; i < to; i++) {
    const c = 2 * i;
    let acc = 0.5 * x[c]!;
    acc += t0 * (x[c - 1]! + x[c + 1]!);
    acc += t1 * (x[c - 3]! + x[c + 3]!);
    acc += t2 * (x[c - 5]! + x[c + 5]!);
    acc += t3 * (x[c - 7]! + x[c + 7]!);
    acc += t4 * (x[c - 9]! + x[c + 9]!);
    acc += t5 * (x[c - 11]! + x[c + 11]!);
    acc += t6 * (x[c - 13]! + x[c + 13]!);
    acc += t7 * (x[c - 15]! + x[c + 15]!);
    y[i] = acc;
  }
}

/** y[i] = filtered x at sample 2i (symmetric taps around it, zero outside the signal). */
function decimateBlock(x: Float32Array, taps: Float64Array, from: number, to: number, y: Float32Array): void {
  const n = x.length;
  const reach = 2 * taps.length - 1;
  if (taps.length === 8) {
    // The interior (every tap inside the signal) unrolled; the edges below.
    const first = Math.max(from, Math.ceil(reach / 2));
    const last = Math.min(to, Math.floor((n - 1 - reach) / 2) + 1);
    if (last > first) {
      decimateEdges(x, taps, from, first, y);
      decimateInterior8(x, taps, first, last, y);
      decimateEdges(x, taps, Math.max(first, last), to, y);
      return;
    }
  }
  decimateEdges(x, taps, from, to, y);
}

function decimateEdges(x: Float32Array, taps: Float64Array, from: number, to: number, y: Float32Array): void {
  const n = x.length;
  const reach = 2 * taps.length - 1;
  for (let i = from; i < to; i++) {
    const c = 2 * i;
    let acc = 0.5 * x[c]!;
    if (c - reach >= 0 && c + reach < n) {
      for (let k = 0; k < taps.length; k++) acc += taps[k]! * (x[c - 2 * k - 1]! + x[c + 2 * k + 1]!);
    } else {
      for (let k = 0; k < taps.length; k++) {
        const a = c - 2 * k - 1;
        const b = c + 2 * k + 1;
        acc += taps[k]! * ((a >= 0 ? x[a]! : 0) + (b < n ? x[b]! : 0));
      }
    }
    y[i] = acc;
  }
}

/** |X[k]| (scaled) of fft.js's interleaved output, bins [0, bins), into row `f` of `mags`. */
function magnitudesInto(complex: Float64Array, scale: number, mags: Float32Array, row: number, bins: number): void {
  for (let k = 0; k < bins; k++) {
    const re = complex[2 * k]!;
    const im = complex[2 * k + 1]!;
    mags[row + k] = sqrt(re * re + im * im) * scale;
  }
}

/** Mean power and zero-crossing rate of signal[start, start + HOP_SIZE) into slot f. */
function blockStats(signal: Float32Array, start: number, power: Float64Array, crossings: Float64Array, f: number): void {
  const end = Math.min(signal.length, start + HOP_SIZE);
  let p = 0;
  let c = 0;
  let prev = signal[start] ?? 0;
  for (let i = start; i < end; i++) {
    const x = signal[i]!;
    p += x * x;
    if (x >= 0 !== prev >= 0) c++;
    prev = x;
  }
  power[f] = p / HOP_SIZE;
  crossings[f] = c / HOP_SIZE;
}

/** frame = signal[start …] times the window (zero outside the signal). */
function windowInto(signal: Float32Array, start: number, window: Float64Array, frame: Float64Array): void {
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

function hann(size: number): { window: Float64Array; scale: number } {
  const window = new Float64Array(size);
  let sum = 0;
  for (let i = 0; i < size; i++) {
    window[i] = 0.5 - 0.5 * cos((2 * PI * i) / size);
    sum += window[i]!;
  }
  return { window, scale: 2 / sum };
}

/**
 * The framing as a value: its FFT, window and buffers are built once and reused from clip to
 * clip (an engine holds one). The per-frame work is small methods called once per frame, which
 * V8 optimises once and keeps; one long loop per clip would be recompiled for every clip.
 */
export class Stft {
  private readonly fft = new FFT(FRAME_SIZE);
  private readonly window: Float64Array;
  private readonly frame = new Float64Array(FRAME_SIZE);
  private readonly complex = new Float64Array(FRAME_SIZE * 2);
  private readonly taps = halfBandTaps(31);
  private half = new Float32Array(0);
  private mags = new Float32Array(0);
  /** Hann-window sum / 2: a sine of amplitude A peaks at A * this in |X|. */
  private readonly scale: number;

  constructor() {
    ({ window: this.window, scale: this.scale } = hann(FRAME_SIZE));
  }

  /** The 44.1 kHz signal at 22.05 kHz (a view of a buffer reused by the next call). */
  halfRate(signal: Float32Array): Float32Array {
    const length = Math.floor(signal.length / 2);
    if (this.half.length < length) this.half = new Float32Array(length);
    return this.decimate(signal, this.half.subarray(0, length));
  }

  /** `y` = the half-band filtered `signal` at every second sample (y holds half its length). */
  private decimate(signal: Float32Array, y: Float32Array): Float32Array {
    for (let i = 0; i < y.length; i += 4096) decimateBlock(signal, this.taps, i, Math.min(y.length, i + 4096), y);
    return y;
  }

  /**
   * Magnitude spectra of a 22.05 kHz signal: frame f centred on sample f * HOP_SIZE (zero-padded
   * at the edges). `mags` is a view of a buffer reused by the next call.
   */
  spectrogram(signal: Float32Array): Spectrogram {
    const frames = Math.max(1, Math.ceil(signal.length / HOP_SIZE));
    if (this.mags.length < frames * BINS) this.mags = new Float32Array(frames * BINS);
    const mags = this.mags.subarray(0, frames * BINS);
    const blockPower = new Float64Array(frames);
    const blockCrossings = new Float64Array(frames);
    for (let f = 0; f < frames; f++) {
      this.windowed(signal, f * HOP_SIZE - FRAME_SIZE / 2);
      this.fft.realTransform(this.complex, this.frame);
      magnitudesInto(this.complex, this.scale, mags, f * BINS, BINS);
      blockStats(signal, f * HOP_SIZE, blockPower, blockCrossings, f);
    }
    return { frames, mags, blockPower, blockCrossings };
  }

  /** Loads the windowed frame starting at `start` (zero outside the signal). */
  private windowed(signal: Float32Array, start: number): void {
    windowInto(signal, start, this.window, this.frame);
  }
}
