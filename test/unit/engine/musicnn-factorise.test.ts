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

/** The batch norm and pooling MusiCNN puts after each front-end convolution: × scale, + offset, max over the bands. */
interface Norm {
  scale: Float32Array;
  offset: Float32Array;
}

/** The graph's output: the convolution's, or with `norm` the pooled values (Squeeze after MaxPool). */
const outputOf = (norm?: Norm): string => (norm ? 'model/Squeeze' : 'model/conv2d/Relu');

type GraphNode = { name: string; op: string; input?: string[]; attr?: Record<string, unknown> };

function graph(kernel: Float32Array, bias: Float32Array, norm?: Norm): { modelJson: ModelJson; weights: Uint8Array } {
  const node: GraphNode[] = [
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
  const arrays = [kernel, bias, ...(norm ? [norm.scale, norm.offset] : [])];
  if (norm) {
    const T = { T: { type: 'DT_FLOAT' } };
    node.push(
      { name: 'norm/scale', op: 'Const', attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims([OUT]) } }, dtype: { type: 'DT_FLOAT' } } },
      { name: 'norm/offset', op: 'Const', attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims([OUT]) } }, dtype: { type: 'DT_FLOAT' } } },
      { name: 'model/norm/Mul', op: 'Mul', input: ['norm/scale', 'model/conv2d/Relu'], attr: T },
      { name: 'model/norm/Add', op: 'Add', input: ['model/norm/Mul', 'norm/offset'], attr: T },
      {
        name: 'model/MaxPool',
        op: 'MaxPool',
        input: ['model/norm/Add'],
        attr: { ...T, ksize: { list: { i: ['1', '1', String(12 - KW + 1), '1'] } }, strides: { list: { i: ['1', '1', String(12 - KW + 1), '1'] } }, padding: { s: b64('VALID') }, data_format: { s: b64('NHWC') } },
      },
      { name: 'model/Squeeze', op: 'Squeeze', input: ['model/MaxPool'], attr: { ...T, squeeze_dims: { list: { i: ['2'] } } } },
    );
  }
  const weights = new Uint8Array(arrays.reduce((n, a) => n + a.byteLength, 0));
  let at = 0;
  for (const a of arrays) {
    weights.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += a.byteLength;
  }
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
            ...(norm
              ? [
                  { name: 'norm/scale', shape: [OUT], dtype: 'float32' },
                  { name: 'norm/offset', shape: [OUT], dtype: 'float32' },
                ]
              : []),
          ],
        },
      ],
    },
    weights,
  };
}

async function run(modelJson: ModelJson, weights: Uint8Array, input: tf.Tensor4D, output = outputOf()): Promise<Float32Array> {
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
    const out = model.execute({ 'model/Placeholder': input }, output) as tf.Tensor;
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

  it('run the batch norm after the pooling, the same numbers for scales of either sign, zero or all but zero', async () => {
    const norm: Norm = {
      scale: Float32Array.from([1.5, -0.7, 0, 1e-9, 2, -2, 0.3, -1e-12]),
      offset: Float32Array.from({ length: OUT }, (_, i) => 0.25 * i - 1),
    };
    const kernel = kernelOfRank(3, 4);
    const { modelJson, weights } = graph(kernel, bias, norm);
    const factorised = factoriseMusicnn(modelJson, weights, 6);
    const ops = factorised.modelJson.modelTopology.node!;
    // The pooling now reads the convolution, and the norm's own nodes follow it.
    expect(ops.find((n) => n.name === 'model/MaxPool')).toMatchObject({ input: ['model/conv2d/Relu'] });
    expect(ops.find((n) => n.name === 'model/Squeeze')).toMatchObject({ input: ['model/conv2d/Relu/norm_after_pool/offset'] });
    const [before, after] = [await run(modelJson, weights, input, outputOf(norm)), await run(factorised.modelJson, factorised.weights, input, outputOf(norm))];
    expect(before).toHaveLength(8 * OUT);
    expect(maxDiff(before, after)).toBeLessThan(1e-5);
  });

  it('zero weights too small to matter (below 1e-20), which WebAssembly would multiply slowly as subnormal products', async () => {
    const tiny = Float32Array.from(bias, (v, i) => (i === 0 ? 1e-25 : v));
    const { modelJson, weights } = graph(kernelOfRank(3, 5), tiny);
    const factorised = factoriseMusicnn(modelJson, weights, 6);
    const entries = factorised.modelJson.weightsManifest[0]!.weights;
    let offset = 0;
    for (const e of entries) {
      if (e.name === 'conv2d/bias') break;
      offset += e.shape.reduce((a, b) => a * b, 1) * 4;
    }
    const stored = new Float32Array(factorised.weights.buffer.slice(factorised.weights.byteOffset + offset, factorised.weights.byteOffset + offset + OUT * 4));
    expect(stored[0]).toBe(0);
    expect(stored[1]).toBeCloseTo(tiny[1]!, 6);
    expect(maxDiff(await run(modelJson, weights, input), await run(factorised.modelJson, factorised.weights, input))).toBeLessThan(1e-5);
  });

  it('leave the graph as it is at rank 0', () => {
    const { modelJson, weights } = graph(kernelOfRank(3, 3), bias);
    const same = factoriseMusicnn(modelJson, weights, 0);
    expect(same.modelJson).toBe(modelJson);
    expect(same.weights).toBe(weights);
  });
});
