import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { type GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { SharedWindow, SharedWindows } from './musicnn.factorise';
import { CLASSIFIERS, type ClassifierName, DEFAULT_PATCHES, DEFAULT_RANK, MODEL_SET_ID, MSD_TAGS, type MsdTag, TAGGER, readModelFiles } from './model-files';
import { type PreparedModel, type PreparedModels, prepareModels } from './model-prepared';
import { MUSICNN_BANDS, MUSICNN_PATCH, MUSICNN_RATE, MusicnnInput, type MusicnnFrames, patchCount, patchesInto } from './musicnn.input';
import { PolyphaseResampler } from './resample';

/**
 * Essentia's MusiCNN models on TensorFlow.js's WebAssembly backend (SIMD; its .wasm files ship in
 * the npm package, read from disk). Runs in the engine's worker threads: one ModelRunner per
 * thread, loaded once, every model fed the same patches in one batch each.
 */

/** What the models say of one window. */
export interface ModelOutputs {
  /** Positive-class probability of each classifier, mean over the patches used. */
  classes: Record<ClassifierName, number>;
  /** The auto-tagger's probability of each MSD tag, mean over the patches used. */
  tags: Record<MsdTag, number>;
  /** The auto-tagger's penultimate layer (TAGGER_EMBEDDING_NODE: 200 units), mean over the patches used. */
  embedding: number[];
  /** How many patches fed the models, and of how many. */
  patches: { used: number; of: number };
}

export { DEFAULT_PATCHES, DEFAULT_RANK };

/** Each model's outputs per patch, row-major (patches × columns). */
export interface PatchOutputs {
  patches: readonly number[];
  classes: Record<ClassifierName, Float32Array>;
  tags: Float32Array;
  /** The tagger's penultimate layer per patch (patches × TAGGER_EMBEDDING_UNITS). */
  embedding: Float32Array;
}

/**
 * The auto-tagger's penultimate layer: its 200-unit dense layer (ReLU; the converted graph fuses
 * the bias and the activation into one node), the layer Essentia publishes as msd-musicnn-1's
 * embedding. The sound embedding with MODELS_DIR is its mean over the patches (sound.embedding.ts).
 */
export const TAGGER_EMBEDDING_NODE = 'model/dense/Relu';
export const TAGGER_EMBEDDING_UNITS = 200;

/** Patches to feed the models and the weight of each in the mean (the weights sum to 1). */
export interface PatchChoice {
  patches: number[];
  weights: number[];
}

/** Mean and spread of each band over a patch's frames: what a patch sounds like, in brief. */
function patchProfile(input: MusicnnFrames, patch: number): Float64Array {
  const from = patch * MUSICNN_PATCH;
  const to = Math.min(input.frames, from + MUSICNN_PATCH);
  const profile = new Float64Array(2 * MUSICNN_BANDS);
  const n = Math.max(1, to - from);
  for (let f = from; f < to; f++) {
    for (let b = 0; b < MUSICNN_BANDS; b++) {
      const v = input.bands[f * MUSICNN_BANDS + b]!;
      profile[b] = profile[b]! + v / n;
      profile[MUSICNN_BANDS + b] = profile[MUSICNN_BANDS + b]! + (v * v) / n;
    }
  }
  for (let b = 0; b < MUSICNN_BANDS; b++) profile[MUSICNN_BANDS + b] = Math.sqrt(Math.max(0, profile[MUSICNN_BANDS + b]! - profile[b]! ** 2));
  return profile;
}

function distance(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += (a[i]! - b[i]!) ** 2;
  return d;
}

/**
 * Which of the patches the models read (patchCount: 187 frames, no overlap, a last partial
 * patch zero-padded when it holds half a patch or more) feed the models when at most `budget`
 * may, so that their weighted mean stands for the mean over all patches: all when they fit;
 * otherwise the patches are grouped by what they sound like (mean and spread of each mel band;
 * k-medoids from a farthest-point start) and each group's medoid runs, weighted by the share of
 * patches it stands for. A budget of 0: all.
 */
export function choosePatches(input: MusicnnFrames, budget: number): PatchChoice {
  const count = patchCount(input.frames);
  if (budget <= 0 || count <= budget) return { patches: [...Array(count).keys()], weights: Array<number>(count).fill(1 / count) };
  const profiles = Array.from({ length: count }, (_, p) => patchProfile(input, p));
  const dist = profiles.map((a) => profiles.map((b) => distance(a, b)));
  // Start: the patch nearest to all others, then each next the farthest from those chosen.
  const total = dist.map((row) => row.reduce((s, d) => s + d, 0));
  let medoids = [total.indexOf(Math.min(...total))];
  while (medoids.length < budget) {
    const far = dist.map((row) => Math.min(...medoids.map((m) => row[m]!)));
    medoids.push(far.indexOf(Math.max(...far)));
  }
  const assign = (ms: number[]): number[] => dist.map((row) => ms.reduce((best, m) => (row[m]! < row[best]! ? m : best), ms[0]!));
  for (let iteration = 0; iteration < 10; iteration++) {
    const owner = assign(medoids);
    const next = medoids.map((m) => {
      const members = owner.flatMap((o, p) => (o === m ? [p] : []));
      const cost = (c: number): number => members.reduce((s, p) => s + dist[c]![p]!, 0);
      return members.reduce((best, c) => (cost(c) < cost(best) ? c : best), m);
    });
    if (next.every((m, i) => m === medoids[i])) break;
    medoids = next;
  }
  const owner = assign(medoids);
  const patches = [...medoids].sort((a, b) => a - b);
  return { patches, weights: patches.map((m) => owner.filter((o) => o === m).length / count) };
}

let backendReady: Promise<void> | undefined;

/** tfjs-backend-wasm's folder (its .wasm files), from the installed package. */
function wasmFolder(): string {
  return path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm')) + path.sep;
}

/** Starts the WASM backend once per thread; resolves to whether SIMD is used. */
export async function startBackend(): Promise<{ simd: boolean; threads: number }> {
  backendReady ??= (async () => {
    setWasmPaths(wasmFolder());
    // Each engine thread runs its own models: the pool, not tfjs, spreads work over the cores.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js WebAssembly backend failed to start');
    await tf.ready();
  })();
  await backendReady;
  return { simd: (await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) === true, threads: 1 };
}

/** A model's graph and weights, rewritten (musicnn.factorise.ts), as tfjs's loader wants them. */
function memoryHandler({ modelJson, weights }: PreparedModel): tf.io.IOHandler {
  return {
    load: () =>
      Promise.resolve({
        modelTopology: modelJson.modelTopology,
        format: modelJson.format,
        generatedBy: modelJson.generatedBy,
        convertedBy: modelJson.convertedBy,
        weightSpecs: modelJson.weightsManifest.flatMap((m) => m.weights) as tf.io.WeightsManifestEntry[],
        // A copy of its own (the prepared weights may be a view of a SharedArrayBuffer).
        weightData: new Uint8Array(weights).buffer,
        signature: modelJson.signature,
        userDefinedMetadata: modelJson.userDefinedMetadata,
      }),
  };
}

/** A model that failed while running: the analysis fails with this, the thread lives on. */
export class ModelRunError extends Error {
  constructor(model: string, cause: unknown) {
    super(`the model ${model} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ModelRunError';
  }
}

interface Loaded {
  name: string;
  /** Its folder in MODELS_DIR, as errors name it. */
  folder: string;
  model: GraphModel;
  /** Inputs beyond the features (the tagger's is-training flag). */
  extra: Record<string, tf.Tensor>;
  /** The shared windows' outputs it reads (SharedWindow.input). */
  shared: string[];
}

/**
 * The windows the classifiers share (musicnn.factorise.ts, sharedWindows), run once per patch:
 * the patch padded as the models pad it, its frames made channels (as the rewritten graphs read
 * a one-channel window), then each basis.
 */
export class SharedWindowRunner {
  private readonly windows: Array<{ window: SharedWindow; kernel: tf.Tensor4D }>;
  private readonly frames = new Map<number, tf.Tensor4D>();

  constructor(windows: SharedWindows) {
    this.windows = Object.values(windows).flatMap((window) => {
      if (!window) return [];
      const [kh, kw, , width] = window.shape;
      const relaid = new Float32Array(window.basis.length);
      for (let t = 0; t < kh; t++) for (let f = 0; f < kw; f++) for (let k = 0; k < width; k++) relaid[(f * kh + t) * width + k] = window.basis[(t * kw + f) * width + k]!;
      if (!this.frames.has(kh)) {
        const e = new Float32Array(kh * kh);
        for (let t = 0; t < kh; t++) e[t * kh + t] = 1;
        this.frames.set(kh, tf.tensor4d(e, [kh, 1, 1, kh]));
      }
      return [{ window, kernel: tf.tensor4d(relaid, [1, kw, kh, width]) }];
    });
  }

  /** Each shared window's output over the patch x [1, frames, bands], by its input name. */
  run(x: tf.Tensor3D): Record<string, tf.Tensor> {
    if (this.windows.length === 0) return {};
    return tf.tidy(() => {
      const x4 = tf.expandDims<tf.Tensor4D>(x, 3);
      const stacked = new Map<string, tf.Tensor4D>();
      const out: Record<string, tf.Tensor> = {};
      for (const { window, kernel } of this.windows) {
        const kh = window.shape[0];
        const key = `${kh}/${window.before}/${window.after}`;
        let frames = stacked.get(key);
        if (!frames) {
          const padded = tf.pad(x4, [[0, 0], [window.before, window.after], [0, 0], [0, 0]]);
          stacked.set(key, (frames = tf.conv2d(padded, this.frames.get(kh)!, 1, 'valid')));
        }
        out[window.input] = tf.conv2d(frames, kernel, 1, 'valid');
      }
      return out;
    });
  }

  dispose(): void {
    for (const { kernel } of this.windows) kernel.dispose();
    for (const t of this.frames.values()) t.dispose();
  }
}

export class ModelRunner {
  readonly setId = MODEL_SET_ID;
  private readonly input = new MusicnnInput();
  private readonly resamplers = new Map<number, PolyphaseResampler>();
  private batch = new Float32Array(0);

  private constructor(
    private readonly classifiers: ReadonlyArray<Loaded & { name: ClassifierName; positive: 0 | 1 }>,
    private readonly tagger: Loaded,
    private readonly shared: SharedWindowRunner,
    readonly simd: boolean,
  ) {}

  /**
   * Reads, checks (model-files.ts), rewrites at `rank` (model-prepared.ts, musicnn.factorise.ts;
   * 0: as trained) and loads every model of `dir`.
   */
  static async load(dir: string, rank = DEFAULT_RANK): Promise<ModelRunner> {
    return ModelRunner.fromPrepared(prepareModels(readModelFiles(dir), rank));
  }

  /**
   * Loads the models as prepareModels rewrote them (the engine pool's host does that once for
   * all its threads): each graph, and the classifiers' shared windows.
   */
  static async fromPrepared(prepared: PreparedModels): Promise<ModelRunner> {
    const { simd } = await startBackend();
    const byFolder = new Map(prepared.models.map((m) => [m.folder, m]));
    const loadOne = async (folder: string): Promise<Loaded> => {
      const rewritten = byFolder.get(folder);
      if (!rewritten) throw new Error(`the model ${folder} was not prepared`);
      const model = await loadGraphModel(memoryHandler(rewritten));
      const extra: Record<string, tf.Tensor> = {};
      for (const input of model.inputs) {
        if (input.name !== 'model/Placeholder' && !rewritten.inputs.includes(input.name)) extra[input.name] = tf.scalar(false, 'bool');
      }
      return { name: folder, folder, model, extra, shared: rewritten.inputs };
    };
    const classifiers = [];
    for (const c of CLASSIFIERS) classifiers.push({ ...(await loadOne(c.folder)), name: c.name, positive: c.positive });
    const tagger = await loadOne(TAGGER.folder);
    return new ModelRunner(classifiers, tagger, new SharedWindowRunner(prepared.windows), simd);
  }

  /** MusiCNN frames of a mono window at `sampleRate`. */
  frames(samples: Float32Array, sampleRate: number): MusicnnFrames {
    let x = samples;
    if (sampleRate !== MUSICNN_RATE) {
      let r = this.resamplers.get(sampleRate);
      if (!r) this.resamplers.set(sampleRate, (r = new PolyphaseResampler(sampleRate, MUSICNN_RATE)));
      x = r.resampleOnBackend(samples);
    }
    return this.input.frames(x);
  }

  /**
   * Every model over the patches of these frames, averaged: those `choice` names, weighted as
   * it says, or all of them equally when undefined.
   */
  run(frames: MusicnnFrames, choice?: PatchChoice): ModelOutputs {
    const per = this.perPatch(frames, choice?.patches);
    return { ...this.average(per, choice?.weights), patches: { used: per.patches.length, of: patchCount(frames.frames) } };
  }

  /**
   * Each classifier's positive class and each tag, averaged over rows `rows` of `per` (all when
   * undefined), weighted by `weights` (one per row used; equal when undefined).
   */
  average(per: PatchOutputs, weights?: readonly number[], rows?: readonly number[]): Pick<ModelOutputs, 'classes' | 'tags' | 'embedding'> {
    const used = rows ?? per.patches.map((_, i) => i);
    const w = weights ?? used.map(() => 1 / used.length);
    const mean = (values: Float32Array, width: number, column: number): number => {
      let sum = 0;
      used.forEach((row, i) => (sum += w[i]! * values[row * width + column]!));
      return sum;
    };
    const classes = {} as Record<ClassifierName, number>;
    for (const c of this.classifiers) classes[c.name] = mean(per.classes[c.name], 2, c.positive);
    const tags = {} as Record<MsdTag, number>;
    MSD_TAGS.forEach((t, i) => (tags[t] = mean(per.tags, MSD_TAGS.length, i)));
    const embedding = Array.from({ length: TAGGER_EMBEDDING_UNITS }, (_, i) => mean(per.embedding, TAGGER_EMBEDDING_UNITS, i));
    return { classes, tags, embedding };
  }

  /**
   * Every model's outputs for each patch `which` (all when undefined). The patches go through
   * the models one at a time, the input buffer reused: the CPU per patch is the same in batches
   * of 1, 2 or 8 (measured), and one patch keeps the largest intermediate tensors (the first
   * convolutions' outputs, ~9 MB per patch) from growing with the window.
   */
  perPatch(frames: MusicnnFrames, which?: readonly number[]): PatchOutputs {
    const patches = which ?? Array.from({ length: patchCount(frames.frames) }, (_, i) => i);
    const classes = {} as Record<ClassifierName, Float32Array>;
    for (const c of this.classifiers) classes[c.name] = new Float32Array(patches.length * 2);
    const tags = new Float32Array(patches.length * MSD_TAGS.length);
    const embedding = new Float32Array(patches.length * TAGGER_EMBEDDING_UNITS);
    const size = MUSICNN_PATCH * MUSICNN_BANDS;
    if (this.batch.length < size) this.batch = new Float32Array(size);
    patches.forEach((patch, i) => {
      patchesInto(frames, [patch], this.batch);
      const x = tf.tensor3d(this.batch.subarray(0, size), [1, MUSICNN_PATCH, MUSICNN_BANDS]);
      // The shared windows run once, for the first model that reads them (a failure there is its).
      let shared: Record<string, tf.Tensor> | undefined;
      const sharedOutputs = (): Record<string, tf.Tensor> => (shared ??= this.shared.run(x));
      try {
        for (const c of this.classifiers) classes[c.name].set(this.execute(c, x, sharedOutputs), i * 2);
        const [tagRow, embeddingRow] = this.executeMany(this.tagger, x, sharedOutputs, ['model/Sigmoid', TAGGER_EMBEDDING_NODE]);
        tags.set(tagRow!, i * MSD_TAGS.length);
        embedding.set(embeddingRow!, i * TAGGER_EMBEDDING_UNITS);
      } finally {
        x.dispose();
        for (const t of Object.values(shared ?? {})) t.dispose();
      }
    });
    return { patches, classes, tags, embedding };
  }

  /** The model's model/Sigmoid rows for the batch, row-major. */
  private execute(m: Loaded, x: tf.Tensor3D, sharedOutputs: () => Record<string, tf.Tensor>): Float32Array {
    return this.executeMany(m, x, sharedOutputs, ['model/Sigmoid'])[0]!;
  }

  /** The rows of the model's nodes `names` for the batch, row-major, in that order. */
  private executeMany(m: Loaded, x: tf.Tensor3D, sharedOutputs: () => Record<string, tf.Tensor>, names: readonly string[]): Float32Array[] {
    let outs: tf.Tensor[] = [];
    try {
      const inputs: Record<string, tf.Tensor> = { ...m.extra, 'model/Placeholder': x };
      if (m.shared.length > 0) {
        const shared = sharedOutputs();
        for (const name of m.shared) inputs[name] = shared[name]!;
      }
      const out = m.model.execute(inputs, [...names]);
      outs = Array.isArray(out) ? out : [out];
      return outs.map((t) => {
        const rows = t.dataSync() as Float32Array;
        if (rows.some((v) => !Number.isFinite(v))) throw new Error('it gave a value that is not a number');
        return rows;
      });
    } catch (error) {
      throw new ModelRunError(m.folder, error);
    } finally {
      for (const t of outs) t.dispose();
    }
  }

  dispose(): void {
    for (const m of [...this.classifiers, this.tagger]) {
      m.model.dispose();
      for (const t of Object.values(m.extra)) t.dispose();
    }
    this.shared.dispose();
    for (const r of this.resamplers.values()) r.dispose();
  }
}
