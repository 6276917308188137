import { BINS as FRAME_BINS, BIN_HZ, type Spectrogram } from './signal.stft';

// The bins per frame bound here (signal.stft.ts says why).
const BINS = FRAME_BINS;

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { PI, atan2, cos, log, log2, sin } = Math;

/**
 * The engine's one chroma: 12 pitch-class energies (C first) per frame, from the spectral
 * peaks of the shared spectrogram, HPCP-style (Gómez 2006): every peak between 50 Hz and
 * 3.5 kHz, its frequency refined by parabolic interpolation on the dB spectrum (so the 10.8 Hz
 * bins still place low notes), corrected for the window's tuning, adds cos²-weighted energy to
 * the pitch class it lies nearest and, at 0.6 per step, to those of the notes it could be the
 * 2nd to 4th harmonic of. Each frame is normalised to its strongest class; classes below 0.2
 * of it are dropped (noise, stray harmonics). The key, the sections' keys and the meter's
 * chord changes all read this.
 *
 * Beside it, the bass line's pitch classes: the peaks below 200 Hz, each counted once at its own
 * pitch class (no harmonics), every frame summing to 1. A bass line dwells on the tonic, and its
 * notes tell a key from its relative, which share every pitch class of the chroma.
 *
 * And the sustained chroma, which the key reads: the same peaks and folding on the spectrogram
 * with every bin's magnitude replaced by its smallest over five frames (±46 ms), the window's
 * tuning the same. A drum hit, a strum's attack and a consonant last less than that and vanish;
 * held notes stay. With the same key model, fitted on each and left out set by set, it reads the
 * key of five sets of recordings better on the whole (docs/engine/key.md: the mean 0.727 → 0.751
 * MIREX), while the plain chroma, whose frames follow every attack, stays the one chord changes,
 * the meter and the harmony's colour read.
 */
export interface Chroma {
  /** frames × 12, each frame's strongest class 1 (or all 0 in silence). */
  frames: Float32Array;
  /** frames × 12, the share of each pitch class among the frame's peaks below 200 Hz (all 0 without any). */
  bass: Float32Array;
  count: number;
  /** frames × 12, the chroma of the sustained spectrum (each frame's strongest class 1): the key's. */
  sustained: Float32Array;
  /** The window's deviation from A = 440 Hz, in semitones (-0.5 … 0.5). */
  tuning: number;
}

/** Frames either side whose smallest magnitude a bin of the sustained spectrum keeps. */
const SUSTAIN_RADIUS = 2;
/**
 * The sustained chroma is measured on every SUSTAIN_STRIDE-th frame (the others stay 0): the key
 * reads its sums, which every second frame (46 ms apart) gives as well as every frame, at half
 * the cost (docs/engine/key.md).
 */
const SUSTAIN_STRIDE = 2;

const MIN_HZ = 50;
const MAX_HZ = 3500;
/** Peaks from BASS_MIN_HZ to BASS_MAX_HZ are the bass line's notes. */
const BASS_MIN_HZ = 30;
const BASS_MAX_HZ = 200;
/** BASS_MAX_HZ in semitones above A 440 (the unit of the peaks' pitches). */
const BASS_MAX_PITCH = 12 * log2(BASS_MAX_HZ / 440);
const HARMONICS = 4;
const HARMONIC_DECAY = 0.6;
const FRAME_THRESHOLD = 0.2;
/** Peaks more than 60 dB below the frame's loudest bin are sidelobes and noise. */
const PEAK_FLOOR = 1e-3;

const LO_BIN = Math.max(2, Math.floor(MIN_HZ / BIN_HZ));
/** The bass line reaches below the chroma's range: E1 is 41 Hz. */
const BASS_LO_BIN = Math.max(1, Math.ceil(BASS_MIN_HZ / BIN_HZ));
const HI_BIN = Math.min(BINS - 2, Math.ceil(MAX_HZ / BIN_HZ));

/** The frame's largest magnitude between LO_BIN and HI_BIN. */
function frameMax(mags: Float32Array, row: number): number {
  let max = 0;
  for (let k = LO_BIN; k <= HI_BIN; k++) if (mags[row + k]! > max) max = mags[row + k]!;
  return max;
}

/**
 * Peak positions (fractional semitones above A 440) and magnitudes relative to `max` of the
 * frame's bins [lo, hi], written from index `n` on; returns the new count.
 */
