/**
 * Loudness after ITU-R BS.1770-4 / EBU R128: K-weighting, 400 ms blocks with 75 % overlap,
 * absolute gate at -70 LUFS, relative gate 10 LU below the ungated mean.
 *
 * Computed in JS rather than with essentia's LoudnessEBUR128, which takes ~1.3 s per 30 s
 * stereo clip in essentia.js (it also computes momentary and short-term series we do not use);
 * this meter runs streaming over every decoded chunk in ~10 ms per 30 s and agrees with
 * essentia to within a few hundredths of a LU (test/unit/engine/loudness.test.ts).
 */

/** Duration of one sub-block; a gating block is four consecutive sub-blocks (400 ms). */
export const SUB_BLOCK_SECONDS = 0.1;

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** The two K-weighting stages for any sample rate (coefficients as libebur128 derives them). */
function kWeighting(sampleRate: number): [Biquad, Biquad] {
  let f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  };
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / sampleRate);
  a0 = 1 + k / q + k * k;
  const highPass: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
  return [shelf, highPass];
}

/**
 * Runs x[from, to) through the two K-weighting stages (transposed direct form II) from the filter
 * state at state[base … base + 3], stores the new state there and returns the sum of the squared
 * output. Called per sub-block and channel, so that it is optimised once and stays so (one long
 * loop in a function called a few times per clip is recompiled by V8 for every clip).
 */
function kWeightedEnergy(x: Float32Array, from: number, to: number, state: Float64Array, base: number, s: Biquad, h: Biquad): number {
  const { b0, b1, b2, a1, a2 } = s;
  const { b0: c0, b1: c1, b2: c2, a1: d1, a2: d2 } = h;
  let z1 = state[base]!;
  let z2 = state[base + 1]!;
  let w1 = state[base + 2]!;
  let w2 = state[base + 3]!;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const xi = x[i]!;
    const y = b0 * xi + z1;
    z1 = b1 * xi - a1 * y + z2;
    z2 = b2 * xi - a2 * y;
    const v = c0 * y + w1;
    w1 = c1 * y - d1 * v + w2;
    w2 = c2 * y - d2 * v;
    sum += v * v;
  }
  state[base] = z1;
  state[base + 1] = z2;
  state[base + 2] = w1;
  state[base + 3] = w2;
  return sum;
}

/**
 * kWeightedEnergy of a stereo pair in one loop, the channels' states at state[0 … 3] and
 * state[4 … 7], their two sums into sums[0] and sums[1]: the same arithmetic, channel by channel,
 * as two calls of kWeightedEnergy, with the two filter chains interleaved. Each chain waits on its
 * own last output; two independent chains keep the core busy in each other's waits (the stereo
 * meter in about half the time of two passes).
 */
function kWeightedEnergyStereo(
  left: Float32Array,
  right: Float32Array,
  from: number,
  to: number,
  state: Float64Array,
  s: Biquad,
  h: Biquad,
  sums: Float64Array,
): void {
  const { b0, b1, b2, a1, a2 } = s;
  const { b0: c0, b1: c1, b2: c2, a1: d1, a2: d2 } = h;
  let lz1 = state[0]!;
  let lz2 = state[1]!;
  let lw1 = state[2]!;
  let lw2 = state[3]!;
  let rz1 = state[4]!;
  let rz2 = state[5]!;
  let rw1 = state[6]!;
  let rw2 = state[7]!;
  let leftSum = 0;
  let rightSum = 0;
  for (let i = from; i < to; i++) {
    const xl = left[i]!;
    const xr = right[i]!;
    const yl = b0 * xl + lz1;
    const yr = b0 * xr + rz1;
    lz1 = b1 * xl - a1 * yl + lz2;
    rz1 = b1 * xr - a1 * yr + rz2;
    lz2 = b2 * xl - a2 * yl;
    rz2 = b2 * xr - a2 * yr;
    const vl = c0 * yl + lw1;
    const vr = c0 * yr + rw1;
    lw1 = c1 * yl - d1 * vl + lw2;
    rw1 = c1 * yr - d1 * vr + rw2;
    lw2 = c2 * yl - d2 * vl;
    rw2 = c2 * yr - d2 * vr;
    leftSum += vl * vl;
    rightSum += vr * vr;
  }
  state[0] = lz1;
  state[1] = lz2;
  state[2] = lw1;
  state[3] = lw2;
  state[4] = rz1;
  state[5] = rz2;
  state[6] = rw1;
  state[7] = rw2;
  sums[0] = leftSum;
  sums[1] = rightSum;
}

/**
 * Streams channels through the K-weighting filters and keeps the K-weighted power of every
 * 100 ms sub-block (summed over channels, every channel weighted 1 as for L/R/C). Holds a few
 * numbers per channel plus one float per 100 ms, so a whole file can pass through it.
 */
