import * as tf from '@tensorflow/tfjs-core';

// Local bindings: under Jest's vm sandbox a global lookup per sample is several times slower.
const { PI, abs, ceil, floor, sin, sqrt } = Math;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Zeroth-order modified Bessel function of the first kind (Kaiser window). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

/**
 * A polyphase windowed-sinc resampler for a fixed pair of rates: Kaiser-windowed (β = 9),
 * `halfTaps` input samples either side of each output sample, the sinc's cut-off (its −6 dB
 * point) at `cutoff` × the lower Nyquist frequency. One instance holds its phase table for reuse.
 *
 * The defaults (64 taps a side, cut-off at the Nyquist frequency) are what the MusiCNN models
 * need: their top mel bands reach 8 kHz, and a filter that rolls off below it (a cut-off at
 * 0.94 with 48 taps) moved the models' outputs by up to 0.03 against a near-ideal resampler,
 * these by 0.005 (bench/models.ts).
 *
 * resample() is the filter written out, one output sample at a time; resampleOnBackend() gives
 * the same samples (to float rounding) as one matrix product per block, and is what the models use.
 */
export class PolyphaseResampler {
  private readonly up: number;
  private readonly down: number;
  private readonly taps: number;
  /** Phase p's taps at table[p * taps …], for input samples base − halfTaps + 1 … base + halfTaps. */
  private readonly table: Float32Array;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
    private readonly halfTaps = 64,
    cutoff = 1,
  ) {
    if (halfTaps <= 0 || halfTaps % 2 !== 0) throw new RangeError(`halfTaps must be a positive even number (${halfTaps})`);
    const g = gcd(fromRate, toRate);
    this.up = toRate / g;
    this.down = fromRate / g;
    this.taps = 2 * halfTaps;
    const fc = (cutoff * Math.min(fromRate, toRate)) / fromRate; // cut-off over the input's Nyquist-normalised rate (1 = fs)
    const beta = 9;
    const i0beta = besselI0(beta);
    this.table = new Float32Array(this.up * this.taps);
    for (let p = 0; p < this.up; p++) {
      const frac = p / this.up; // output time minus base, input samples
      let sum = 0;
      for (let k = 0; k < this.taps; k++) {
        const d = k - halfTaps + 1 - frac; // input sample time minus output time
        const x = PI * fc * d;
        const sinc = abs(d) < 1e-12 ? 1 : sin(x) / x;
        const r = d / (halfTaps + 1);
        const w = abs(r) >= 1 ? 0 : besselI0(beta * sqrt(1 - r * r)) / i0beta;
        const h = fc * sinc * w;
        this.table[p * this.taps + k] = h;
        sum += h;
      }
      // Unity gain at DC for every phase.
      for (let k = 0; k < this.taps; k++) this.table[p * this.taps + k] = this.table[p * this.taps + k]! / sum;
    }
  }

  /**
   * The same sums as resample(), on TensorFlow.js's backend (its WebAssembly SIMD matrix product:
   * ~0.3x the CPU of the loop below on 30 s at 44.1 → 16 kHz; the backend must be started). Each
   * run of `up` outputs reads `down` input samples further on, so the input is laid out as rows of
   * `down` samples and one convolution over `rows` rows at a time, with `up` filters (each output
   * phase's taps at its offset in the rows), gives `up` outputs per row.
   */
  resampleOnBackend(x: Float32Array): Float32Array {
    const { up, down, halfTaps } = this;
    const outLength = floor((x.length * up) / down);
    if (outLength === 0) return new Float32Array(0);
    const { kernel, rows } = this.blockKernel();
    const blocks = ceil(outLength / up);
    // x shifted by halfTaps − 1 zeros, so that output m's first tap is at m·down/up (floored).
    const padded = new Float32Array((blocks + rows - 1) * down);
    padded.set(x.subarray(0, Math.min(x.length, padded.length - (halfTaps - 1))), halfTaps - 1);
    const out = tf.tidy(() => tf.conv2d(tf.tensor4d(padded, [1, blocks + rows - 1, 1, down]), kernel, 1, 'valid'));
    try {
      return (out.dataSync() as Float32Array).slice(0, outLength);
    } finally {
      out.dispose();
    }
  }

  private block: { kernel: tf.Tensor4D; rows: number } | undefined;

  /** The filters of resampleOnBackend as a kernel [rows, 1, down, up], made once. */
  private blockKernel(): { kernel: tf.Tensor4D; rows: number } {
    if (this.block) return this.block;
    const { up, down, taps, table } = this;
    const offset = (i: number): number => floor((i * down) / up);
    const rows = ceil((offset(up - 1) + taps) / down);
    const k = new Float32Array(rows * down * up);
    for (let i = 0; i < up; i++) {
      const phase = (i * down) % up;
      for (let t = 0; t < taps; t++) k[(offset(i) + t) * up + i] = table[phase * taps + t]!;
    }
    this.block = { kernel: tf.tensor4d(k, [rows, 1, down, up]), rows };
    return this.block;
  }

  /** Frees resampleOnBackend's kernel. */
  dispose(): void {
    this.block?.kernel.dispose();
    this.block = undefined;
  }

  resample(x: Float32Array): Float32Array {
    const { up, down, taps, table, halfTaps } = this;
    const n = x.length;
    const outLength = floor((n * up) / down);
    const y = new Float32Array(outLength);
    for (let m = 0; m < outLength; m++) {
      const pos = m * down;
      const base = floor(pos / up);
      const phase = pos - base * up;
      const start = base - halfTaps + 1;
      const row = phase * taps;
      let acc = 0;
      if (start >= 0 && start + taps <= n) {
        // Four sums side by side (taps = 2 · halfTaps, a multiple of 4: the constructor checks
        // halfTaps is even): 0.6x the CPU of one running sum.
        let a1 = 0;
        let a2 = 0;
        let a3 = 0;
        for (let k = 0; k < taps; k += 4) {
          acc += table[row + k]! * x[start + k]!;
          a1 += table[row + k + 1]! * x[start + k + 1]!;
          a2 += table[row + k + 2]! * x[start + k + 2]!;
          a3 += table[row + k + 3]! * x[start + k + 3]!;
        }
        acc += a1 + a2 + a3;
      } else {
        for (let k = 0; k < taps; k++) {
          const i = start + k;
          if (i >= 0 && i < n) acc += table[row + k]! * x[i]!;
        }
      }
      y[m] = acc;
    }
    return y;
  }
}
