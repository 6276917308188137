import { BINS as FRAME_BINS, BIN_HZ, FRAMES_PER_SECOND, type Spectrogram } from './signal.stft';

/** Bound in this module, for the per-bin loops below (see BINS in signal.stft.ts). */
const BINS = FRAME_BINS;

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { log1p, log2, sqrt } = Math;

/**
 * Onset strength over time: the positive change, from one frame to the next, of the
 * log-compressed magnitudes in bands a sixth of an octave wide (spectral flux on a log-filtered
 * spectrogram, Böck et al. 2012; the log makes a quiet hi-hat count beside a loud guitar, as the
 * ear hears it, and the bands make it cheap and less sensitive to vibrato). Summed over all
 * bands and over three ranges that the level choice and the meter read apart: the kick and the
 * bass below 150 Hz, the snare body, chords and voice up to 2 kHz, the snare's crack and the
 * hats above.
 */
export interface OnsetEnvelopes {
  fps: number;
  /** Flux over every band from 30 Hz to 11 kHz. */
  all: Float64Array;
  /** Flux below 150 Hz: kick drum, bass notes. */
  low: Float64Array;
  /** Flux from 150 Hz to 2 kHz: snare body, chords, voice. */
  mid: Float64Array;
  /** Flux above 2 kHz: snare crack, hats, cymbals, consonants. */
  high: Float64Array;
}

/** Log compression: ln(1 + GAIN * band magnitude), magnitudes scaled to a full-scale sine = 1. */
const GAIN = 1e4;
const BANDS_PER_OCTAVE = 6;
const LOWEST_HZ = 30;

/** Band of every bin (-1 below 30 Hz), bands at least one bin wide; and each band's range (0 low, 1 mid, 2 high). */
const FILTERBANK = (() => {
  const bandOfBin = new Int16Array(BINS).fill(-1);
  const range: number[] = [];
  let band = -1;
  let top = 0;
  for (let k = 1; k < BINS; k++) {
    const hz = k * BIN_HZ;
    if (hz < LOWEST_HZ) continue;
    if (band < 0 || hz >= top) {
      band++;
      top = Math.max(hz + BIN_HZ / 2, LOWEST_HZ * 2 ** ((Math.floor(BANDS_PER_OCTAVE * log2(hz / LOWEST_HZ)) + 1) / BANDS_PER_OCTAVE));
      range.push(hz < 150 ? 0 : hz < 2000 ? 1 : 2);
    }
    bandOfBin[k] = band;
  }
  return { bandOfBin, range: Int8Array.from(range), bands: band + 1 };
})();

/** Frame f's band magnitudes, log-compressed, into `cur`; the positive change against `prev` into the envelopes. */
function fluxFrame(mags: Float32Array, f: number, prev: Float64Array, cur: Float64Array, env: OnsetEnvelopes): void {
  const row = f * BINS;
  const { bandOfBin, range, bands } = FILTERBANK;
  cur.fill(0);
  for (let k = 1; k < BINS; k++) {
    const b = bandOfBin[k]!;
    if (b >= 0) cur[b]! += mags[row + k]!;
  }
  let low = 0;
  let mid = 0;
  let high = 0;
  for (let b = 0; b < bands; b++) {
    const c = log1p(GAIN * cur[b]!);
    cur[b] = c;
    const d = c - prev[b]!;
    if (d > 0) {
      const r = range[b]!;
      if (r === 0) low += d;
      else if (r === 1) mid += d;
      else high += d;
    }
  }
  env.low[f] = low;
  env.mid[f] = mid;
  env.high[f] = high;
  env.all[f] = low + mid + high;
}

export function onsetEnvelopes(spec: Spectrogram): OnsetEnvelopes {
  const n = spec.frames;
  const env: OnsetEnvelopes = {
    fps: FRAMES_PER_SECOND,
    all: new Float64Array(n),
    low: new Float64Array(n),
    mid: new Float64Array(n),
    high: new Float64Array(n),
  };
  let prev = new Float64Array(FILTERBANK.bands);
  let cur = new Float64Array(FILTERBANK.bands);
  for (let f = 0; f < n; f++) {
    fluxFrame(spec.mags, f, prev, cur, env);
    [prev, cur] = [cur, prev];
  }
  // Frame 0 has no predecessor: its "flux" is the whole first spectrum.
  for (const x of [env.all, env.low, env.mid, env.high]) x[0] = 0;
  return env;
}

/**
 * The envelope less its moving mean over ±`radius` frames, half-wave rectified: what remains
 * are the onsets, not the slow swell of loudness.
 */
export function detrend(x: Float64Array, radius: number): Float64Array {
  const prefix = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) prefix[i + 1] = prefix[i]! + x[i]!;
  const y = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const a = Math.max(0, i - radius);
    const b = Math.min(x.length, i + radius + 1);
    y[i] = Math.max(0, x[i]! - (prefix[b]! - prefix[a]!) / (b - a));
  }
  return y;
}

/**
 * Chord changes over time: the cosine distance between the summed chroma of the `halfWindow`
 * frames before and after each frame. It peaks where the harmony moves (usually at bar lines)
 * and stays flat under repeated stabs, drums and hats, which leave the pitch classes as they were.
 */
export function chordChange(chroma: Float32Array, frames: number, halfWindow: number): Float64Array {
  const w = Math.max(2, halfWindow);
  const prefix = new Float64Array((frames + 1) * 12);
  for (let t = 0; t < frames; t++) {
    for (let k = 0; k < 12; k++) prefix[(t + 1) * 12 + k] = prefix[t * 12 + k]! + chroma[t * 12 + k]!;
  }
  const change = new Float64Array(frames);
  for (let t = w; t + w <= frames; t++) {
    let dot = 0;
    let before2 = 0;
    let after2 = 0;
    for (let k = 0; k < 12; k++) {
      const before = prefix[t * 12 + k]! - prefix[(t - w) * 12 + k]!;
      const after = prefix[(t + w) * 12 + k]! - prefix[t * 12 + k]!;
      dot += before * after;
      before2 += before * before;
      after2 += after * after;
    }
    change[t] = before2 > 0 && after2 > 0 ? 1 - dot / sqrt(before2 * after2) : 0;
  }
  return change;
}

/** Onsets per second: local maxima of `o` above both 1.5 × its median and 0.1 × its 98th percentile, ≥ 50 ms apart. */
export function onsetRate(o: Float64Array, fps: number): number {
  if (o.length < 3) return 0;
  const sorted = Float64Array.from(o).sort();
  const threshold = Math.max(1e-9, sorted[Math.floor(sorted.length * 0.5)]! * 1.5, sorted[Math.floor(sorted.length * 0.98)]! * 0.1);
  const minGap = Math.max(1, Math.round(fps * 0.05));
  let count = 0;
  let last = -minGap;
  for (let i = 1; i + 1 < o.length; i++) {
    if (o[i]! > threshold && o[i]! >= o[i - 1]! && o[i]! > o[i + 1]! && i - last >= minGap) {
      count++;
      last = i;
    }
  }
  return count / (o.length / fps);
}
