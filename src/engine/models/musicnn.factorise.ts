import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { BYTES, CLASSIFIERS, type ModelFiles, type ModelJson, type WeightEntry } from './model-files';
import { MUSICNN_BANDS, MUSICNN_PATCH } from './musicnn.input';

/**
 * MusiCNN's two timbral convolutions (7 × 38 and 7 × 67 over the mel patch, 204 filters each) are
 * ~80 % of a model's arithmetic. Their filters, flattened, are a 266 × 204 and a 469 × 204 matrix
 * whose singular values fall fast: the tagger's are exactly of rank 22 and 14 (most of its
 * filters are zero), and the fine-tuned classifiers' keep ~99.5 % of their energy in 40
 * directions. Each such convolution is run as two: the same window with `rank` filters (the
 * leading singular directions, scaled), then a 1 × 1 convolution to the 204 outputs with the
 * original bias and ReLU: per patch 11,033 × (266 + 204) × rank multiply-adds instead of
 * 11,033 × 266 × 204. The temporal filters (128 × 1 and 64 × 1 over each band) likewise, at a
 * quarter of the rank.
 * Where a kernel's own rank is below `rank` (the tagger's), the result is the same as the
 * original's; otherwise it is the kernel's best approximation of that rank (Eckart–Young), and
 * what that moves in the outputs is measured by bench/models.ts. The five classifiers' windows
 * can go further: their filters lie close to one subspace, so one basis of those windows runs
 * once per patch for all five, and each classifier factorises its filters within it
 * (sharedWindows). The graph is rewritten in memory from the user's own files, once per process
 * (model-prepared.ts); nothing derived from the models is stored.
 */

/**
 * The convolutions rewritten, by their kernel's weight name, and each one's share of the rank:
 * the timbral windows take it whole, the 128 × 1 and 64 × 1 temporal filters over each band (51
 * filters; their singular values fall faster still) a quarter of it (at rank 40, 10: on the
 * corpora every output as at 20, where 5 moved them by up to 0.35). Share 0: the kernel is kept
 * whole, only read faster (relay): the 32 × 1 temporal filters (factorised to 10, they moved
 * outputs by up to 0.5), and the three 7-frame layers over the 561 features and the 64 filters
 * (the first, factorised to 32, moved them by up to 0.15).
 */
export const FACTORISED_KERNELS: Readonly<Record<string, number>> = {
  'conv2d/kernel': 1,
  'conv2d_1/kernel': 1,
  'conv2d_2/kernel': 0.25,
  'conv2d_3/kernel': 0.25,
  'conv2d_4/kernel': 0,
  'conv2d_5/kernel': 0,
  'conv2d_6/kernel': 0,
  'conv2d_7/kernel': 0,
};

/**
 * Windows as wide as their input (MusiCNN's 7 × 561 over the front end's 561 features, 7 × 64
 * over the 64 filters of the layer before): read with that width as channels (relay).
 */
const WHOLE_WIDTH = new Set(['conv2d_5/kernel', 'conv2d_6/kernel', 'conv2d_7/kernel']);

/** Singular values below this share of the largest are zero (the tagger's dead filters). */
const NEGLIGIBLE = 1e-6;

type Node = NonNullable<ModelJson['modelTopology']['node']>[number] & { input?: string[]; device?: string };

export interface Factorised {
  modelJson: ModelJson;
  weights: Uint8Array;
  /** Per factorised kernel, the rank kept. */
  ranks: Record<string, number>;
  /** The shared windows' outputs the graph reads as inputs (SharedWindow.input). */
  inputs: string[];
}

function constNode(name: string, shape: number[], dtype: 'DT_FLOAT' | 'DT_INT32' = 'DT_FLOAT'): Node {
  return {
    name,
    op: 'Const',
    attr: { value: { tensor: { dtype, tensorShape: { dim: shape.map((size) => ({ size: String(size) })) } } }, dtype: { type: dtype } },
  };
}

/** A node's padding attribute ('VALID', 'SAME'), as the converter stores it (base64). */
function paddingOf(attr: Record<string, unknown>): string {
  const s = (attr.padding as { s?: string } | undefined)?.s;
  return s ? Buffer.from(s, 'base64').toString('latin1') : '';
}

/** A fused op's fused operations, joined ('BiasAdd,Relu'), as the converter stores them (base64). */
function fusedOpsOf(attr: Record<string, unknown>): string {
  return ((attr.fused_ops as { list?: { s?: string[] } } | undefined)?.list?.s ?? []).map((x) => Buffer.from(x, 'base64').toString('latin1')).join();
}

/**
 * Zero for a weight too small to matter (below 1e-20; a product with any input the models see is
 * below 1e-16), so that no product becomes a subnormal number, which WebAssembly multiplies
 * slowly. The published models hold many: 165,000 of the tagger's 251,000 weights of its first
 * 7-frame layer are below 1e-30 (its dead filters' inputs); zeroed, the tagger costs 30 ms a
 * patch instead of 34 (the classifiers, with fewer, the same).
 */
const flush = (v: number): number => (Math.abs(v) < 1e-20 ? 0 : v);

/** The numbers with flush applied, or the same bytes when nothing changes. */
function flushed(data: Uint8Array): Uint8Array {
  const values = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  let changed = false;
  for (let i = 0; i < values.length; i++) {
    const v = flush(values[i]!);
    if (v !== values[i]) {
      values[i] = v;
      changed = true;
    }
  }
  return changed ? new Uint8Array(values.buffer) : data;
}

const b64 = (s: string): string => Buffer.from(s, 'latin1').toString('base64');

