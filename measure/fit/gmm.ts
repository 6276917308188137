import { rng } from '../audio/audio-signals';

/**
 * A mixture of Gaussians with diagonal covariances, fitted by expectation-maximisation, and the
 * supervector of a song's frames against it (the "universal background model" of speaker and
 * artist recognition: Reynolds et al. 2000; Campbell et al. 2006). The mixture is fitted on the
 * frames of many songs; a song's supervector is how far its own frames pull each component's
 * mean (MAP adaptation with a relevance factor), each shift scaled by √weight / σ, so that the
 * Euclidean distance of two supervectors bounds the divergence of the two songs' adapted
 * mixtures. npm run bench:similarity -- --supervector measures it as a sound embedding.
 */
export interface DiagonalGmm {
  dims: number;
  weights: Float64Array;
  /** components × dims, row-major. */
  means: Float64Array;
  variances: Float64Array;
}

/** Each component's posterior probability for the frame `row` of `frames` (written to `out`). */
export function posteriors(gmm: DiagonalGmm, frames: Float32Array | Float64Array, row: number, out: Float64Array): void {
  const { dims } = gmm;
  const k = gmm.weights.length;
  let max = -Infinity;
  for (let c = 0; c < k; c++) {
    let s = Math.log(gmm.weights[c]!);
    for (let d = 0; d < dims; d++) {
      const v = gmm.variances[c * dims + d]!;
      const e = frames[row * dims + d]! - gmm.means[c * dims + d]!;
      s -= 0.5 * ((e * e) / v + Math.log(v));
    }
    out[c] = s;
    if (s > max) max = s;
  }
  let total = 0;
  for (let c = 0; c < k; c++) total += out[c] = Math.exp(out[c]! - max);
  for (let c = 0; c < k; c++) out[c]! /= total;
}

/** Zeroth and first-order statistics of the frames: each component's soft count and the posterior-weighted sum of its frames. */
function accumulate(gmm: DiagonalGmm, frames: Float32Array | Float64Array, squares: boolean): { counts: Float64Array; sums: Float64Array; sumSquares: Float64Array } {
  const { dims } = gmm;
  const k = gmm.weights.length;
  const counts = new Float64Array(k);
  const sums = new Float64Array(k * dims);
  const sumSquares = new Float64Array(squares ? k * dims : 0);
  const post = new Float64Array(k);
  for (let r = 0; r < frames.length / dims; r++) {
    posteriors(gmm, frames, r, post);
    for (let c = 0; c < k; c++) {
      const p = post[c]!;
      if (p < 1e-6) continue;
      counts[c]! += p;
      for (let d = 0; d < dims; d++) {
        const x = frames[r * dims + d]!;
        sums[c * dims + d]! += p * x;
        if (squares) sumSquares[c * dims + d]! += p * x * x;
      }
    }
  }
  return { counts, sums, sumSquares };
}

/**
 * Fits `components` Gaussians to the frames (rows of `dims`): means started at frames drawn by the
 * seeded generator, variances at the frames' own, then `iterations` EM steps. A component left
 * with (almost) no frames keeps its last parameters; variances are floored at 1e-3 of the frames'.
 */
export function fitDiagonalGmm(frames: Float32Array | Float64Array, dims: number, components: number, iterations = 12, seed = 1): DiagonalGmm {
  const n = frames.length / dims;
  if (!Number.isInteger(n) || n < components) throw new Error(`fitDiagonalGmm: ${n} frames of ${dims} cannot fit ${components} components`);
  const mean = new Float64Array(dims);
  const variance = new Float64Array(dims);
  for (let r = 0; r < n; r++) for (let d = 0; d < dims; d++) mean[d]! += frames[r * dims + d]! / n;
  for (let r = 0; r < n; r++) for (let d = 0; d < dims; d++) variance[d]! += (frames[r * dims + d]! - mean[d]!) ** 2 / n;
  for (let d = 0; d < dims; d++) variance[d] = Math.max(variance[d]!, 1e-12);
  const random = rng(seed);
  const gmm: DiagonalGmm = { dims, weights: new Float64Array(components).fill(1 / components), means: new Float64Array(components * dims), variances: new Float64Array(components * dims) };
  for (let c = 0; c < components; c++) {
    const r = Math.floor(random() * n);
    for (let d = 0; d < dims; d++) {
      gmm.means[c * dims + d] = frames[r * dims + d]!;
      gmm.variances[c * dims + d] = variance[d]!;
    }
  }
  for (let it = 0; it < iterations; it++) {
    const { counts, sums, sumSquares } = accumulate(gmm, frames, true);
    for (let c = 0; c < components; c++) {
      if (counts[c]! < 1e-3) continue;
      gmm.weights[c] = counts[c]! / n;
      for (let d = 0; d < dims; d++) {
        const m = sums[c * dims + d]! / counts[c]!;
        gmm.means[c * dims + d] = m;
        gmm.variances[c * dims + d] = Math.max(sumSquares[c * dims + d]! / counts[c]! - m * m, 1e-3 * variance[d]!);
      }
    }
    const total = gmm.weights.reduce((a, b) => a + b, 0);
    for (let c = 0; c < components; c++) gmm.weights[c]! /= total;
  }
  return gmm;
}

/**
 * A song's supervector (components × dims numbers): each component's mean adapted to the song's
 * frames, m' = (n·x̄ + r·μ) / (n + r) for its soft count n and the frames' mean x̄ under it, less μ,
 * times √weight / σ. A component the song hardly touches stays near 0.
 */
export function supervector(gmm: DiagonalGmm, frames: Float32Array | Float64Array, relevance = 16): number[] {
  const { dims } = gmm;
  const { counts, sums } = accumulate(gmm, frames, false);
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
