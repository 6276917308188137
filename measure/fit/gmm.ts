import { rng } from '../audio/audio-signals';
import { type DiagonalGmm, frameStatistics } from '../../src/engine/sound.frames';

/**
 * The mixture of Gaussians behind the signal path's supervector (src/engine/sound.frames.ts),
 * fitted by expectation-maximisation on the frames of the fit songs (bench/similarity.ts).
 */

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
  const gmm = { dims, weights: new Float64Array(components).fill(1 / components), means: new Float64Array(components * dims), variances: new Float64Array(components * dims) };
  for (let c = 0; c < components; c++) {
    const r = Math.floor(random() * n);
    for (let d = 0; d < dims; d++) {
      gmm.means[c * dims + d] = frames[r * dims + d]!;
      gmm.variances[c * dims + d] = variance[d]!;
    }
  }
  for (let it = 0; it < iterations; it++) {
    const { counts, sums, sumSquares } = frameStatistics(gmm, frames, true);
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

