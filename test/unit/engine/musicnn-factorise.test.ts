import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import type { ModelJson } from '../../../src/engine/models/model-files';
import { factorKernel, factoriseMusicnn, sharedWindows } from '../../../src/engine/models/musicnn.factorise';
import { SharedWindowRunner, startBackend } from '../../../src/engine/models/runtime';

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

/** MusiCNN's input norm (x · scale + offset, one channel) and its padding of PAD frames before and after, ahead of the window. */
interface InputNorm {
  scale: number;
  offset: number;
}
const PAD = 1;

/** The graph's output: the convolution's, or with `norm` the pooled values (Squeeze after MaxPool). */
const outputOf = (norm?: Norm): string => (norm ? 'model/Squeeze' : 'model/conv2d/Relu');

type GraphNode = { name: string; op: string; input?: string[]; attr?: Record<string, unknown> };

function graph(kernel: Float32Array, bias: Float32Array, norm?: Norm, inputNorm?: InputNorm): { modelJson: ModelJson; weights: Uint8Array } {
  const T = { T: { type: 'DT_FLOAT' } };
  const constant = (name: string, shape: number[], dtype = 'DT_FLOAT'): GraphNode => ({ name, op: 'Const', attr: { value: { tensor: { dtype, tensorShape: dims(shape) } }, dtype: { type: dtype } } });
  const node: GraphNode[] = [
    { name: 'model/Placeholder', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: dims([-1, 10, 12, 1]) } } },
    ...(inputNorm
      ? [
          constant('in/scale', [1]),
          constant('in/offset', [1]),
          constant('in/paddings', [4, 2], 'DT_INT32'),
          { name: 'model/in/Mul', op: 'Mul', input: ['model/Placeholder', 'in/scale'], attr: T },
          { name: 'model/in/Add', op: 'Add', input: ['model/in/Mul', 'in/offset'], attr: T },
          { name: 'model/Pad', op: 'Pad', input: ['model/in/Add', 'in/paddings'], attr: { ...T, Tpaddings: { type: 'DT_INT32' } } },
        ]
      : []),
    { name: 'conv2d/kernel', op: 'Const', attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims([KH, KW, 1, OUT]) } }, dtype: { type: 'DT_FLOAT' } } },
    { name: 'conv2d/bias', op: 'Const', attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims([OUT]) } }, dtype: { type: 'DT_FLOAT' } } },
    {
      name: 'model/conv2d/Relu',
      op: '_FusedConv2D',
      input: [inputNorm ? 'model/Pad' : 'model/Placeholder', 'conv2d/kernel', 'conv2d/bias'],
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
  const arrays: Array<Float32Array | Int32Array> = [kernel, bias, ...(norm ? [norm.scale, norm.offset] : [])];
  if (inputNorm) arrays.push(Float32Array.of(inputNorm.scale), Float32Array.of(inputNorm.offset), Int32Array.of(0, 0, PAD, PAD, 0, 0, 0, 0));
  if (norm) {
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
            ...(inputNorm
              ? [
                  { name: 'in/scale', shape: [1], dtype: 'float32' },
                  { name: 'in/offset', shape: [1], dtype: 'float32' },
                  { name: 'in/paddings', shape: [4, 2], dtype: 'int32' },
                ]
              : []),
          ],
        },
      ],
    },
    weights,
  };
}

