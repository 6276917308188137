import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODEL_FOLDERS, type ModelFiles, type ModelJson, TAGGER } from './model-files';
import { type SharedWindows, classifierWindows, factoriseMusicnn } from './musicnn.factorise';

// Like model-files.ts, this module loads no TensorFlow.js: the pool's host prepares the models
// with it, once per process, and hands the result to every engine thread.

/** One model's graph and weights as the engine runs them (factoriseMusicnn's rewrite at the set's rank). */
export interface PreparedModel {
  /** Its folder in MODELS_DIR (ModelFolder.folder), as errors name it. */
  folder: string;
  modelJson: ModelJson;
  weights: Uint8Array;
  /** The shared windows' outputs the graph reads as inputs (SharedWindow.input). */
  inputs: string[];
}

/**
 * Every model of MODELS_DIR rewritten at `rank` (0: as trained), and the classifiers' shared
 * windows: what a ModelRunner loads. Made once per process (the engine pool's host) and given to
 * each engine thread in its workerData, where the weights, in one SharedArrayBuffer, are not copied.
 */
export interface PreparedModels {
  rank: number;
  windows: SharedWindows;
  /** In MODEL_FOLDERS' order: the five classifiers, then the tagger. */
  models: PreparedModel[];
}

/**
 * The models of `files` (readModelFiles: read and checked) rewritten at `rank`: the classifiers'
 * shared windows (classifierWindows, the eigendecomposition of their filters' Gram matrices,
 * most of the CPU), then each model factorised on them (factoriseMusicnn; the tagger on its own
 * windows). About 1.5–2.5 s of CPU, paid by the process that starts the engine, not by each
 * thread, and not at all where prepareModelsCached finds them made.
 */
export function prepareModels(files: readonly ModelFiles[], rank: number): PreparedModels {
  const windows = classifierWindows(files, rank);
  const byFolder = new Map(files.map((f) => [f.folder.folder, f]));
  const rewritten = MODEL_FOLDERS.map((folder) => {
    const file = byFolder.get(folder.folder);
    if (!file) throw new Error(`the model files of ${folder.folder} were not read`);
    // The tagger's windows are of rank 22 and 14 (exact at any rank above): its own, not shared.
    return { folder: folder.folder, ...factoriseMusicnn(file.modelJson, file.weights, rank, folder === TAGGER ? {} : windows) };
  });
  const shared = new Uint8Array(new SharedArrayBuffer(rewritten.reduce((n, m) => n + m.weights.byteLength, 0)));
  let offset = 0;
  const models = rewritten.map(({ folder, modelJson, weights, inputs }) => {
    shared.set(weights, offset);
    const view = shared.subarray(offset, offset + weights.byteLength);
    offset += weights.byteLength;
    return { folder, modelJson, weights: view, inputs };
  });
  return { rank, windows, models };
}

/** The cache file's first bytes, and the version of its layout. */
const CACHE_MAGIC = 'trackgraph-prepared-models/1\n';

/**
 * What a prepared set is made from: the model files (their checksums, which readModelFiles has
 * checked), the rank, and the code that prepares them (this module and the factorisation, as
 * this process runs them). A change of any of them is another key, so a cache never outlives
 * the code or the files it was made by.
 */
export function cacheKey(files: readonly ModelFiles[], rank: number): string {
  const hash = createHash('sha256').update(CACHE_MAGIC).update(`rank ${rank}\n`);
  for (const file of files) hash.update(`${file.folder.folder} ${file.folder.sha256['model.json']} ${file.folder.sha256['group1-shard1of1.bin']}\n`);
  for (const code of [__filename, require.resolve('./musicnn.factorise'), require.resolve('./model-files')]) hash.update(readFileSync(code));
  return hash.digest('hex').slice(0, 32);
}

/** The typed arrays of a prepared set, written after its JSON as one blob; in the JSON, `{"$f32"|"$u8": [offset, length]}`. */
export function encode(models: PreparedModels): Buffer {
  const blobs: Buffer[] = [];
  let offset = 0;
  const json = JSON.stringify(models, (_key, value: unknown) => {
    if (value instanceof Float32Array || value instanceof Uint8Array) {
      const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      // Float32 data starts on a 4-byte boundary, so that it can be viewed where it lies.
      const pad = (4 - (offset % 4)) % 4;
      if (pad > 0) blobs.push(Buffer.alloc(pad));
      offset += pad;
      blobs.push(bytes);
      const at = offset;
      offset += bytes.byteLength;
      return { [value instanceof Float32Array ? '$f32' : '$u8']: [at, value.length] };
    }
    return value;
  });
  const body = Buffer.concat(blobs);
  const head = Buffer.from(JSON.stringify({ json, bytes: body.byteLength, sha256: createHash('sha256').update(json).update(body).digest('hex') }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.byteLength);
  return Buffer.concat([Buffer.from(CACHE_MAGIC), length, head, body]);
}

/** A prepared set read back, its typed arrays in one SharedArrayBuffer; undefined for anything not whole and as written. */
export function decode(file: Buffer, rank: number): PreparedModels | undefined {
  const magic = Buffer.byteLength(CACHE_MAGIC);
  if (file.byteLength < magic + 4 || file.toString('latin1', 0, magic) !== CACHE_MAGIC) return undefined;
  const headLength = file.readUInt32LE(magic);
  const start = magic + 4 + headLength;
  if (start > file.byteLength) return undefined;
  const head = JSON.parse(file.toString('utf8', magic + 4, start)) as { json?: unknown; bytes?: unknown; sha256?: unknown };
  if (typeof head.json !== 'string' || head.bytes !== file.byteLength - start) return undefined;
  const body = file.subarray(start);
  if (createHash('sha256').update(head.json).update(body).digest('hex') !== head.sha256) return undefined;
  const shared = new Uint8Array(new SharedArrayBuffer(body.byteLength));
  shared.set(body);
  const models = JSON.parse(head.json, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const f32 = (value as { $f32?: [number, number] }).$f32;
      if (f32) return new Float32Array(shared.buffer, f32[0], f32[1]);
      const u8 = (value as { $u8?: [number, number] }).$u8;
      if (u8) return shared.subarray(u8[0], u8[0] + u8[1]);
    }
    return value;
  }) as PreparedModels;
  return models.rank === rank && Array.isArray(models.models) && models.models.length === MODEL_FOLDERS.length ? models : undefined;
}

/**
 * prepareModels, kept in `cacheDir` (DATA_DIR/cache) between processes: a CLI run, a worker's
 * restart and a server's start read the prepared set (one file, about the models' size) instead
 * of redoing its second of CPU. The file is named by what it was made from (cacheKey), written
 * whole or not at all (a temporary file renamed), and read back only if whole and as written
 * (its checksum); anything else is prepared afresh and written again. A folder that cannot be
 * written to only costs the time.
 */
export function prepareModelsCached(files: readonly ModelFiles[], rank: number, cacheDir: string | undefined): PreparedModels {
  if (cacheDir === undefined) return prepareModels(files, rank);
  const file = path.join(cacheDir, `prepared-models-${cacheKey(files, rank)}.bin`);
  try {
    const cached = decode(readFileSync(file), rank);
    if (cached) return cached;
  } catch {
    // Absent, unreadable or not JSON where it should be: prepared afresh below.
  }
  const models = prepareModels(files, rank);
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(temporary, encode(models), { flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written where nothing can be.
    }
  }
  return models;
}