/** Frames a temporal window reads per step once they are channels (see factoriseMusicnn). */
const TEMPORAL_STEP = 8;

/**
 * The Gram matrix of a's rows (rows × cols, row-major): Σ_k a[i, k]·a[j, k], summed over k in
 * order as ml-matrix's mmul sums (so the same numbers), on flat arrays and once per pair: ml-matrix
 * reads each value through a method call, which cost ~1 s of CPU per start for the shared windows.
 */
function rowGram(a: ArrayLike<number>, rows: number, cols: number): Float64Array {
  const g = new Float64Array(rows * rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = 0; k < cols; k++) s += a[i * cols + k]! * a[j * cols + k]!;
      g[i * rows + j] = s;
      g[j * rows + i] = s;
    }
  }
  return g;
}

/** The Gram matrix of a's columns (rows × cols, row-major): Σ_k a[k, i]·a[k, j], as rowGram sums. */
function columnGram(a: ArrayLike<number>, rows: number, cols: number): Float64Array {
  const g = new Float64Array(cols * cols);
  for (let k = 0; k < rows; k++) {
    for (let i = 0; i < cols; i++) {
      const v = a[k * cols + i]!;
      for (let j = 0; j <= i; j++) g[i * cols + j] = g[i * cols + j]! + v * a[k * cols + j]!;
    }
  }
  for (let i = 0; i < cols; i++) for (let j = 0; j < i; j++) g[j * cols + i] = g[i * cols + j]!;
  return g;
}

/**
 * A window's filters (rows × out) each scaled by the batch norm after it (none: 1), and their
 * squared Frobenius norm computed as ml-matrix's w.norm() ** 2 (the square of the square root).
 */
function scaledFilters(kernel: Float32Array, out: number, scale: Float32Array | undefined): { w: Float64Array; norm: number } {
  const w = new Float64Array(kernel.length);
  for (let i = 0; i < kernel.length; i++) w[i] = kernel[i]! * (scale ? scale[i % out]! : 1);
  let squares = 0;
  for (let i = 0; i < w.length; i++) squares += w[i]! * w[i]!;
  return { w, norm: Math.sqrt(squares) ** 2 };
}

/** sum + g / norm elementwise (g divided in place), as ml-matrix's sum.add(g.div(norm)); g / norm when sum is undefined. */
function addScaled(sum: Float64Array | undefined, g: Float64Array, norm: number): Float64Array {
  for (let i = 0; i < g.length; i++) g[i] = g[i]! / norm;
  if (!sum) return g;
  for (let i = 0; i < g.length; i++) sum[i] = sum[i]! + g[i]!;
  return sum;
}

/** a (rows × inner, row-major) times b (inner × cols), each sum in order as ml-matrix's mmul, rounded to float32. */
function product(a: ArrayLike<number>, b: Float64Array, rows: number, inner: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let s = 0;
      for (let k = 0; k < inner; k++) s += a[i * inner + k]! * b[k * cols + j]!;
      out[i * cols + j] = s;
    }
  }
  return out;
}

/**
 * A symmetric n × n matrix's eigenvalues, largest first, and its eigenvectors in that order:
 * leading(count), an n × count matrix, row-major, column k for value k.
 */
function eigenDescending(symmetric: Float64Array, n: number): { values: number[]; leading: (count: number) => Float64Array } {
  const evd = new EigenvalueDecomposition(Matrix.from1DArray(n, n, symmetric), { assumeSymmetric: true });
  const order = evd.realEigenvalues.map((value, index) => ({ value, index })).sort((x, y) => y.value - x.value);
  const leading = (count: number): Float64Array => {
    const columns = Math.min(count, n);
    const vectors = new Float64Array(n * columns);
    const eigenvectors = evd.eigenvectorMatrix;
    for (let k = 0; k < columns; k++) {
      const column = order[k]!.index;
      for (let i = 0; i < n; i++) vectors[i * columns + k] = eigenvectors.get(i, column);
    }
    return vectors;
  };
  return { values: order.map((o) => o.value), leading };
}

/**
 * The kernel [kh, kw, 1, out] as rank-r factors: g [kh, kw, 1, r] (the window's r directions,
 * scaled by their singular values) and h [1, 1, r, out], r = min(rank, the kernel's own rank).
 */
export function factorKernel(kernel: Float32Array, shape: readonly number[], rank: number): { g: Float32Array; h: Float32Array; rank: number } {
  const [kh, kw, channels, out] = shape as [number, number, number, number];
  const rows = kh * kw * channels;
  // The right singular vectors and values from the Gram matrix (out × out, small), then the
  // left ones scaled: g = M·V_r, h = V_rᵀ, so that g·h = M·V_r·V_rᵀ, M's best rank-r approximation.
  const { values, leading } = eigenDescending(columnGram(kernel, rows, out), out);
  const largest = Math.max(values[0] ?? 0, 0);
  let r = 0;
  while (r < Math.min(rank, values.length) && values[r]! > NEGLIGIBLE ** 2 * largest) r++;
  r = Math.max(1, r);
  const vr = leading(r);
  const g = product(kernel, vr, rows, out, r);
  const h = new Float32Array(r * out);
  for (let k = 0; k < r; k++) for (let i = 0; i < out; i++) h[k * out + i] = vr[i * r + k]!;
  return { g, h, rank: r };
}

/** A convolution over a one-channel input, rewritten to read several frames a step (see framesAsChannels). */
interface Relaid {
  input: string;
  kernel: Float32Array;
  shape: number[];
  attr: Record<string, unknown>;
}