function framePeaks(mags: Float32Array, row: number, lo: number, hi: number, max: number, pitch: Float64Array, level: Float64Array, n: number): number {
  const floor = max * PEAK_FLOOR;
  for (let k = lo; k <= hi; k++) {
    const b = mags[row + k]!;
    if (b <= floor || b < mags[row + k - 1]! || b <= mags[row + k + 1]!) continue;
    const a = log(mags[row + k - 1]! + 1e-12);
    const lb = log(b);
    const c = log(mags[row + k + 1]! + 1e-12);
    const den = a - 2 * lb + c;
    const delta = den < 0 ? (0.5 * (a - c)) / den : 0;
    pitch[n] = 12 * log2(((k + delta) * BIN_HZ) / 440);
    level[n] = b / max;
    n++;
  }
  return n;
}

/** Pitch class (C = 0) of a pitch in semitones above A 440. */
const classOf = (nearest: number): number => (((nearest + 9) % 12) + 12) % 12;

/**
 * Adds the bass peaks to bass row `f`: those below the chroma's range (`low`, `lowLevel`: count
 * `nLow`) and the chroma's peaks below BASS_MAX_HZ, each cos²-weighted at its own pitch class;
 * the row sums to 1.
 */
function foldBass(low: Float64Array, lowLevel: Float64Array, nLow: number, pitch: Float64Array, level: Float64Array, n: number, tuning: number, out: Float32Array, f: number): void {
  const row = f * 12;
  let sum = 0;
  const add = (p: number, l: number) => {
    const nearest = Math.round(p - tuning);
    const w = cos(PI * (p - tuning - nearest)) ** 2 * l;
    out[row + classOf(nearest)]! += w;
    sum += w;
  };
  for (let i = 0; i < nLow; i++) add(low[i]!, lowLevel[i]!);
  for (let i = 0; i < n && pitch[i]! < BASS_MAX_PITCH; i++) add(pitch[i]!, level[i]!);
  if (sum > 0) for (let k = 0; k < 12; k++) out[row + k] = out[row + k]! / sum;
}

/**
 * For the harmonics h = 1 … HARMONICS that are not an octave of the fundamental (h = 3 of 4): the
 * h-th harmonic's distance above its fundamental (semitones) and its weight. The others (h = 1, 2,
 * 4) lie a whole number of octaves above it, so they name the peak's own pitch class at the same
 * cos² weight: their weights are summed once (OCTAVES_WEIGHT), two cosines a peak where four were
 * taken.
 */
const OTHER_HARMONICS = Array.from({ length: HARMONICS }, (_, i) => i + 1).filter((h) => !Number.isInteger(Math.log2(h)));
const HARMONIC_SEMITONES = Float64Array.from(OTHER_HARMONICS, (h) => 12 * log2(h));
const HARMONIC_WEIGHT = Float64Array.from(OTHER_HARMONICS, (h) => HARMONIC_DECAY ** (h - 1));
const OCTAVES_WEIGHT = Array.from({ length: HARMONICS }, (_, i) => i + 1)
  .filter((h) => Number.isInteger(Math.log2(h)))
  .reduce((s, h) => s + HARMONIC_DECAY ** (h - 1), 0);

/** Adds one frame's peaks to chroma row `f`, then normalises and thresholds the row. */
function foldFrame(pitch: Float64Array, level: Float64Array, n: number, tuning: number, out: Float32Array, f: number): void {
  const row = f * 12;
  for (let i = 0; i < n; i++) {
    const energy = level[i]!;
    const own = pitch[i]! - tuning;
    const nearest = Math.round(own);
    out[row + classOf(nearest)]! += cos(PI * (own - nearest)) ** 2 * OCTAVES_WEIGHT * energy;
    for (let h = 0; h < HARMONIC_SEMITONES.length; h++) {
      const p = own - HARMONIC_SEMITONES[h]!;
      const below = Math.round(p);
      out[row + classOf(below)]! += cos(PI * (p - below)) ** 2 * HARMONIC_WEIGHT[h]! * energy;
    }
  }
  let max = 0;
  for (let k = 0; k < 12; k++) max = Math.max(max, out[row + k]!);
  if (max <= 0) return;
  for (let k = 0; k < 12; k++) {
    const v = out[row + k]! / max;
    out[row + k] = v >= FRAME_THRESHOLD ? v : 0;
  }
}

/**
 * The chroma range's bins [0, HI_BIN + 1] of every SUSTAIN_STRIDE-th frame, each the smallest of its magnitudes
 * over the frames SUSTAIN_RADIUS either side (fewer at the window's ends): a stride of
 * HI_BIN + 2 per frame.
 */