async function run(modelJson: ModelJson, weights: Uint8Array, input: tf.Tensor4D, output = outputOf(), extra: Record<string, tf.Tensor> = {}): Promise<Float32Array> {
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
    const out = model.execute({ ...extra, 'model/Placeholder': input }, output) as tf.Tensor;
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

  it('drop dead filters (all zero) from the convolution and put their bias back in their places after the pooling, the same numbers', async () => {
    const norm: Norm = { scale: Float32Array.from([1.5, -0.7, 0.4, 1, 2, -2, 0.3, 0.8]), offset: Float32Array.from({ length: OUT }, (_, i) => 0.25 * i - 1) };
    const dead = [1, 4, 6];
    const kernel = kernelOfRank(3, 9);
    for (let i = 0; i < ROWS; i++) for (const c of dead) kernel[i * OUT + c] = 0;
    // Dead filters of either sign of bias: each pools to its bias, which the norm then scales.
    const deadBias = Float32Array.from({ length: OUT }, (_, i) => [0.3, -0.2, 0.5, 0.1, 0.7, -0.4, -0.6, 0.2][i]!);
    const { modelJson, weights } = graph(kernel, deadBias, norm);
    const factorised = factoriseMusicnn(modelJson, weights, 6);
    const h = factorised.modelJson.weightsManifest[0]!.weights.find((w) => w.name === 'conv2d/kernel/factor_h');
    expect(h?.shape).toEqual([1, 1, 3, OUT - dead.length]);
    expect(factorised.modelJson.modelTopology.node!.map((n) => n.name)).toContain('model/conv2d/Relu/norm_after_pool/widen');
    const [before, after] = [await run(modelJson, weights, input, outputOf(norm)), await run(factorised.modelJson, factorised.weights, input, outputOf(norm))];
    // Every frame's dead filters read their bias through the norm: 0.7 · 2 + 0 for filter 4.
    expect(before[4]).toBeCloseTo(2 * 0.7 + norm.offset[4]!, 5);
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

  it('read a window as wide as its input (MusiCNN\'s 7 × 561 and 7 × 64 layers) with the width as channels, the same numbers', async () => {
    const g = graph(kernelOfRank(OUT, 6), bias);
    // The same graph with the kernel named as MusiCNN's first 7-frame layer and an input KW wide.
    const modelJson = JSON.parse(JSON.stringify(g.modelJson).replaceAll('conv2d/kernel', 'conv2d_5/kernel')) as ModelJson;
    modelJson.modelTopology.node![0]!.attr = { dtype: { type: 'DT_FLOAT' }, shape: { shape: dims([-1, 10, KW, 1]) } };
    const narrow = tf.tensor4d(Float32Array.from({ length: 10 * KW }, noise(13)), [1, 10, KW, 1]);
    try {
      const rewritten = factoriseMusicnn(modelJson, g.weights, 6);
      expect(rewritten.ranks).toEqual({});
      expect(rewritten.modelJson.weightsManifest[0]!.weights.find((w) => w.name.startsWith('conv2d_5/kernel'))?.shape).toEqual([KH, 1, KW, OUT]);
      expect(rewritten.modelJson.modelTopology.node!.map((n) => n.op)).toContain('ExpandDims');
      const [before, after] = [await run(modelJson, g.weights, narrow), await run(rewritten.modelJson, rewritten.weights, narrow)];
      expect(before).toHaveLength((10 - KH + 1) * OUT);
      expect(before.some((v) => v > 0)).toBe(true);
      expect(maxDiff(before, after)).toBeLessThan(1e-5);
    } finally {
      narrow.dispose();
    }
  });

  it('drop the dead filters of a window as wide as its input, every reader seeing their relu(bias) in their places', async () => {
    const kernel = kernelOfRank(OUT, 11);
    const dead = [0, 3, 5];
    for (let i = 0; i < ROWS; i++) for (const c of dead) kernel[i * OUT + c] = 0;
    const deadBias = Float32Array.from([0.4, 0.1, -0.2, -0.3, 0.2, 0.6, 0.1, -0.1]);
    const g = graph(kernel, deadBias);
    const modelJson = JSON.parse(JSON.stringify(g.modelJson).replaceAll('conv2d/kernel', 'conv2d_5/kernel')) as ModelJson;
    modelJson.modelTopology.node![0]!.attr = { dtype: { type: 'DT_FLOAT' }, shape: { shape: dims([-1, 10, KW, 1]) } };
    const narrow = tf.tensor4d(Float32Array.from({ length: 10 * KW }, noise(17)), [1, 10, KW, 1]);
    try {
      const rewritten = factoriseMusicnn(modelJson, g.weights, 6);
      expect(rewritten.modelJson.weightsManifest[0]!.weights.find((w) => w.name.startsWith('conv2d_5/kernel'))?.shape).toEqual([KH, 1, KW, OUT - dead.length]);
      expect(rewritten.modelJson.modelTopology.node!.map((n) => n.name)).toContain('model/conv2d/Relu/live');
      const [before, after] = [await run(modelJson, g.weights, narrow), await run(rewritten.modelJson, rewritten.weights, narrow)];
      // Dead filter 0 reads relu(0.4), dead filter 3 relu(−0.3) = 0, on every frame.
      expect(before[0]).toBeCloseTo(0.4, 6);
      expect(before[OUT + 3]).toBe(0);
      expect(maxDiff(before, after)).toBeLessThan(1e-5);
    } finally {
      narrow.dispose();
    }
  });

  it('leave the graph as it is at rank 0', () => {
    const { modelJson, weights } = graph(kernelOfRank(3, 3), bias);
    const same = factoriseMusicnn(modelJson, weights, 0);
    expect(same.modelJson).toBe(modelJson);
    expect(same.weights).toBe(weights);
  });
});

describe('windows shared by several models', () => {
  let input: tf.Tensor4D;
  const bias = Float32Array.from({ length: OUT }, (_, i) => (i % 3) * 0.1 - 0.1);
  /** ROWS × OUT filters in the span of `basis` (ROWS × 3): basis · random 3 × OUT. */
  const inSpan = (basis: number[], seed: number): Float32Array => {
    const next = noise(seed);
    const c = Array.from({ length: 3 * OUT }, next);
    return Float32Array.from({ length: ROWS * OUT }, (_, k) => {
      const [i, j] = [Math.floor(k / OUT), k % OUT];
      return basis[i * 3]! * c[j]! + basis[i * 3 + 1]! * c[OUT + j]! + basis[i * 3 + 2]! * c[2 * OUT + j]!;
    });
  };
  beforeAll(async () => {
    await startBackend();
    const next = noise(9);
    input = tf.tensor4d(Float32Array.from({ length: 10 * 12 }, next), [1, 10, 12, 1]);
  });
  afterAll(() => input.dispose());

  it('give each model its own outputs when its filters lie in the shared basis, the padded frames included', async () => {
    // Two models whose filters span one 3-dimensional subspace of the window's 15 cells, each
    // with its own input norm: the offset reaches every frame but the padding's.
    const span = Array.from({ length: ROWS * 3 }, noise(21));
    const models = [
      { ...graph(inSpan(span, 22), bias, undefined, { scale: 1.7, offset: 0.4 }) },
      { ...graph(inSpan(span, 23), bias, undefined, { scale: 0.6, offset: -0.9 }) },
    ];
    const windows = sharedWindows(models, 4, 10, 12);
    expect(windows['conv2d/kernel']).toMatchObject({ input: 'shared/conv2d', shape: [KH, KW, 1, 4], before: PAD, after: PAD });
    const runner = new SharedWindowRunner(windows);
    const shared = runner.run(tf.reshape(input, [1, 10, 12]));
    try {
      expect(shared['shared/conv2d']!.shape).toEqual([1, 10, 12 - KW + 1, 4]);
      for (const { modelJson, weights } of models) {
        const factorised = factoriseMusicnn(modelJson, weights, 6, windows);
        expect(factorised.inputs).toEqual(['shared/conv2d']);
        expect(factorised.ranks).toEqual({ 'conv2d/kernel': 3 });
        const before = await run(modelJson, weights, input);
        const after = await run(factorised.modelJson, factorised.weights, input, outputOf(), shared);
        expect(before.some((v) => v > 0)).toBe(true);
        expect(maxDiff(before, after)).toBeLessThan(1e-4);
      }
    } finally {
      for (const t of Object.values(shared)) t.dispose();
      runner.dispose();
    }
  });

  it('share nothing where a graph is not of that shape (no input norm), nor with one model alone', () => {
    const span = Array.from({ length: ROWS * 3 }, noise(31));
    const normed = graph(inSpan(span, 32), bias, undefined, { scale: 1, offset: 0.5 });
    expect(sharedWindows([normed, graph(inSpan(span, 33), bias)], 4, 10, 12)).toEqual({});
    expect(sharedWindows([normed], 4, 10, 12)).toEqual({});
    // Without shared windows the graph reads its own input, as before.
    expect(factoriseMusicnn(normed.modelJson, normed.weights, 6).inputs).toEqual([]);
  });
});