/** The windows the five classifiers share (sharedWindows): MusiCNN's two timbral windows. */
export const SHARED_KERNELS = ['conv2d/kernel', 'conv2d_1/kernel'] as const;

/** Filters of a shared basis per unit of rank: 51 at rank 32, 64 at 40. */
export const SHARED_WIDTH_PER_RANK = 1.6;

/**
 * One window's shared basis: `width` orthonormal filters of the window's size that span what
 * every model sharing it does with that window (sharedWindows). Its output over the padded
 * patch is an input of each sharing model's graph, computed once per patch.
 */
export interface SharedWindow {
  /** The graph input that carries the basis' output, [patches, frames, bands − kw + 1, width]. */
  input: string;
  /** The filters as a kernel [kh, kw, 1, width], row-major. */
  basis: Float32Array;
  shape: [number, number, number, number];
  /** Frames of zeros before and after the patch, as the models pad it. */
  before: number;
  after: number;
  /** The patch's frames and bands. */
  frames: number;
  bands: number;
  /**
   * Per output frame, each filter summed over the window's cells that fall on the patch, not the
   * padding ([output frames, width]): the window over a constant 1, which the input norm's offset adds.
   */
  maskSum: Float32Array;
}

export type SharedWindows = Partial<Record<string, SharedWindow>>;

const sameShape = (a: readonly number[], b: readonly number[]): boolean => b.every((v, i) => a[i] === v);

/** SharedWindow.maskSum of a basis [kh, kw, 1, width] over `frames` frames padded as `input` says. */
function windowMaskSum(basis: Float32Array, kh: number, kw: number, width: number, frames: number, input: WindowInput): Float32Array {
  const outFrames = frames + input.before + input.after - kh + 1;
  const maskSum = new Float32Array(outFrames * width);
  for (let t = 0; t < outFrames; t++) for (let dt = 0; dt < kh; dt++) {
    const frame = t + dt - input.before;
    if (frame < 0 || frame >= frames) continue;
    for (let f = 0; f < kw; f++) for (let k = 0; k < width; k++) maskSum[t * width + k] = maskSum[t * width + k]! + basis[(dt * kw + f) * width + k]!;
  }
  return maskSum;
}

/**
 * A basis of `width` filters for each of SHARED_KERNELS' windows, shared by these models (the
 * five classifiers: fine-tuned from one network, their timbral filters lie close to one
 * subspace). Each model's filters, scaled by the batch norm that follows them (what each
 * contributes to the output) and normalised to equal weight, add their Gram matrix; the basis
 * is its leading eigenvectors. Each model then factorises its own filters projected on the basis
 * (factoriseMusicnn), so that the window itself runs once per patch for all of them, and each
 * model only maps its outputs to its own filters. None for a window whose graphs are not all of
 * MusiCNN's shape, or narrower than `width`.
 */
export function sharedWindows(models: ReadonlyArray<{ modelJson: ModelJson; weights: Uint8Array }>, width: number, frames: number, bands: number): SharedWindows {
  const result: SharedWindows = {};
  if (width <= 0 || models.length < 2) return result;
  const views = models.map((m) => new GraphView(m.modelJson, m.weights));
  for (const kernelName of SHARED_KERNELS) {
    let shape: number[] | undefined;
    let input: WindowInput | undefined;
    let gram: Float64Array | undefined;
    for (const view of views) {
      const at = view.offsets.get(kernelName);
      const conv = view.convOf(kernelName);
      const kernel = view.floats(kernelName);
      const read = conv ? view.windowInput(conv) : undefined;
      const s = at?.entry.shape;
      if (!s || s.length !== 4 || s[2] !== 1 || !conv || !kernel || !read || (shape && !sameShape(shape, s)) || (input && (input.before !== read.before || input.after !== read.after))) {
        gram = undefined;
        break;
      }
      shape = s;
      input = read;
      const out = s[3]!;
      const rows = s[0]! * s[1]!;
      const scale = view.normScale(conv, out);
      const { w, norm } = scaledFilters(kernel, out, scale);
      if (!(norm > 0)) continue;
      gram = addScaled(gram, rowGram(w, rows, out), norm);
    }
    const [kh, kw] = (shape ?? []) as [number, number];
    if (!gram || !shape || !input || kh * kw <= width) continue;
    const rows = kh * kw;
    const basis = Float32Array.from(eigenDescending(gram, rows).leading(width));
    const maskSum = windowMaskSum(basis, kh, kw, width, frames, input);
    result[kernelName] = { input: `shared/${kernelName.replace(/\/kernel$/, '')}`, basis, shape: [kh, kw, 1, width], before: input.before, after: input.after, frames, bands, maskSum };
  }
  return result;
}

/**
 * The five classifiers' shared windows at `rank` (SHARED_WIDTH_PER_RANK × rank filters each), from
 * MODELS_DIR's files (model-files.ts, readModelFiles); none at rank 0. Computed once per start
 * (~1 s of CPU, the eigendecomposition of a 469 × 469 matrix most of it; model-prepared.ts) and
 * handed to every engine thread.
 */
export function classifierWindows(files: readonly ModelFiles[], rank: number): SharedWindows {
  if (rank <= 0) return {};
  const byFolder = new Map(files.map((f) => [f.folder.folder, f]));
  const classifiers = CLASSIFIERS.map((c) => byFolder.get(c.folder)).filter((f) => f !== undefined);
  return sharedWindows(classifiers, Math.round(rank * SHARED_WIDTH_PER_RANK), MUSICNN_PATCH, MUSICNN_BANDS);
}