function sustainedMagnitudes(spec: Pick<Spectrogram, 'frames' | 'mags'>): Float32Array {
  const width = HI_BIN + 2;
  const out = new Float32Array(spec.frames * width);
  const { mags, frames } = spec;
  for (let f = 0; f < frames; f += SUSTAIN_STRIDE) {
    const from = Math.max(0, f - SUSTAIN_RADIUS);
    const to = Math.min(frames - 1, f + SUSTAIN_RADIUS);
    const row = f * width;
    out.set(mags.subarray(from * BINS, from * BINS + width), row);
    for (let g = from + 1; g <= to; g++) {
      const at = g * BINS;
      for (let k = 0; k < width; k++) {
        const v = mags[at + k]!;
        if (v < out[row + k]!) out[row + k] = v;
      }
    }
  }
  return out;
}

/** The sustained spectrum's chroma, folded as the plain one's at the window's tuning. */
function sustainedChroma(spec: Pick<Spectrogram, 'frames' | 'mags'>, tuning: number, pitch: Float64Array, level: Float64Array): Float32Array {
  const width = HI_BIN + 2;
  const mags = sustainedMagnitudes(spec);
  const out = new Float32Array(spec.frames * 12);
  for (let f = 0; f < spec.frames; f += SUSTAIN_STRIDE) {
    const max = frameMax(mags, f * width);
    if (max <= 1e-7) continue;
    const n = framePeaks(mags, f * width, LO_BIN, HI_BIN, max, pitch, level, 0);
    foldFrame(pitch, level, n, tuning, out, f);
  }
  return out;
}

export function chromaOf(spec: Pick<Spectrogram, 'frames' | 'mags'>): Chroma {
  const pitch = new Float64Array(HI_BIN);
  const level = new Float64Array(HI_BIN);
  // Every frame's peaks, kept for the second pass (a few hundred thousand numbers per window).
  let allPitch = new Float64Array(spec.frames * 32);
  let allLevel = new Float64Array(spec.frames * 32);
  const start = new Int32Array(spec.frames + 1);
  // Peaks below the chroma's range, for the bass line only (at most one bin: one per frame).
  const lowPitch = new Float64Array(spec.frames);
  const lowLevel = new Float64Array(spec.frames);
  const hasLow = new Uint8Array(spec.frames);
  let total = 0;
  // The peaks' deviation from equal temperament: a circular mean weighted by level.
  let sx = 0;
  let sy = 0;
  for (let f = 0; f < spec.frames; f++) {
    const max = frameMax(spec.mags, f * BINS);
    if (max <= 1e-7) {
      start[f + 1] = total;
      continue;
    }
    hasLow[f] = framePeaks(spec.mags, f * BINS, BASS_LO_BIN, LO_BIN - 1, max, lowPitch.subarray(f, f + 1), lowLevel.subarray(f, f + 1), 0);
    const n = framePeaks(spec.mags, f * BINS, LO_BIN, HI_BIN, max, pitch, level, 0);
    if (total + n > allPitch.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(Math.max(2 * a.length, total + n));
        b.set(a.subarray(0, total));
        return b;
      };
      allPitch = grow(allPitch);
      allLevel = grow(allLevel);
    }
    for (let i = 0; i < n; i++) {
      const phase = 2 * PI * (pitch[i]! - Math.round(pitch[i]!));
      sx += level[i]! * cos(phase);
      sy += level[i]! * sin(phase);
      allPitch[total + i] = pitch[i]!;
      allLevel[total + i] = level[i]!;
    }
    total += n;
    start[f + 1] = total;
  }
  const tuning = sx === 0 && sy === 0 ? 0 : atan2(sy, sx) / (2 * PI);
  const frames = new Float32Array(spec.frames * 12);
  const bass = new Float32Array(spec.frames * 12);
  for (let f = 0; f < spec.frames; f++) {
    const from = start[f]!;
    const pitches = allPitch.subarray(from);
    const levels = allLevel.subarray(from);
    foldFrame(pitches, levels, start[f + 1]! - from, tuning, frames, f);
    foldBass(lowPitch.subarray(f), lowLevel.subarray(f), hasLow[f]!, pitches, levels, start[f + 1]! - from, tuning, bass, f);
  }
  return { frames, bass, sustained: sustainedChroma(spec, tuning, pitch, level), count: spec.frames, tuning };
}

/** The sum of the chroma frames [from, to) (C first); of the bass or sustained rows with `part`. */
export function chromaSum(chroma: Chroma, from = 0, to = chroma.count, part: 'frames' | 'bass' | 'sustained' = 'frames'): Float64Array {
  const rows = chroma[part];
  const sum = new Float64Array(12);
  for (let f = Math.max(0, from); f < Math.min(chroma.count, to); f++) {
    for (let k = 0; k < 12; k++) sum[k]! += rows[f * 12 + k]!;
  }
  return sum;
}
