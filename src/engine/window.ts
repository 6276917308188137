import { resample } from 'wave-resampler';
import { LoudnessMeter, SUB_BLOCK_SECONDS, integratedLoudness } from './loudness';

/** The rate decoded windows are delivered at; the framing (signal.stft.ts) halves it. */
export const ANALYSIS_RATE = 44100;

/** Files up to this long are analysed whole. */
export const WHOLE_CLIP_MAX_SECONDS = 45;

/** A span of samples at the source rate. */
export interface SampleRange {
  start: number;
  end: number;
}

/**
 * The analysed window: the whole file up to 45 s (or up to `windowSeconds` when that is longer),
 * otherwise `windowSeconds` from the middle, where a song's verses and choruses are rather than
 * its intro and fade-out. One window, not several combined: the budget is one 30 s clip per song.
 */
export function chooseWindow(totalSamples: number, sampleRate: number, windowSeconds: number): SampleRange {
  const length = Math.round(windowSeconds * sampleRate);
  if (totalSamples <= Math.max(WHOLE_CLIP_MAX_SECONDS * sampleRate, length)) return { start: 0, end: totalSamples };
  const start = Math.floor((totalSamples - length) / 2);
  return { start, end: start + length };
}

/**
 * The samples to keep while decoding when the file's length is only estimated (from its
 * headers): the window that estimate implies, widened by a margin so that the window chosen from
 * the exact decoded length still falls inside it. Undefined: keep everything.
 */
export function keepRangeFor(
  estimatedSeconds: number | undefined,
  sampleRate: number,
  windowSeconds: number,
): SampleRange | undefined {
  if (estimatedSeconds === undefined || !Number.isFinite(estimatedSeconds) || estimatedSeconds <= 0) return undefined;
  const window = chooseWindow(Math.round(estimatedSeconds * sampleRate), sampleRate, windowSeconds);
  if (window.start === 0) return undefined;
  const margin = Math.round(Math.max(2, estimatedSeconds * 0.03) * sampleRate);
  return { start: Math.max(0, window.start - margin), end: window.end + margin };
}

/** Samples mixed per call of `mixInto`: small calls keep that loop optimised from clip to clip. */
const MIX_BLOCK = 8192;

/** out[at + i] = mean of the channels' sample i, for i in [from, to) of the chunk. */
function mixInto(channels: readonly Float32Array[], from: number, to: number, out: Float32Array, at: number): void {
  const left = channels[0]!;
  const right = channels[1];
  if (channels.length === 1) {
    out.set(left.subarray(from, to), at);
  } else if (channels.length === 2 && right) {
    for (let i = from; i < to; i++) out[at + i - from] = (left[i]! + right[i]!) * 0.5;
  } else {
    const gain = 1 / channels.length;
    for (const channel of channels) {
      for (let i = from; i < to; i++) out[at + i - from] = out[at + i - from]! + channel[i]! * gain;
    }
  }
}

/**
 * Receives decoded chunks one after the other and keeps, as mono, only the samples inside
 * `keep`: a long file never exists as full-rate PCM in memory, only the current decoder chunk
 * and the kept span. The kept span also goes, channel by channel, through the loudness meter.
 *
 * The kept mono samples go into one buffer, sized from `expectedSamples` when the caller knows
 * roughly how many there will be and doubled when it runs out; when the window is the whole
 * kept span (every file up to 45 s) `cut` returns it without copying.
 */
export class WindowCollector {
  private buffer: Float32Array;
  private length = 0;
  private position = 0;
  private meter: LoudnessMeter | undefined;
  private rate = 0;
  private channelCount = 0;
  private keep: SampleRange | undefined;

  /**
   * `keep`: the span to keep, or a function giving it from the sample rate of the first chunk
   * (decoders report their rate only with the first samples). Undefined keeps everything.
   * `expectedSamples`: how many samples (at the source rate) the kept span will probably hold,
   * from the same rate; only sizes the first buffer.
   */
  constructor(
    private readonly plan: SampleRange | ((sampleRate: number) => SampleRange | undefined) | undefined,
    private readonly expectedSamples?: (sampleRate: number) => number | undefined,
  ) {
    this.keep = typeof plan === 'function' ? undefined : plan;
    this.buffer = new Float32Array(0);
  }

  get sampleRate(): number {
    return this.rate;
  }

  get channels(): number {
    return this.channelCount;
  }

  /** Samples seen so far (per channel), kept or not. */
  get totalSamples(): number {
    return this.position;
  }

