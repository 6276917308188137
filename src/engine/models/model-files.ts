import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TAGGER_TAG_NAMES, type TaggerTag } from '../../core/tags';

// This module loads no TensorFlow.js: the pool's host (the API's process) imports it to check
// the files at start; only the engine threads load the runtime (runtime.ts).

/**
 * The trained models the engine can use, as Essentia publishes them (TensorFlow.js graph models
 * converted by the MTG; Creative Commons non-commercial, supplied by the user in MODELS_DIR,
 * never bundled): five MusiCNN classifiers fine-tuned on the Million Song Dataset embeddings and
 * the MSD auto-tagger. Each folder holds model.json and one weights shard; the checksums are
 * those of the files Essentia publishes (also listed in docs/FEATURES.md).
 */
export const MODEL_SET_ID = 'musicnn-msd-2';

/**
 * Patches fed to the models per window by default: 0, every patch. Fewer patches (MODELS_PATCHES)
 * cost proportionally less, but no count below all kept every value within 0.05 of the models
 * over every patch on the corpora it was not chosen on (bench/models.ts, BENCHMARKS.md).
 */
export const DEFAULT_PATCHES = 0;

/**
 * Rank of the models' factorised convolutions (musicnn.factorise.ts; MODELS_RANK; 0: the
 * convolutions as trained), the classifiers' first windows shared at 1.6 × it. What an analysis
 * reports is each output's mean over the patches: at 32 those moved by 0.014 at most against the
 * models as trained on the corpora (a single patch's output by 0.032), and every descriptor stayed
 * within 0.014 of essentia.js's reference, for 0.87x the CPU of rank 40 (0.009 and 0.013 per
 * patch there); rank 24 was 0.033 off essentia.js on a clip already (bench/models.ts, BENCHMARKS.md).
 */
export const DEFAULT_RANK = 32;

/**
 * The method of an analysis whose moods, valence, danceability and instrumentalness the models gave:
 * `models:musicnn-msd-2`, then how they ran, where that moves the values: `/r<rank>` for
 * factorised convolutions (MODELS_RANK; absent at 0, as trained), `/p<n>` for n patches per
 * window (MODELS_PATCHES; absent at 0, every patch). So analyses made another way can be found
 * and redone (`npm run index -- --reanalyse`).
 */
export function modelsMethod(rank: number = DEFAULT_RANK, patches: number = DEFAULT_PATCHES): string {
  return `models:${MODEL_SET_ID}${rank > 0 ? `/r${rank}` : ''}${patches > 0 ? `/p${patches}` : ''}`;
}

/** The method of the models run as they are by default (`models:musicnn-msd-2/r32`). */
export const MODELS_METHOD = modelsMethod();

export type ClassifierName = 'mood_happy' | 'mood_sad' | 'mood_relaxed' | 'mood_aggressive' | 'danceability';

export interface ModelFolder {
  /** The folder's name in MODELS_DIR. */
  folder: string;
  /** model.json's and the weights shard's sha256. */
  sha256: { 'model.json': string; 'group1-shard1of1.bin': string };
  /** Columns of model/Sigmoid. */
  outputs: number;
}

export interface ClassifierFolder extends ModelFolder {
  name: ClassifierName;
  /** The output column that is the named class (the other is its negation). */
  positive: 0 | 1;
}

export const CLASSIFIERS: readonly ClassifierFolder[] = [
  {
    name: 'mood_happy',
    folder: 'mood_happy-musicnn-msd-2',
    positive: 0,
    outputs: 2,
    sha256: {
      'model.json': '1f362f337bd441163f2dec7a2133ed0084239e8158cf984e716df70dae8ba877',
      'group1-shard1of1.bin': '78f2bd60fe191e44bd26fe102253ea31ce2575ffe63b9e594d4ed786d8ac6d78',
    },
  },
  {
    name: 'mood_sad',
    folder: 'mood_sad-musicnn-msd-2',
    positive: 1,
    outputs: 2,
    sha256: {
      'model.json': 'a756b47983300e153c09eb55fd73c4fad78a116ae37cda4106165c324d669287',
      'group1-shard1of1.bin': 'f0964e240c98b22dcb630107729edc90bd0ce4b803d5bd996441428ee124a6aa',
    },
  },
  {
    name: 'mood_relaxed',
    folder: 'mood_relaxed-musicnn-msd-2',
    positive: 1,
    outputs: 2,
    sha256: {
      'model.json': 'dbc5ea28316fbfeb4befc754387d55f2a8138692ccbce16364439d1ffa7dc482',
      'group1-shard1of1.bin': '9eb449802249f22d8f234fbb43637dbcc0a1c55421e1c86bb141cc2ff9dd2207',
    },
  },
  {
    name: 'mood_aggressive',
    folder: 'mood_aggressive-musicnn-msd-2',
    positive: 0,
    outputs: 2,
    sha256: {
      'model.json': '23dcaa93989fde4b5916398298431fb85ec74d55bfe415d890c25268d9a1b913',
      'group1-shard1of1.bin': '3c148997eaa27d7d597663a67280c31c4fdafcfce453fe9192e92c6da0acf44a',
    },
  },
  {
    name: 'danceability',
    folder: 'danceability-musicnn-msd-2',
    positive: 0,
    outputs: 2,
    sha256: {
      'model.json': 'cc24afcbf05197bd90d1e274bdbd24db4ce106f7d49475e92573f97ef85db62d',
      'group1-shard1of1.bin': '48b1789ede235c1e05599f24846185bba068dc30efd96894b6e7bbd31b674966',
    },
  },
];

