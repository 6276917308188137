import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import type { ModelJson } from '../../../src/engine/models/model-files';
import { factorKernel, factoriseMusicnn } from '../../../src/engine/models/musicnn.factorise';
import { startBackend } from '../../../src/engine/models/runtime';

// A one-convolution graph shaped as MusiCNN's (a _FusedConv2D with bias and ReLU over a
// one-channel input), so the rewrite is tested on TensorFlow.js's own executor without the models.

const KH = 3;
const KW = 5;
const OUT = 8;
const ROWS = KH * KW;

/** Deterministic pseudo-random numbers in [-1, 1). */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

/** A ROWS × OUT kernel of rank `rank` (the product of two random factors), row-major. */
function kernelOfRank(rank: number, seed: number): Float32Array {
  const next = noise(seed);
  const a = Array.from({ length: ROWS * rank }, next);
  const b = Array.from({ length: rank * OUT }, next);
  const k = new Float32Array(ROWS * OUT);
  for (let i = 0; i < ROWS; i++) for (let j = 0; j < OUT; j++) for (let r = 0; r < rank; r++) k[i * OUT + j] = k[i * OUT + j]! + a[i * rank + r]! * b[r * OUT + j]!;
  return k;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const dims = (shape: number[]): object => ({ dim: shape.map((size) => ({ size: String(size) })) });

function graph(kernel: Float32Array, bias: Float32Array): { modelJson: ModelJson; weights: Uint8Array } {
  const node = [
    { name: 'model/Placeholder', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: dims([-1, 10, 12, 1]) } } },
    { name: 'conv2d/kernel', op: 'Const', attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims([KH, KW, 1, OUT]) } }, dtype: { type: 'DT_FLOAT' } } },
    { name: 'conv2d/bias', op: 'Const', attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims([OUT]) } }, dtype: { type: 'DT_FLOAT' } } },
    {
      name: 'model/conv2d/Relu',
      op: '_FusedConv2D',
      input: ['model/Placeholder', 'conv2d/kernel', 'conv2d/bias'],
      attr: {
        T: { type: 'DT_FLOAT' },
        fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu')] } },
        num_args: { i: '1' },
        padding: { s: b64('VALID') },
        strides: { list: { i: ['1', '1', '1', '1'] } },
        dilations: { list: { i: ['1', '1', '1', '1'] } },
        data_format: { s: b64('NHWC') },
        epsilon: { f: 0 },
      },
    },
  ];
  const weights = new Uint8Array(kernel.byteLength + bias.byteLength);
  weights.set(new Uint8Array(kernel.buffer, kernel.byteOffset, kernel.byteLength), 0);
  weights.set(new Uint8Array(bias.buffer, bias.byteOffset, bias.byteLength), kernel.byteLength);
  return {
    modelJson: {
      format: 'graph-model',
      modelTopology: { node, versions: { producer: 175 } },
      weightsManifest: [
        {
          paths: ['group1-shard1of1.bin'],
          weights: [
            { name: 'conv2d/kernel', shape: [KH, KW, 1, OUT], dtype: 'float32' },
            { name: 'conv2d/bias', shape: [OUT], dtype: 'float32' },
          ],
        },
      ],
    },
    weights,
  };
}

async function run(modelJson: ModelJson, weights: Uint8Array, input: tf.Tensor4D): Promise<Float32Array> {
  const model = await loadGraphModel({
    load: () =>
      Promise.resolve({
        format: 'graph-model',
        modelTopology: modelJson.modelTopology,
        weightSpecs: modelJson.weightsManifest.flatMap((m) => m.weights) as tf.io.WeightsManifestEntry[],
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer,
      }),
  });
  try {
    const out = model.execute({ 'model/Placeholder': input }, 'model/conv2d/Relu') as tf.Tensor;
    const data = out.dataSync() as Float32Array;
    out.dispose();
    return data;
  } finally {
    model.dispose();
  }
}

/** M's best rank-r approximation by ml-matrix's SVD (an independent route to what factorKernel keeps). */
function bestApproximation(kernel: Float32Array, rank: number): Float32Array {
  const m = new Matrix(ROWS, OUT);
  for (let i = 0; i < ROWS; i++) for (let j = 0; j < OUT; j++) m.set(i, j, kernel[i * OUT + j]!);
  const svd = new SingularValueDecomposition(m);
  const out = new Float32Array(ROWS * OUT);
  for (let i = 0; i < ROWS; i++) {
    for (let j = 0; j < OUT; j++) {
      let v = 0;
      for (let r = 0; r < rank; r++) v += svd.leftSingularVectors.get(i, r) * svd.diagonal[r]! * svd.rightSingularVectors.get(j, r);
      out[i * OUT + j] = v;
    }
  }
  return out;
}

const maxDiff = (a: Float32Array, b: Float32Array): number => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describe('factorised convolutions', () => {
  let input: tf.Tensor4D;
  const bias = Float32Array.from({ length: OUT }, (_, i) => (i % 3) * 0.1 - 0.1);
  beforeAll(async () => {
    await startBackend();
    const next = noise(7);
    input = tf.tensor4d(Float32Array.from({ length: 10 * 12 }, next), [1, 10, 12, 1]);
  });
  afterAll(() => input.dispose());

  it('keep a kernel of low rank whole: its own rank, and the same outputs', async () => {
    const kernel = kernelOfRank(3, 1);
    const f = factorKernel(kernel, [KH, KW, 1, OUT], 6);
    expect(f.rank).toBe(3);
    const { modelJson, weights } = graph(kernel, bias);
    const factorised = factoriseMusicnn(modelJson, weights, 6);
    expect(factorised.ranks).toEqual({ 'conv2d/kernel': 3 });
    const nodes = factorised.modelJson.modelTopology.node!.map((n) => n.op);
    expect(nodes).toContain('Conv2D');
    expect(factorised.modelJson.weightsManifest[0]!.weights.map((w) => w.name)).not.toContain('conv2d/kernel');
    const [before, after] = [await run(modelJson, weights, input), await run(factorised.modelJson, factorised.weights, input)];
    expect(before.some((v) => v > 0)).toBe(true);
    expect(maxDiff(before, after)).toBeLessThan(1e-5);
  });

  it('truncate a kernel of full rank to its best approximation of the rank asked', async () => {
    const kernel = kernelOfRank(OUT, 2);
    const { modelJson, weights } = graph(kernel, bias);
    const factorised = factoriseMusicnn(modelJson, weights, 2);
    expect(factorised.ranks).toEqual({ 'conv2d/kernel': 2 });
    const after = await run(factorised.modelJson, factorised.weights, input);
    // The same graph with the best rank-2 kernel in place of the kernel, unfactorised.
    const expected = await run(modelJson, graph(bestApproximation(kernel, 2), bias).weights, input);
    const full = await run(modelJson, weights, input);
    expect(maxDiff(after, expected)).toBeLessThan(1e-4);
    expect(maxDiff(after, full)).toBeGreaterThan(1e-2);
  });

  it('leave the graph as it is at rank 0', () => {
    const { modelJson, weights } = graph(kernelOfRank(3, 3), bias);
    const same = factoriseMusicnn(modelJson, weights, 0);
    expect(same.modelJson).toBe(modelJson);
    expect(same.weights).toBe(weights);
  });
});
