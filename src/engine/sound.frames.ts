import { cepstrumInto, dctBasis, frameLogMel, melFilterbank } from './signal.mel';
import { BINS, type Spectrogram } from './signal.stft';

/**
 * The bag-of-frames part of the signal path's sound embedding (sound.embedding.ts, `signal/2` on).
 *
 * **The frames**: for every second frame of the engine's spectrogram (93 ms frames every 46 ms at
 * 22.05 kHz), 20 mel-frequency cepstral coefficients (40 mel bands from 30 Hz to 8 kHz, log10
 * power, DCT-II) and their change (the next frame read less the one before, 92 ms apart):
 * 40 numbers a frame. The window's own statistics (timbre.shape.ts) sum 13 coefficients up at
 * once; here the frames are kept, so that how a song's sounds are spread can be compared.
 *
 * **The supervector** (the "universal background model" of speaker and artist recognition:
 * Reynolds et al. 2000; Campbell et al. 2006): a mixture of Gaussians with diagonal covariances,
 * fitted once on the frames of many songs (measure/fit/gmm.ts), stands for music in general; a
 * song's supervector is how far its own frames pull each component's mean (MAP adaptation with a
 * relevance factor), each shift scaled by √weight / σ, so that the distance of two supervectors
 * bounds the divergence of the two songs' adapted mixtures.
 */
export const CEPSTRAL_COEFFICIENTS = 20;
export const CEPSTRAL_DIMS = 2 * CEPSTRAL_COEFFICIENTS;
const BANDS = 40;
const STEP = 2;
const FLOOR = 1e-10;
const MEL = melFilterbank(BANDS, 30, 8000);
const DCT = dctBasis(CEPSTRAL_COEFFICIENTS, BANDS);

/** The frames of a window's spectrogram, row-major: rows × CEPSTRAL_DIMS. */
export function cepstralFrames(spec: Spectrogram): Float32Array {
  const rows = Math.ceil(spec.frames / STEP);
  const coefficients = new Float64Array(rows * CEPSTRAL_COEFFICIENTS);
  const power = new Float64Array(BINS);
  const bands = new Float64Array(BANDS);
  for (let r = 0; r < rows; r++) {
    frameLogMel(MEL, spec.mags, r * STEP, power, bands, FLOOR);
    cepstrumInto(DCT, bands, coefficients, r * CEPSTRAL_COEFFICIENTS);
  }
  const out = new Float32Array(rows * CEPSTRAL_DIMS);
  for (let r = 0; r < rows; r++) {
    const before = Math.max(0, r - 1) * CEPSTRAL_COEFFICIENTS;
    const after = Math.min(rows - 1, r + 1) * CEPSTRAL_COEFFICIENTS;
    for (let c = 0; c < CEPSTRAL_COEFFICIENTS; c++) {
      out[r * CEPSTRAL_DIMS + c] = coefficients[r * CEPSTRAL_COEFFICIENTS + c]!;
      out[r * CEPSTRAL_DIMS + CEPSTRAL_COEFFICIENTS + c] = coefficients[after + c]! - coefficients[before + c]!;
    }
  }
  return out;
}

/** A mixture of Gaussians with diagonal covariances over frames of `dims` numbers. */
export interface DiagonalGmm {
  dims: number;
  weights: ArrayLike<number>;
  /** components × dims, row-major. */
  means: ArrayLike<number>;
  variances: ArrayLike<number>;
}

/** Each component's soft count and the posterior-weighted sum of its frames (and, with `squares`, of their squares: an EM step's statistics). */
export function frameStatistics(gmm: DiagonalGmm, frames: Float32Array | Float64Array, squares: boolean): { counts: Float64Array; sums: Float64Array; sumSquares: Float64Array } {
  const { dims } = gmm;
  const k = gmm.weights.length;
  // Per component: 1 / variance, and log weight − ½ Σ log variance.
  const inverse = new Float64Array(k * dims);
  const constant = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    let logDet = 0;
    for (let d = 0; d < dims; d++) {
      inverse[c * dims + d] = 1 / gmm.variances[c * dims + d]!;
      logDet += Math.log(gmm.variances[c * dims + d]!);
    }
    constant[c] = Math.log(gmm.weights[c]!) - 0.5 * logDet;
  }
  const counts = new Float64Array(k);
  const sums = new Float64Array(k * dims);
  const sumSquares = new Float64Array(squares ? k * dims : 0);
  const post = new Float64Array(k);
  for (let r = 0; r < frames.length / dims; r++) {
    const at = r * dims;
    let max = -Infinity;
    for (let c = 0; c < k; c++) {
      let q = 0;
      for (let d = 0; d < dims; d++) {
        const e = frames[at + d]! - gmm.means[c * dims + d]!;
        q += e * e * inverse[c * dims + d]!;
      }
      const s = constant[c]! - 0.5 * q;
      post[c] = s;
      if (s > max) max = s;
    }
    let total = 0;
    for (let c = 0; c < k; c++) total += post[c] = Math.exp(post[c]! - max);
    for (let c = 0; c < k; c++) {
      const p = post[c]! / total;
      if (p < 1e-6) continue;
      counts[c]! += p;
      for (let d = 0; d < dims; d++) {
        const x = frames[at + d]!;
        sums[c * dims + d]! += p * x;
        if (squares) sumSquares[c * dims + d]! += p * x * x;
      }
    }
  }
  return { counts, sums, sumSquares };
}

/**
 * A song's supervector (components × dims numbers): each component's mean adapted to the song's
 * frames, m' = (n·x̄ + r·μ) / (n + r) for its soft count n and the frames' mean x̄ under it, less μ,
 * times √weight / σ. A component the song hardly touches stays near 0.
 */
export function supervector(gmm: DiagonalGmm, frames: Float32Array | Float64Array, relevance = 16): number[] {
  const { dims } = gmm;
  const { counts, sums } = frameStatistics(gmm, frames, false);
  const out: number[] = [];
  for (let c = 0; c < gmm.weights.length; c++) {
    const n = counts[c]!;
    const shrink = n / (n + relevance);
    for (let d = 0; d < dims; d++) {
      const mu = gmm.means[c * dims + d]!;
      const m = n > 0 ? sums[c * dims + d]! / n : mu;
      out.push((Math.sqrt(gmm.weights[c]!) * shrink * (m - mu)) / Math.sqrt(gmm.variances[c * dims + d]!));
    }
  }
  return out;
}