/** A model's graph and weights, read: what the rewrites below look at. */
class GraphView {
  readonly entries: WeightEntry[];
  readonly offsets = new Map<string, { entry: WeightEntry; offset: number; bytes: number }>();
  readonly nodes: Node[];
  readonly byName: Map<string, Node>;

  constructor(
    readonly modelJson: ModelJson,
    readonly weights: Uint8Array,
  ) {
    this.entries = modelJson.weightsManifest.flatMap((m) => m.weights);
    let offset = 0;
    for (const entry of this.entries) {
      const bytes = entry.shape.reduce((a, b) => a * b, 1) * (BYTES[entry.dtype] ?? 0);
      this.offsets.set(entry.name, { entry, offset, bytes });
      offset += bytes;
    }
    this.nodes = modelJson.modelTopology.node ?? [];
    this.byName = new Map(this.nodes.map((n) => [n.name, n]));
  }

  /** A weight's numbers, copied (the rewrite may change them), if it is of that type. */
  private values<T extends Float32Array | Int32Array>(name: string, dtype: string, make: (b: ArrayBuffer) => T): T | undefined {
    const at = this.offsets.get(name);
    if (!at || at.entry.dtype !== dtype) return undefined;
    return make(this.weights.buffer.slice(this.weights.byteOffset + at.offset, this.weights.byteOffset + at.offset + at.bytes) as ArrayBuffer);
  }

  floats(name: string): Float32Array | undefined {
    return this.values(name, 'float32', (b) => new Float32Array(b));
  }

  ints(name: string): Int32Array | undefined {
    return this.values(name, 'int32', (b) => new Int32Array(b));
  }

  readers(name: string): Node[] {
    return this.nodes.filter((n) => n.input?.includes(name));
  }

  /** The fused convolution whose kernel is this weight. */
  convOf(kernelName: string): Node | undefined {
    return this.nodes.find((n) => n.op === '_FusedConv2D' && n.input?.[1] === kernelName);
  }

  /** A one-number constant's value. */
  private scalar(name: string | undefined): number | undefined {
    const v = name !== undefined && this.byName.get(name)?.op === 'Const' ? this.floats(name) : undefined;
    return v?.length === 1 ? v[0] : undefined;
  }

  /**
   * What a front-end window reads: MusiCNN's input batch norm (one channel: x · scale + offset)
   * padded in time only (`before` and `after` frames of zeros), or undefined when the graph is
   * not of that shape.
   */
  windowInput(conv: Node): WindowInput | undefined {
    const pad = this.byName.get(conv.input?.[0] ?? '');
    if (pad?.op !== 'Pad') return undefined;
    const p = this.ints(pad.input?.[1] ?? '');
    if (!p || p.length !== 8 || p[0] !== 0 || p[1] !== 0 || p[4] !== 0 || p[5] !== 0 || p[6] !== 0 || p[7] !== 0) return undefined;
    const add = this.byName.get(pad.input?.[0] ?? '');
    if (add?.op !== 'Add') return undefined;
    const mul = this.byName.get(add.input?.[0] ?? '');
    if (mul?.op !== 'Mul') return undefined;
    const offset = this.scalar(add.input?.[1]);
    const scaleName = mul.input?.find((i) => this.byName.get(i)?.op === 'Const');
    const scale = this.scalar(scaleName);
    if (offset === undefined || scale === undefined) return undefined;
    return { scale, offset, before: p[2]!, after: p[3]! };
  }

  /** The batch norm's scale after a front-end window, one per filter (conv → Mul by a constant). */
  normScale(conv: Node, out: number): Float32Array | undefined {
    const readers = this.readers(conv.name);
    const mul = readers.length === 1 && readers[0]!.op === 'Mul' ? readers[0] : undefined;
    const name = mul?.input?.find((i) => i !== conv.name);
    const scale = name !== undefined && this.byName.get(name)?.op === 'Const' ? this.floats(name) : undefined;
    return scale?.length === out ? scale : undefined;
  }
}

/** MusiCNN's input norm and time padding before its timbral windows (GraphView.windowInput). */
interface WindowInput {
  scale: number;
  offset: number;
  before: number;
  after: number;
}

/**
 * One model's window in the shared basis' coordinates (see factoriseMusicnn): P (width × r, scaled
 * by the input norm's scale), H (r × out) and the norm offset's term per output frame (frames ×
 * r). Its own function, not a loop in factoriseMusicnn's body: V8 optimises a small function as
 * soon as its loops run hot, where the same loops in that long body ran unoptimised (seconds of
 * CPU per start, measured).
 */
function sharedFactors(window: SharedWindow, kernel: Float32Array, cells: number, out: number, rank: number, input: WindowInput): { p: Float32Array; h: Float32Array; edge: Float32Array; rank: number } {
  const width = window.shape[3];
  const basis = window.basis;
  const c = new Float32Array(width * out);
  for (let i = 0; i < cells; i++) for (let k = 0; k < width; k++) {
    const b = basis[i * width + k]!;
    if (b !== 0) for (let j = 0; j < out; j++) c[k * out + j] = c[k * out + j]! + b * kernel[i * out + j]!;
  }
  // factorKernel of Cᵀ (out × width) gives g = Cᵀ·U_r (out × r) and h = U_rᵀ (r × width).
  const ct = new Float32Array(out * width);
  for (let k = 0; k < width; k++) for (let j = 0; j < out; j++) ct[j * width + k] = c[k * out + j]!;
  const fc = factorKernel(ct, [out, 1, 1, width], rank);
  const r = fc.rank;
  const p = new Float32Array(width * r);
  const h = new Float32Array(r * out);
  for (let k = 0; k < width; k++) for (let j = 0; j < r; j++) p[k * r + j] = fc.h[j * width + k]!;
  for (let j = 0; j < r; j++) for (let o = 0; o < out; o++) h[j * out + o] = fc.g[o * r + j]!;
  const frames = window.frames + window.before + window.after - window.shape[0] + 1;
  const edge = new Float32Array(frames * r);
  const maskSum = window.maskSum;
  for (let t = 0; t < frames; t++) for (let j = 0; j < r; j++) {
    let dot = 0;
    for (let k = 0; k < width; k++) dot += maskSum[t * width + k]! * p[k * r + j]!;
    edge[t * r + j] = input.offset * dot;
  }
  for (let i = 0; i < p.length; i++) p[i] = p[i]! * input.scale;
  return { p, h, edge, rank: r };
}

