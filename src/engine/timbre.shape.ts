import { cepstrumInto, dctBasis, frameLogMel, melFilterbank } from './signal.mel';
import { BINS, BIN_HZ, type Spectrogram } from './signal.stft';

/**
 * The spectral envelope's shape over a window (the timbre of the instruments and voices, the
 * production's colour), in the two summaries music emotion and genre recognition classically
 * read, on every fourth spectrogram frame (93 ms frames that touch, as timbre.stats.ts reads
 * them):
 *
 * - mel-frequency cepstral coefficients: the power spectrum through MEL_BANDS triangular bands
 *   evenly spaced on the mel scale from 30 Hz to 8 kHz, their log10 power, then the first
 *   COEFFICIENTS terms of its DCT-II (coefficient 0 is the mean log level); over the window, each
 *   coefficient's mean and its standard deviation (how much the timbre moves), and for the sound
 *   embedding (sound.embedding.ts) their covariance and the spread of their change from one frame
 *   read to the next;
 * - octave-band spectral contrast (Jiang et al., 2002): in each of the OCTAVES bands, the log10
 *   of the mean magnitude of its strongest fifth of bins (the peaks) less that of its weakest
 *   fifth (the valleys), and the valleys' level; over the window, their means. Tones stand out
 *   of their band; noise and dense mixes fill the valleys.
 */
export interface SpectralShape {
  mean: number[];
  spread: number[];
  /** The coefficients' covariance over the window, COEFFICIENTS × COEFFICIENTS, row-major. */
  covariance: number[];
  /** The standard deviation of each coefficient's change between the frames read. */
  deltaSpread: number[];
  contrast: number[];
  valley: number[];
}

export const MEL_BANDS = 40;
export const COEFFICIENTS = 13;
const LOW_HZ = 30;
const HIGH_HZ = 8000;
const FRAME_STEP = 4;
/** Added to each band's power before the log: −100 dB, well under any audible band. */
const FLOOR = 1e-10;

/** The bands and their DCT basis (signal.mel.ts). */
const MEL = melFilterbank(MEL_BANDS, LOW_HZ, HIGH_HZ);
const DCT = dctBasis(COEFFICIENTS, MEL_BANDS);

/** Octave bands' edges, Hz: below 200 Hz, then octaves to the top of the 22.05 kHz spectrogram. */
const OCTAVE_EDGES_HZ = [0, 200, 400, 800, 1600, 3200, 6400, 11025] as const;
export const OCTAVES = OCTAVE_EDGES_HZ.length - 1;
const OCTAVE_BINS = OCTAVE_EDGES_HZ.map((hz) => Math.min(BINS, Math.max(1, Math.round(hz / BIN_HZ))));
/** The share of a band's bins that are its peaks, and its valleys. */
const EXTREME_SHARE = 0.2;
/** Added to a magnitude before the log: −180 dB. */
const MAG_FLOOR = 1e-9;

/**
 * Reorders a[left … right] so that a[k] is the value a sort would put there, everything before it
 * no larger and everything after it no smaller (Hoare's selection, median-of-three pivots): the
 * sum of a band's strongest or weakest fifth without sorting the band (a tenth of the work on
 * the 512-bin top octave).
 */
function select(a: Float32Array, k: number, left: number, right: number): void {
  while (right > left) {
    const mid = (left + right) >>> 1;
    // Median of three to a[mid], then Hoare's partition around it.
    if (a[mid]! < a[left]!) swap(a, mid, left);
    if (a[right]! < a[left]!) swap(a, right, left);
    if (a[right]! < a[mid]!) swap(a, right, mid);
    const pivot = a[mid]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) swap(a, i++, j--);
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

function swap(a: Float32Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** Adds the frame's contrast and valley level of each octave band to the sums. */
function addContrast(mags: Float32Array, row: number, scratch: Float32Array, contrast: Float64Array, valley: Float64Array): void {
  for (let b = 0; b < OCTAVES; b++) {
    const from = OCTAVE_BINS[b]!;
    const n = OCTAVE_BINS[b + 1]! - from;
    const band = scratch.subarray(0, n);
    band.set(mags.subarray(row + from, row + from + n));
    const q = Math.max(1, Math.floor(n * EXTREME_SHARE));
    // The q weakest to band[0 … q), then the q strongest to band[n - q … n).
    select(band, q - 1, 0, n - 1);
    if (n - q > q) select(band, n - q, q, n - 1);
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < q; i++) {
      lo += band[i]!;
      hi += band[n - 1 - i]!;
    }
    const low = Math.log10(lo / q + MAG_FLOOR);
    contrast[b]! += Math.log10(hi / q + MAG_FLOOR) - low;
    valley[b]! += low;
  }
}

export function spectralShape(spec: Spectrogram): SpectralShape {
  const sum = new Float64Array(COEFFICIENTS);
  const squares = new Float64Array(COEFFICIENTS);
  const melPower = new Float64Array(MEL_BANDS);
  const power = new Float64Array(BINS);
  const contrast = new Float64Array(OCTAVES);
  const valley = new Float64Array(OCTAVES);
  const scratch = new Float32Array(BINS);
  const products = new Float64Array(COEFFICIENTS * COEFFICIENTS);
  const coefficients = new Float64Array(COEFFICIENTS);
  const previous = new Float64Array(COEFFICIENTS);
  const deltaSquares = new Float64Array(COEFFICIENTS);
  let n = 0;
  for (let f = 0; f < spec.frames; f += FRAME_STEP) {
    const row = f * BINS;
    frameLogMel(MEL, spec.mags, f, power, melPower, FLOOR);
    cepstrumInto(DCT, melPower, coefficients);
    for (let c = 0; c < COEFFICIENTS; c++) {
      const v = coefficients[c]!;
      sum[c]! += v;
      squares[c]! += v * v;
    }
    for (let i = 0; i < COEFFICIENTS; i++) {
      for (let j = i; j < COEFFICIENTS; j++) products[i * COEFFICIENTS + j]! += coefficients[i]! * coefficients[j]!;
      if (n > 0) deltaSquares[i]! += (coefficients[i]! - previous[i]!) ** 2;
    }
    previous.set(coefficients);
    addContrast(spec.mags, row, scratch, contrast, valley);
    n++;
  }
  const mean = Array.from(sum, (s) => (n > 0 ? s / n : 0));
  const spread = Array.from(squares, (s, c) => (n > 0 ? Math.sqrt(Math.max(0, s / n - mean[c]! ** 2)) : 0));
  const covariance = new Array<number>(COEFFICIENTS * COEFFICIENTS).fill(0);
  for (let i = 0; i < COEFFICIENTS; i++) {
    for (let j = i; j < COEFFICIENTS; j++) {
      const v = n > 0 ? products[i * COEFFICIENTS + j]! / n - mean[i]! * mean[j]! : 0;
      covariance[i * COEFFICIENTS + j] = v;
      covariance[j * COEFFICIENTS + i] = v;
    }
  }
  const deltaSpread = Array.from(deltaSquares, (s) => (n > 1 ? Math.sqrt(s / (n - 1)) : 0));
  const perFrame = (sums: Float64Array): number[] => Array.from(sums, (v) => (n > 0 ? v / n : 0));
  return { mean, spread, covariance, deltaSpread, contrast: perFrame(contrast), valley: perFrame(valley) };
}