/** The tags of the MSD auto-tagger, in the order of its 50 outputs (core's vocabulary: what analyses carry). */
export const MSD_TAGS = TAGGER_TAG_NAMES;

export type MsdTag = TaggerTag;

export const TAGGER: ModelFolder = {
  folder: 'msd-musicnn-1',
  outputs: MSD_TAGS.length,
  sha256: {
    'model.json': '2df238355538b680e70f06e30fb04df52f133da6ea1915530ec8c590da073762',
    'group1-shard1of1.bin': '7ebfb970c7389b6276ffc34f0d7fc80ba2765e5310829f3618ad5b977326667d',
  },
};

export const MODEL_FOLDERS: readonly ModelFolder[] = [...CLASSIFIERS, TAGGER];

/** A model file that is missing or not what it should be; the message names the file and the fault. */
export class ModelFilesError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`MODELS_DIR: ${problems.join('; ')}`);
    this.name = 'ModelFilesError';
  }
}

/** One folder's files, read and checked. */
export interface ModelFiles {
  folder: ModelFolder;
  modelJson: ModelJson;
  weights: Uint8Array;
}

/** One weight of model.json's manifest. */
export interface WeightEntry {
  name: string;
  shape: number[];
  dtype: string;
}

export interface ModelJson {
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  modelTopology: { node?: Array<{ name: string; op: string; attr?: Record<string, unknown> }> } & Record<string, unknown>;
  weightsManifest: Array<{ paths: string[]; weights: WeightEntry[] }>;
  signature?: Record<string, object>;
  userDefinedMetadata?: Record<string, object>;
}

/** Bytes per value of each weight dtype the converter writes. */
export const BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1 };

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The shape a Placeholder node declares, or undefined. */
function placeholderShape(node: { attr?: Record<string, unknown> }): number[] | undefined {
  const dims = (node.attr?.shape as { shape?: { dim?: Array<{ size: string }> } } | undefined)?.shape?.dim;
  return dims?.map((d) => Number(d.size));
}

function readChecked(dir: string, folder: ModelFolder, problems: string[]): ModelFiles | undefined {
  const where = (file: string): string => path.join(folder.folder, file);
  const read = (file: 'model.json' | 'group1-shard1of1.bin'): Uint8Array | undefined => {
    const full = path.join(dir, folder.folder, file);
    try {
      if (!statSync(full).isFile()) {
        problems.push(`${where(file)} is not a file`);
        return undefined;
      }
      return readFileSync(full);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(`${where(file)} ${code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? String(error)})`}`);
      return undefined;
    }
  };
  const jsonBytes = read('model.json');
  const weights = read('group1-shard1of1.bin');
  if (!jsonBytes || !weights) return undefined;
  const before = problems.length;
  let modelJson: ModelJson;
  try {
    modelJson = JSON.parse(Buffer.from(jsonBytes).toString('utf8')) as ModelJson;
  } catch (error) {
    problems.push(`${where('model.json')} is not valid JSON (${(error as Error).message}); truncated?`);
    return undefined;
  }
  const entries = modelJson.weightsManifest?.flatMap((m) => m.weights) ?? [];
  const paths = modelJson.weightsManifest?.flatMap((m) => m.paths) ?? [];
  if (!modelJson.modelTopology || entries.length === 0 || paths.length !== 1 || paths[0] !== 'group1-shard1of1.bin') {
    problems.push(`${where('model.json')} is not a TensorFlow.js graph model with one weights shard (group1-shard1of1.bin)`);
    return undefined;
  }
  const expectedBytes = entries.reduce((sum, w) => sum + w.shape.reduce((a, b) => a * b, 1) * (BYTES[w.dtype] ?? NaN), 0);
  if (weights.length !== expectedBytes) {
    problems.push(`${where('group1-shard1of1.bin')} has ${weights.length} bytes where model.json's weights need ${expectedBytes}${weights.length < expectedBytes ? ' (truncated)' : ''}`);
  }
  const nodes = modelJson.modelTopology.node ?? [];
  const input = nodes.find((n) => n.name === 'model/Placeholder');
  const inputShape = input ? placeholderShape(input) : undefined;
  if (!inputShape || inputShape.length !== 3 || inputShape[1] !== 187 || inputShape[2] !== 96) {
    problems.push(`${where('model.json')}: input model/Placeholder is ${inputShape ? `[${inputShape.join(', ')}]` : 'absent'}, expected [n, 187, 96]`);
  }
  const output = nodes.find((n) => n.name === 'model/Sigmoid');
  if (!output) problems.push(`${where('model.json')}: output model/Sigmoid is absent`);
  // Checksums last: a file that is the right shape but not the published one is still refused.
  for (const [file, bytes] of [['model.json', jsonBytes], ['group1-shard1of1.bin', weights]] as const) {
    const actual = sha256(bytes);
    if (actual !== folder.sha256[file]) problems.push(`${where(file)} has sha256 ${actual}, expected ${folder.sha256[file]}`);
  }
  return problems.length === before ? { folder, modelJson, weights } : undefined;
}

/**
 * Reads and checks every model file in `dir` (presence, JSON, weights length, input and output
 * nodes, sha256). Throws ModelFilesError naming each file that is wrong and how.
 */
export function readModelFiles(dir: string): ModelFiles[] {
  const problems: string[] = [];
  try {
    if (!statSync(dir).isDirectory()) throw new ModelFilesError([`${dir} is not a directory`]);
  } catch (error) {
    if (error instanceof ModelFilesError) throw error;
    throw new ModelFilesError([`${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  const files = MODEL_FOLDERS.map((folder) => readChecked(dir, folder, problems));
  if (problems.length > 0) throw new ModelFilesError(problems);
  return files as ModelFiles[];
}