/**
 * The graph with each of FACTORISED_KERNELS' convolutions rewritten (see above), and its
 * weights shard to match. `rank` 0: the graph as it is. With `shared`, the timbral windows it
 * names read that basis' outputs (an input of the graph; see sharedWindows) instead of the patch.
 */
export function factoriseMusicnn(modelJson: ModelJson, weights: Uint8Array, rank: number, shared: SharedWindows = {}): Factorised {
  if (rank <= 0) return { modelJson, weights, ranks: {}, inputs: [] };
  const view = new GraphView(modelJson, weights);
  const { entries, offsets, nodes, byName } = view;
  const floats = (name: string): Float32Array | undefined => view.floats(name);
  /** Weights that take an original's place in the shard (none: it goes). */
  const replaced = new Map<string, Array<{ entry: WeightEntry; data: Uint8Array }>>();
  const added: Array<{ entry: WeightEntry; data: Uint8Array }> = [];
  const extraNodes: Node[] = [];
  const rewritten = new Map<string, Node>();
  const ranks: Record<string, number> = {};
  const made = new Set<string>();
  const inputs = new Set<string>();
  const weight = (name: string, shape: number[], data: Float32Array | Int32Array): { entry: WeightEntry; data: Uint8Array } => ({
    entry: { name, shape, dtype: data instanceof Int32Array ? 'int32' : 'float32' },
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
  /** A node made once per input, however many windows read it. */
  const once = (name: string, make: () => void): string => {
    if (!made.has(name)) {
      made.add(name);
      make();
    }
    return name;
  };
  /** The one-hot convolution that makes `frames` consecutive frames of `input` its channels. */
  const framesAsChannels = (input: string, frames: number, linear: Record<string, unknown>): string =>
    once(`${input}/frames_${frames}`, () => {
      const name = `${input}/frames_${frames}`;
      const e = new Float32Array(frames * frames);
      for (let t = 0; t < frames; t++) e[t * frames + t] = 1;
      added.push(weight(`${name}/kernel`, [frames, 1, 1, frames], e));
      extraNodes.push(constNode(`${name}/kernel`, [frames, 1, 1, frames]), { name, op: 'Conv2D', input: [input, `${name}/kernel`], attr: { ...linear, padding: { s: b64('VALID') } } });
    });
  /**
   * A window over a one-channel input reads one float per step, which XNNPACK does slowly; the
   * same sums, read several frames at a time. A 2-D window (VALID): its kh frames made channels,
   * then 1 × kw over them (measured: −11 % of a classifier's CPU per patch). A long temporal
   * window (kh × 1, SAME, kh a multiple of TEMPORAL_STEP): padded as SAME pads it,
   * TEMPORAL_STEP frames made channels, then kh / TEMPORAL_STEP taps dilated by TEMPORAL_STEP
   * (tap j, channel c reads frame t + TEMPORAL_STEP·j + c). Otherwise as it is.
   */
  const relay = (input: string, kernel: Float32Array, shape: number[], linear: Record<string, unknown>, wholeWidth = false): Relaid => {
    const [kh, kw, channels, out] = shape as [number, number, number, number];
    const padding = paddingOf(linear);
    if (wholeWidth && channels === 1 && padding === 'VALID') {
      // [n, t, w, 1] as [n, t, 1, w], and [kh, kw, 1, out] as [kh, 1, kw, out]: the same numbers in
      // the same order, now a window over kw channels at one position (a GEMM, no reordering).
      const name = once(`${input}/width_as_channels`, () => {
        const base = `${input}/width_as_channels`;
        added.push(weight(`${base}/axis`, [], Int32Array.of(2)));
        extraNodes.push(
          constNode(`${base}/axis`, [], 'DT_INT32'),
          { name: `${base}/squeezed`, op: 'Squeeze', input: [input], attr: { T: linear.T, squeeze_dims: { list: { i: ['3'] } } } },
          { name: base, op: 'ExpandDims', input: [`${base}/squeezed`, `${base}/axis`], attr: { T: linear.T, Tdim: { type: 'DT_INT32' } } },
        );
      });
      return { input: name, kernel, shape: [kh, 1, kw, out], attr: linear };
    }
    if (kh > 1 && kw > 1 && channels === 1 && padding === 'VALID') {
      const relaid = new Float32Array(kernel.length);
      for (let t = 0; t < kh; t++) for (let w = 0; w < kw; w++) for (let k = 0; k < out; k++) relaid[(w * kh + t) * out + k] = kernel[(t * kw + w) * out + k]!;
      return { input: framesAsChannels(input, kh, linear), kernel: relaid, shape: [1, kw, kh, out], attr: linear };
    }
    if (kw === 1 && channels === 1 && kh > TEMPORAL_STEP && kh % TEMPORAL_STEP === 0 && padding === 'SAME') {
      const before = Math.floor((kh - 1) / 2);
      const padded = once(`${input}/same_${kh}`, () => {
        const name = `${input}/same_${kh}`;
        added.push(weight(`${name}/paddings`, [4, 2], Int32Array.from([0, 0, before, kh - 1 - before, 0, 0, 0, 0])));
        extraNodes.push(constNode(`${name}/paddings`, [4, 2], 'DT_INT32'), { name, op: 'Pad', input: [input, `${name}/paddings`], attr: { T: linear.T } });
      });
      // [kh, 1, 1, out] and [kh / step, 1, step, out] are the same numbers in the same order.
      return {
        input: framesAsChannels(padded, TEMPORAL_STEP, linear),
        kernel,
        shape: [kh / TEMPORAL_STEP, 1, TEMPORAL_STEP, out],
        attr: { ...linear, padding: { s: b64('VALID') }, dilations: { list: { i: ['1', String(TEMPORAL_STEP), '1', '1'] } } },
      };
    }
    return { input, kernel, shape, attr: linear };
  };

  /** Weights whose numbers change in place (same name and shape). */
  const changed = new Map<string, Uint8Array>();
  const readers = (name: string): Node[] => view.readers(name);
  /**
   * A kernel [rows, out] without its dead filters (every weight below NEGLIGIBLE of the kernel's
   * largest; an eigenvector's rounding leaves ~1e-17 where a dead filter has exactly zero), where
   * that saves more than it costs: `positions` × rows multiply-adds per dead filter against live ×
   * out per frame for the node named `name` that puts the live filters' values, read from `input`,
   * back in their places (a one-hot 1 × 1), each dead filter's place biased by `value` (what it
   * gives everywhere). The conv's bias (`bias`, the numbers of the weight `biasName`) is replaced
   * by the live filters' (`<biasName>/live`, which convInputs reads). Undefined when nothing is
   * worth dropping.
   */
  const dropDead = (
    kernel: Float32Array,
    out: number,
    { bias, biasName, positions, name, input, value, attr }: { bias: Float32Array; biasName: string; positions: number; name: string; input: string; value: Float32Array; attr: Record<string, unknown> },
  ): { kernel: Float32Array; out: number } | undefined => {
    const rows = kernel.length / out;
    const floor = NEGLIGIBLE * kernel.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const live = [...Array(out).keys()].filter((c) => {
      for (let i = 0; i < rows; i++) if (Math.abs(kernel[i * out + c]!) > floor) return true;
      return false;
    });
    const width = live.length;
    if (width === 0 || positions * rows * (out - width) <= width * out) return undefined;
    const liveKernel = new Float32Array(rows * width);
    for (let i = 0; i < rows; i++) live.forEach((c, j) => (liveKernel[i * width + j] = kernel[i * out + c]!));
    const place = new Float32Array(width * out);
    live.forEach((c, j) => (place[j * out + c] = 1));
    const isLive = new Set(live);
    const dead = Float32Array.from(value, (v, c) => (isLive.has(c) ? 0 : v));
    added.push(weight(`${name}/kernel`, [1, 1, width, out], place), weight(`${name}/bias`, [out], dead));
    extraNodes.push(constNode(`${name}/kernel`, [1, 1, width, out]), constNode(`${name}/bias`, [out]), {
      name,
      op: '_FusedConv2D',
      input: [input, `${name}/kernel`, `${name}/bias`],
      attr: {
        T: attr.T,
        data_format: attr.data_format,
        num_args: { i: '1' },
        fused_ops: { list: { s: [b64('BiasAdd')] } },
        padding: { s: b64('VALID') },
        strides: { list: { i: ['1', '1', '1', '1'] } },
        dilations: { list: { i: ['1', '1', '1', '1'] } },
      },
    });
    replaced.set(biasName, [weight(`${biasName}/live`, [width], Float32Array.from(live, (c) => bias[c]!))]);
    extraNodes.push(constNode(`${biasName}/live`, [width]));
    return { kernel: liveKernel, out: width };
  };

  /**
   * Each front-end branch is conv → ReLU → batch norm (× s, + o) → max over the bands. With the
   * conv's kernel and bias scaled by s and no ReLU, u = s·y, and per channel the max over the
   * bands of s·relu(y) is relu(max u) where s > 0 and min(max u, 0) where s < 0 (both
   * σ·relu(σ·max u), σ = sign s), so the scale, ReLU and offset run on the pooled [t, 1, c]
   * values instead of every band's: the same numbers, two passes over the largest tensors fewer.
   * Where the graph is not of that shape the conv is left as it is.
   *
   * Then the filters left all zero (the published kernels' dead filters: 51–64 of the 204 of each
   * classifier's 7 × 67 window, 164 and 183 of the tagger's two windows, 17 and 29 of its 51
   * temporal filters; and those the norm silences) are dropped from the conv where that saves
   * more than it costs: each is its bias on every band, so its pooled value is that bias. The
   * pooled live filters are put back in their places among the dead ones' biases (a one-hot 1 × 1
   * on the pooled frames, biased; a GatherV2 cost 5x as much on WebAssembly), so every layer after
   * reads the same numbers in the same order, for none of the dead filters' arithmetic over every
   * band. Returns the conv's attributes and its kernel and width, narrowed.
   */
  const foldNorm = (conv: Node, kernel: Float32Array, out: number, attr: Record<string, unknown>): { attr: Record<string, unknown>; kernel: Float32Array; out: number } => {
    const fused = fusedOpsOf(attr);
    const [mul] = readers(conv.name);
    const scale = view.normScale(conv, out);
    const [add] = mul ? readers(mul.name) : [];
    const offsetName = add?.input?.find((i) => i !== mul?.name);
    const [pool] = add ? readers(add.name) : [];
    const biasName = conv.input?.[2];
    const bias = biasName ? floats(biasName) : undefined;
    const only = (n: Node | undefined): boolean => n !== undefined && readers(n.name).length === 1;
    if (
      fused !== 'BiasAdd,Relu' || !mul || !scale || !add || add.op !== 'Add' || !pool || pool.op !== 'MaxPool' ||
      !only(mul) || !only(add) || !bias || bias.length !== out || !offsetName || byName.get(offsetName)?.op !== 'Const'
    ) {
      return { attr, kernel, out };
    }
    // A channel the norm all but silences (|s| below 1e-6 of the largest; such channels' s reach
    // 1e-13) is its offset alone: scaled, its weights would fall to subnormal numbers, which
    // WebAssembly multiplies slowly (measured: 5x a model's CPU per patch); its share of the
    // value, |s|·relu(max y), is below 1e-6 of any other's.
    const largest = scale.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const kept = Float32Array.from(scale, (v) => (Math.abs(v) < 1e-6 * largest ? 0 : v));
    for (let i = 0; i < kernel.length; i++) kernel[i] = flush(kernel[i]! * kept[i % out]!);
    for (let c = 0; c < out; c++) bias[c] = flush(bias[c]! * kept[c]!);
    const sign = Float32Array.from(kept, (v) => Math.sign(v));
    const base = `${conv.name}/norm_after_pool`;
    added.push(weight(`${base}/sign`, [out], sign));
    const T = { T: attr.T };
    // The bands the pooling takes its max over: each dead filter skipped saves rows multiply-adds
    // on each of them; putting the live ones back in place costs live × out per frame.
    const bands = Number(((pool.attr?.ksize as { list?: { i?: string[] } } | undefined)?.list?.i ?? [])[2] ?? 0);
    const narrowed = dropDead(kernel, out, { bias, biasName: biasName!, positions: bands, name: `${base}/widen`, input: pool.name, value: bias, attr });
    if (!narrowed) changed.set(biasName!, new Uint8Array(bias.buffer));
    const pooled = narrowed ? `${base}/widen` : pool.name;
    extraNodes.push(
      constNode(`${base}/sign`, [out]),
      { name: `${base}/signed`, op: 'Mul', input: [pooled, `${base}/sign`], attr: T },
      { name: `${base}/relu`, op: 'Relu', input: [`${base}/signed`], attr: T },
      { name: `${base}/scaled`, op: 'Mul', input: [`${base}/relu`, `${base}/sign`], attr: T },
      { name: `${base}/offset`, op: 'Add', input: [`${base}/scaled`, offsetName], attr: T },
    );
    rewritten.set(pool.name, { ...pool, input: [conv.name] });
    for (const next of readers(pool.name)) rewritten.set(next.name, { ...(rewritten.get(next.name) ?? next), input: next.input!.map((i) => (i === pool.name ? `${base}/offset` : i)) });
    return { attr: { ...attr, fused_ops: { list: { s: [b64('BiasAdd')] } } }, kernel: narrowed?.kernel ?? kernel, out: narrowed?.out ?? out };
  };
  /**
   * A 7-frame layer of the mid-end (one output per frame, then ReLU and a batch norm) without its
   * dead filters (dropDead; 15–29 of each classifier's 64 over the 561 features, 44 of the
   * tagger's): the layer runs as `<name>/live`, and a node of its own name puts the live filters
   * back among the dead ones' constant values (relu(bias)), so every reader sees the same numbers.
   */
  const dropDeadOutputs = (conv: Node, kernel: Float32Array, out: number, attr: Record<string, unknown>): { kernel: Float32Array; out: number } | undefined => {
    const fused = fusedOpsOf(attr);
    const biasName = conv.input?.[2];
    const bias = biasName ? floats(biasName) : undefined;
    if ((fused !== 'BiasAdd,Relu' && fused !== 'BiasAdd') || !bias || bias.length !== out) return undefined;
    const value = fused === 'BiasAdd' ? bias : Float32Array.from(bias, (v) => Math.max(0, v));
    return dropDead(kernel, out, { bias, biasName: biasName!, positions: 1, name: conv.name, input: `${conv.name}/live`, value, attr });
  };
  /** The conv's inputs with its bias replaced by the live filters' when dropDead narrowed it. */
  const convInputs = (conv: Node, input: string, kernelName: string): string[] => {
    const biasName = conv.input![2];
    return [input, kernelName, ...(biasName !== undefined && replaced.has(biasName) ? [`${biasName}/live`] : conv.input!.slice(2))];
  };

  for (const [kernelName, share] of Object.entries(FACTORISED_KERNELS)) {
    const at = offsets.get(kernelName);
    const conv = view.convOf(kernelName);
    const kernel = floats(kernelName);
    if (!at || !conv || !kernel || at.entry.shape.length !== 4) continue;
    const attr = conv.attr ?? {};
    const linear = { T: attr.T, padding: attr.padding, strides: attr.strides, dilations: attr.dilations, data_format: attr.data_format };
    const device = conv.device ? { device: conv.device } : {};
    if (share === 0) {
      // The kernel whole, read several frames a step; the fused op keeps its bias and ReLU.
      const r = relay(conv.input![0]!, kernel, at.entry.shape, linear, WHOLE_WIDTH.has(kernelName));
      const name = `${kernelName}/relaid`;
      const folded = foldNorm(conv, r.kernel, at.entry.shape[3]!, { ...attr, ...r.attr });
      const narrowed = WHOLE_WIDTH.has(kernelName) && folded.out === at.entry.shape[3] ? dropDeadOutputs(conv, folded.kernel, folded.out, folded.attr) : undefined;
      const shape = [...r.shape.slice(0, 3), narrowed?.out ?? folded.out];
      replaced.set(kernelName, [weight(name, shape, narrowed?.kernel ?? folded.kernel)]);
      extraNodes.push(constNode(name, shape));
      rewritten.set(conv.name, { ...conv, ...(narrowed ? { name: `${conv.name}/live` } : {}), input: convInputs(conv, r.input, name), attr: folded.attr });
      continue;
    }
    const [kh, kw, channels, out] = at.entry.shape as [number, number, number, number];
    const window = shared[kernelName];
    const input = window && sameShape(window.shape, [kh, kw, channels]) ? view.windowInput(conv) : undefined;
    if (window && input && input.before === window.before && input.after === window.after) {
      // The window's filters in the shared basis B's coordinates, C = Bᵀ·K (width × out), at
      // their best rank: C ≈ P·H, P = U_r (width × r, orthonormal), H = U_rᵀ·C (r × out), from
      // C·Cᵀ (width × width, small). The window over the normed patch, (x · scale + offset) * B·P·H,
      // is then scale · (x * B) · P · H + offset · (mask * B) · P · H, the mask being 1 on the
      // patch's frames and 0 on the padding: x * B is the shared input, P (scaled) and the
      // offset's term (one row per frame, the same on every band) this model's.
      const width = window.shape[3];
      const { p, h, edge, rank: r } = sharedFactors(window, kernel, kh * kw, out, Math.max(1, Math.round(rank * share)), input);
      ranks[kernelName] = r;
      const frames = window.frames + window.before + window.after - kh + 1;
      const pName = `${kernelName}/shared_p`;
      const eName = `${kernelName}/shared_offset`;
      const hName = `${kernelName}/factor_h`;
      const projectNode = `${conv.name}/shared_p`;
      const offsetNode = `${conv.name}/shared_offset`;
      inputs.add(window.input);
      once(window.input, () =>
        extraNodes.push({ name: window.input, op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: { dim: [-1, frames, window.bands - kw + 1, width].map((size) => ({ size: String(size) })) } } } }),
      );
      const folded = foldNorm(conv, h, out, { ...attr, padding: { s: b64('VALID') } });
      replaced.set(kernelName, [weight(pName, [1, 1, width, r], p), weight(eName, [1, frames, 1, r], edge), weight(hName, [1, 1, r, folded.out], folded.kernel)]);
      extraNodes.push(
        constNode(pName, [1, 1, width, r]),
        constNode(eName, [1, frames, 1, r]),
        constNode(hName, [1, 1, r, folded.out]),
        { name: projectNode, op: 'Conv2D', input: [window.input, pName], ...device, attr: { ...linear, padding: { s: b64('VALID') } } },
        { name: offsetNode, op: 'Add', input: [projectNode, eName], attr: { T: attr.T } },
      );
      rewritten.set(conv.name, { ...conv, input: convInputs(conv, offsetNode, hName), attr: folded.attr });
      continue;
    }
    const f = factorKernel(kernel, at.entry.shape, Math.max(1, Math.round(rank * share)));
    ranks[kernelName] = f.rank;
    const g = relay(conv.input![0]!, f.g, [kh, kw, channels, f.rank], linear);
    const gName = `${kernelName}/factor_g`;
    const hName = `${kernelName}/factor_h`;
    const first = `${conv.name}/factor_g`;
    const folded = foldNorm(conv, f.h, out, { ...attr, padding: { s: b64('VALID') } });
    replaced.set(kernelName, [weight(gName, g.shape, g.kernel), weight(hName, [1, 1, f.rank, folded.out], folded.kernel)]);
    // The window, unbiased and linear: the fused op's own attributes without its bias and ReLU.
    extraNodes.push(constNode(gName, g.shape), constNode(hName, [1, 1, f.rank, folded.out]), { name: first, op: 'Conv2D', input: [g.input, gName], ...device, attr: g.attr });
    // Then the 1 × 1 to every filter, with the original bias and ReLU (VALID and SAME agree at 1 × 1).
    rewritten.set(conv.name, { ...conv, input: convInputs(conv, first, hName), attr: folded.attr });
  }
  if (replaced.size === 0) return { modelJson, weights, ranks, inputs: [] };

  const parts: Array<{ entry: WeightEntry; data: Uint8Array }> = [];
  for (const entry of entries) {
    const at = offsets.get(entry.name)!;
    parts.push(...(replaced.get(entry.name) ?? [{ entry, data: changed.get(entry.name) ?? weights.subarray(at.offset, at.offset + at.bytes) }]));
  }
  parts.push(...added);
  // Every weight, rewritten or not, flushed (see flush).
  for (const p of parts) if (p.entry.dtype === 'float32') p.data = flushed(p.data);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.data.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p.data, o);
    o += p.data.length;
  }
  const keptNodes = nodes.filter((n) => !replaced.has(n.name)).map((n) => rewritten.get(n.name) ?? n);
  return {
    modelJson: {
      ...modelJson,
      modelTopology: { ...modelJson.modelTopology, node: [...extraNodes, ...keptNodes] },
      weightsManifest: [{ paths: modelJson.weightsManifest[0]?.paths ?? [], weights: parts.map((p) => p.entry) }],
    },
    weights: out,
    ranks,
    inputs: [...inputs],
  };
}