  /** Where the kept span starts in the file, in samples. */
  get keptStart(): number {
    return this.keep ? this.keep.start : 0;
  }

  get keptLength(): number {
    return this.length;
  }

  /** Whether every sample so far is kept (no span planned: a file whose length is unknown or within its window). */
  get keepsEverything(): boolean {
    return this.rate > 0 && this.keep === undefined;
  }

  /** The kept mono samples at the source rate (a view, valid until `cut`); the whole file when `keepsEverything`. */
  keptMono(): Float32Array {
    return this.buffer.subarray(0, this.length);
  }

  push(channelData: readonly Float32Array[], sampleRate: number): void {
    const first = channelData[0];
    if (!first || first.length === 0) return;
    if (this.rate === 0) {
      this.rate = sampleRate;
      this.channelCount = channelData.length;
      this.meter = new LoudnessMeter(sampleRate);
      if (typeof this.plan === 'function') this.keep = this.plan(sampleRate);
      const expected = this.keep ? this.keep.end - this.keep.start : this.expectedSamples?.(sampleRate);
      if (expected !== undefined && Number.isFinite(expected) && expected > 0) this.buffer = new Float32Array(Math.ceil(expected));
    } else if (sampleRate !== this.rate) {
      throw new Error(`sample rate changed from ${this.rate} to ${sampleRate} Hz within the stream`);
    }
    // MP3 chunks may turn from collapsed mono to stereo (see LoudnessMeter.push).
    this.channelCount = Math.max(this.channelCount, channelData.length);
    const chunkStart = this.position;
    const chunkEnd = chunkStart + first.length;
    this.position = chunkEnd;
    const from = Math.max(chunkStart, this.keep?.start ?? 0);
    const to = Math.min(chunkEnd, this.keep?.end ?? Infinity);
    if (to <= from) return;
    const kept = channelData.map((c) => c.subarray(from - chunkStart, to - chunkStart));
    this.meter!.push(kept);
    const n = to - from;
    this.reserve(this.length + n);
    for (let i = 0; i < n; i += MIX_BLOCK) mixInto(kept, i, Math.min(n, i + MIX_BLOCK), this.buffer, this.length + i);
    this.length += n;
  }

  /** Grows the buffer (zero-filled beyond the kept samples) to hold at least `samples`. */
  private reserve(samples: number): void {
    if (samples <= this.buffer.length) return;
    const grown = new Float32Array(Math.max(samples, 2 * this.buffer.length, 65536));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  /** Whether the kept span covers `range` of the file. */
  covers(range: SampleRange): boolean {
    return range.start >= this.keptStart && range.end <= this.keptStart + this.keptLength;
  }

  /**
   * The mono samples of `range` (which `covers` must accept) and the integrated loudness of the
   * sub-blocks inside it. The collector's samples are handed over or released: call once.
   */
  cut(range: SampleRange): { mono: Float32Array; loudness: number; subBlockPowers: Float64Array } {
    const from = Math.max(0, range.start - this.keptStart);
    const to = Math.max(from, Math.min(this.length, range.end - this.keptStart));
    const kept = this.buffer.subarray(from, to);
    // The whole buffer, or most of it: no copy (the spare capacity lives as long as the window).
    const mono = to - from >= 0.75 * this.buffer.length ? kept : kept.slice();
    this.buffer = new Float32Array(0);
    this.length = 0;
    const powers = this.meter?.subBlockPowers() ?? new Float64Array(0);
    const subBlock = Math.round(this.rate * SUB_BLOCK_SECONDS);
    const first = Math.max(0, Math.round((range.start - this.keptStart) / subBlock));
    const last = Math.min(powers.length, Math.round((range.end - this.keptStart) / subBlock));
    const windowPowers = powers.slice(first, last);
    return { mono, loudness: integratedLoudness(windowPowers), subBlockPowers: windowPowers };
  }
}

/**
 * Resamples a window to 44.1 kHz with wave-resampler's cubic interpolation. Its low-pass
 * filter is off: it costs ~0.5 s per 30 s, and the sources are 48 kHz Opus (nothing above
 * 20 kHz to alias) or lower rates being raised (no aliasing when upsampling).
 */
export function toAnalysisRate(mono: Float32Array, sampleRate: number): Float32Array {
  if (sampleRate === ANALYSIS_RATE) return mono;
  const out = resample(mono, sampleRate, ANALYSIS_RATE, { method: 'cubic', LPF: false });
  return Float32Array.from(out);
}