export class LoudnessMeter {
  private readonly filters: [Biquad, Biquad];
  private readonly subBlockSize: number;
  private state: Float64Array = new Float64Array(0);
  private channels = 0;
  private filled = 0;
  private accumulator = 0;
  /** The stereo loop's two channel sums (kWeightedEnergyStereo). */
  private readonly sums = new Float64Array(2);
  private readonly powers: number[] = [];
  /** Channels each sub-block was measured with (see push). */
  private readonly blockChannels: number[] = [];
  private currentBlockChannels = 0;

  constructor(readonly sampleRate: number) {
    this.filters = kWeighting(sampleRate);
    this.subBlockSize = Math.round(sampleRate * SUB_BLOCK_SECONDS);
  }

  /**
   * Feeds the next samples of every channel (all channels of one chunk have the same length).
   *
   * The MP3 decoder collapses identical channels to one until they first differ (a stereo file
   * that starts in digital silence arrives as mono chunks, then stereo): a channel that appears
   * later starts from the filter state of channel 0, and sub-blocks measured with fewer channels
   * are scaled up as the dual mono they were.
   */
  push(channelData: readonly Float32Array[]): void {
    if (channelData.length === 0) return;
    if (channelData.length > this.channels) {
      const grown = new Float64Array(channelData.length * 4);
      grown.set(this.state);
      for (let c = this.channels; c < channelData.length; c++) grown.set(this.state.subarray(0, 4), c * 4);
      this.state = grown;
      this.channels = channelData.length;
    }
    const length = channelData[0]!.length;
    const channels = channelData.length;
    this.currentBlockChannels = Math.max(this.currentBlockChannels, channels);
    const [shelf, highPass] = this.filters;
    let offset = 0;
    while (offset < length) {
      const n = Math.min(length - offset, this.subBlockSize - this.filled);
      if (channels === 2) {
        kWeightedEnergyStereo(channelData[0]!, channelData[1]!, offset, offset + n, this.state, shelf, highPass, this.sums);
        this.accumulator += this.sums[0]!;
        this.accumulator += this.sums[1]!;
      } else {
        for (let c = 0; c < channels; c++) {
          this.accumulator += kWeightedEnergy(channelData[c]!, offset, offset + n, this.state, c * 4, shelf, highPass);
        }
      }
      this.filled += n;
      offset += n;
      if (this.filled === this.subBlockSize) {
        this.powers.push(this.accumulator / this.subBlockSize);
        this.blockChannels.push(this.currentBlockChannels);
        this.currentBlockChannels = channels;
        this.accumulator = 0;
        this.filled = 0;
      }
    }
  }

  /** K-weighted power of every complete 100 ms sub-block so far. */
  subBlockPowers(): Float64Array {
    return Float64Array.from(this.powers, (p, i) => (p * this.channels) / (this.blockChannels[i] || this.channels));
  }
}

/**
 * Gated integrated loudness (LUFS) of the sub-blocks in [from, to). Returns -Infinity when no
 * block passes the absolute gate (silence, or shorter than 400 ms).
 */
export function integratedLoudness(powers: ArrayLike<number>, from = 0, to = powers.length): number {
  const blocks: number[] = [];
  for (let i = Math.max(0, from); i + 4 <= Math.min(to, powers.length); i++) {
    blocks.push((powers[i]! + powers[i + 1]! + powers[i + 2]! + powers[i + 3]!) / 4);
  }
  const absoluteGate = lufsToPower(ABSOLUTE_GATE_LUFS);
  const loud = blocks.filter((p) => p > absoluteGate);
  if (loud.length === 0) return -Infinity;
  const relativeGate = average(loud) * 10 ** (RELATIVE_GATE_LU / 10);
  const gated = loud.filter((p) => p > relativeGate);
  return powerToLufs(average(gated));
}

export function powerToLufs(power: number): number {
  return -0.691 + 10 * Math.log10(power);
}

function lufsToPower(lufs: number): number {
  return 10 ** ((lufs + 0.691) / 10);
}

function average(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Spread of the short-term loudness: the 10th to 90th percentile of the 400 ms blocks' loudness
 * (LU), over blocks above the absolute gate and within 20 LU of the mean (EBU Tech 3342's
 * loudness range, with shorter blocks for a 30 s window). Compressed productions ~2-5 LU,
 * dynamic music 8 LU or more.
 */
export function loudnessRange(powers: ArrayLike<number>): number {
  const blocks: number[] = [];
  for (let i = 0; i + 4 <= powers.length; i += 2) blocks.push((powers[i]! + powers[i + 1]! + powers[i + 2]! + powers[i + 3]!) / 4);
  const loud = blocks.filter((p) => p > lufsToPower(ABSOLUTE_GATE_LUFS));
  if (loud.length < 2) return 0;
  const gate = average(loud) * 10 ** (-20 / 10);
  const lufs = loud.filter((p) => p > gate).map(powerToLufs).sort((a, b) => a - b);
  const at = (q: number) => lufs[Math.min(lufs.length - 1, Math.floor(q * (lufs.length - 1)))]!;
  return at(0.9) - at(0.1);
}
