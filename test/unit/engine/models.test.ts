import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resample } from 'wave-resampler';
import { loadEssentiaModel } from '../../../measure/models/essentia-model';
import { HAVE_TEST_MODELS, TEST_MODELS_DIR } from '../../../measure/models/test-models';
import { MODELS_EMBEDDING, SIGNAL_EMBEDDING } from '../../../src/core/sound';
import { TAGGER_TAGS } from '../../../src/core/tags';
import { createEnginePool } from '../../../src/engine/engine.pool';
import { MODELS_METHOD, SIGNAL_METHOD, ThreadModels, methodOf } from '../../../src/engine/models/model-analysis';
import { instrumentalnessOf, tagScores } from '../../../src/engine/models/model-descriptors';
import type { AudioFeatures } from '../../../src/core/types';
import { CLASSIFIERS, DEFAULT_RANK, MODEL_FOLDERS, MSD_TAGS, ModelFilesError, TAGGER, readModelFiles } from '../../../src/engine/models/model-files';
import { type PreparedModels, prepareModels } from '../../../src/engine/models/model-prepared';
import { classifierWindows, factoriseMusicnn } from '../../../src/engine/models/musicnn.factorise';
import { MUSICNN_BANDS, MUSICNN_MIN_TAIL, MUSICNN_PATCH, MusicnnInput, paddedPatchCount, patchCount } from '../../../src/engine/models/musicnn.input';
import { DEFAULT_PATCHES, ModelRunError, ModelRunner, choosePatches } from '../../../src/engine/models/runtime';
import { modelsEmbedding } from '../../../src/engine/sound.embedding';
import { logistic } from '../../../src/engine/logistic';
import { VALENCE_MODELS, modelValenceInputs } from '../../../src/engine/valence';

// Six models of ~1.3 GMAC per 3 s patch each: seconds per clip on a shared core.
jest.setTimeout(300_000);

const repoRoot = path.resolve(__dirname, '../../..');
const modelsDir = TEST_MODELS_DIR;
const haveModels = HAVE_TEST_MODELS;
if (!haveModels) console.warn(`models tests SKIPPED: no models at "${modelsDir}" (set TRACKGRAPH_TEST_MODELS_DIR to the models' folder)`);
const withModels = haveModels ? describe : describe.skip;

const CLIPS = ['money.mp3', 'cymbaline.ogg', 'hoppipolla.flac'].map((f) => path.join(repoRoot, 'test/fixtures/library', f));

/** The clips' analysis windows, decoded once in a child process (see decode-window.ts). */
let decoded: string | undefined;
function window16k(file: string): { x44: Float32Array; x16: Float32Array } {
  if (!decoded) {
    decoded = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-windows-'));
    execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/helpers/decode-window.ts'), decoded, ...CLIPS]);
  }
  const bytes = readFileSync(path.join(decoded, `${CLIPS.indexOf(file)}.f32`));
  const x44 = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  // wave-resampler low-passes its input in place: it gets a copy.
  return { x44, x16: Float32Array.from(resample(x44.slice(), 44100, 16000, { method: 'sinc' })) };
}
afterAll(() => {
  if (decoded) rmSync(decoded, { recursive: true, force: true });
});

describe('MusiCNN input', () => {
  it.each(CLIPS)('equals essentia.js EssentiaTFInputExtractor(musicnn) within 1e-3 on %s', async (file) => {
    const essentia = await loadEssentiaModel();
    const { x16 } = window16k(file);
    const reference = essentia.frames(x16);
    const ours = new MusicnnInput().frames(x16);
    expect(ours.frames).toBe(reference.frames);
    expect(ours.frames).toBeGreaterThan(MUSICNN_PATCH);
    let worst = 0;
    for (let i = 0; i < ours.bands.length; i++) worst = Math.max(worst, Math.abs(ours.bands[i]! - reference.bands[i]!));
    expect(worst).toBeLessThan(1e-3);
  });

  it('drops frames of digital silence, as essentia.js does', () => {
    const x = new Float32Array(16000 * 4);
    for (let i = 16000 * 2; i < x.length; i++) x[i] = Math.sin((2 * Math.PI * 440 * i) / 16000) * 0.5;
    const { frames } = new MusicnnInput().frames(x);
    const all = Math.ceil((x.length + 256) / 256);
    expect(frames).toBeLessThan(all * 0.6);
    expect(frames).toBeGreaterThan(all * 0.4);
  });
});

describe('patchCount', () => {
  it('reads every whole patch and a last partial one of at least half a patch, as essentia.js pads it', () => {
    expect(patchCount(10 * MUSICNN_PATCH)).toBe(10);
    expect(patchCount(10 * MUSICNN_PATCH + MUSICNN_MIN_TAIL)).toBe(11);
    expect(paddedPatchCount(10 * MUSICNN_PATCH + MUSICNN_MIN_TAIL)).toBe(11);
  });

  it('drops a last patch that would be mostly zeros: a 30 s window is 10 patches, not 11', () => {
    // 30 s at 16 kHz, frames every 256 samples from the one centred on sample 0.
    const frames = Math.ceil((30 * 16000 + 256) / 256);
    expect(frames).toBe(1876);
    expect(patchCount(frames)).toBe(10);
    expect(paddedPatchCount(frames)).toBe(11);
    expect(patchCount(10 * MUSICNN_PATCH + MUSICNN_MIN_TAIL - 1)).toBe(10);
  });

  it('reads a window shorter than a patch, padded, rather than nothing', () => {
    expect(patchCount(MUSICNN_MIN_TAIL - 1)).toBe(1);
    expect(patchCount(1)).toBe(1);
    expect(patchCount(0)).toBe(1);
  });
});

describe('choosePatches', () => {
  const frames = (n: number): { frames: number; bands: Float32Array } => {
    const bands = new Float32Array(n * MUSICNN_BANDS);
    // Two kinds of sound: the first third loud and bright, the rest quiet.
    for (let f = 0; f < n; f++) for (let b = 0; b < MUSICNN_BANDS; b++) bands[f * MUSICNN_BANDS + b] = f < n / 3 ? 3 + b / 96 : 0.5;
    return { frames: n, bands };
  };

  it('takes every patch, equally weighted, when they fit the budget', () => {
    const c = choosePatches(frames(2 * MUSICNN_PATCH + MUSICNN_MIN_TAIL), 3);
    expect(c.patches).toEqual([0, 1, 2]);
    expect(c.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('keeps to the budget, one patch per kind of sound, weighted by how many patches each stands for', () => {
    const input = frames(11 * MUSICNN_PATCH);
    const c = choosePatches(input, 2);
    expect(c.patches).toHaveLength(2);
    expect(c.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const loud = c.patches.findIndex((p) => p * MUSICNN_PATCH < input.frames / 3 - MUSICNN_PATCH);
    expect(loud).toBeGreaterThanOrEqual(0);
    // The loud third is about 4 of the 11 patches.
    expect(c.weights[loud]! * patchCount(input.frames)).toBeGreaterThanOrEqual(3);
    expect(c.weights[loud]! * patchCount(input.frames)).toBeLessThanOrEqual(5);
  });
});

describe('instrumentalness', () => {
  it('instrumentalness falls as the vocal tags rise against the instrumental tag', () => {
    const tags = Object.fromEntries(MSD_TAGS.map((t) => [t, 0.02])) as Parameters<typeof instrumentalnessOf>[0];
    const sung = instrumentalnessOf({ ...tags, 'female vocalists': 0.3, instrumental: 0.01 });
    const played = instrumentalnessOf({ ...tags, 'female vocalists': 0.01, 'male vocalists': 0.01, 'female vocalist': 0.01, instrumental: 0.3 });
    expect(sung).toBeLessThan(0.2);
    expect(played).toBeGreaterThan(0.8);
  });
});

describe('tag scores', () => {
  it('lists every tag of the tagger once, most probable first, rounded to 3 decimals and held to [0, 1]', () => {
    const tags = Object.fromEntries(MSD_TAGS.map((t, i) => [t, (i * 37) % 50 / 50])) as Parameters<typeof tagScores>[0];
    const scores = tagScores({ ...tags, rock: 0.98765, jazz: 1.2, punk: -0.1 });
    expect(scores.map((s) => s.name).sort()).toEqual([...MSD_TAGS].sort());
    // Every tag the tagger gives fits what the API publishes and accepts from another server.
    expect(scores).toHaveLength(TAGGER_TAGS);
    expect(scores[0]).toEqual({ name: 'jazz', probability: 1 });
    expect(scores[1]).toEqual({ name: 'rock', probability: 0.988 });
    expect(scores.at(-1)).toEqual({ name: 'punk', probability: 0 });
    scores.forEach((s, i) => i > 0 && expect(s.probability).toBeLessThanOrEqual(scores[i - 1]!.probability));
  });
});

withModels('bad model files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-models-'));
    for (const f of MODEL_FOLDERS) {
      mkdirSync(path.join(dir, f.folder));
      for (const file of ['model.json', 'group1-shard1of1.bin']) copyFileSync(path.join(modelsDir, f.folder, file), path.join(dir, f.folder, file));
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const problemsOf = (): string => {
    try {
      readModelFiles(dir);
    } catch (error) {
      expect(error).toBeInstanceOf(ModelFilesError);
      return (error as Error).message;
    }
    throw new Error('expected the models to be refused');
  };

  it('accepts the published files', () => {
    expect(readModelFiles(dir)).toHaveLength(MODEL_FOLDERS.length);
  });

  it('names a missing file', () => {
    unlinkSync(path.join(dir, 'mood_sad-musicnn-msd-2', 'group1-shard1of1.bin'));
    expect(problemsOf()).toMatch(/mood_sad-musicnn-msd-2\/group1-shard1of1\.bin is missing/);
  });

  it('names a truncated weights file', () => {
    truncateSync(path.join(dir, 'danceability-musicnn-msd-2', 'group1-shard1of1.bin'), 1_000_000);
    expect(problemsOf()).toMatch(/danceability-musicnn-msd-2\/group1-shard1of1\.bin has 1000000 bytes .*\(truncated\)/);
  });

  it('names a truncated model.json', () => {
    const file = path.join(dir, 'msd-musicnn-1', 'model.json');
    writeFileSync(file, readFileSync(file).subarray(0, 5000));
    expect(problemsOf()).toMatch(/msd-musicnn-1\/model\.json is not valid JSON/);
  });

  it('names a model of the wrong input shape', () => {
    const file = path.join(dir, 'mood_happy-musicnn-msd-2', 'model.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\{"size":\s*"187"\}/, '{"size": "128"}'));
    expect(problemsOf()).toMatch(/mood_happy-musicnn-msd-2\/model\.json: input model\/Placeholder is \[-1, 128, 96\], expected \[n, 187, 96\]/);
  });

  it('names a file whose checksum is not the published one', () => {
    const file = path.join(dir, 'mood_relaxed-musicnn-msd-2', 'group1-shard1of1.bin');
    const bytes = readFileSync(file);
    bytes[1000] = bytes[1000]! ^ 0xff;
    writeFileSync(file, bytes);
    expect(problemsOf()).toMatch(/mood_relaxed-musicnn-msd-2\/group1-shard1of1\.bin has sha256 [0-9a-f]{64}, expected 9eb4498/);
  });

  it('stop the engine from starting, or with modelsRequired false leave it on the signal descriptors, saying why', async () => {
    unlinkSync(path.join(dir, 'mood_aggressive-musicnn-msd-2', 'model.json'));
    expect(() => createEnginePool({ workers: 1, timeoutMs: 60_000, windowSeconds: 30, modelsDir: dir })).toThrow(/mood_aggressive-musicnn-msd-2\/model\.json is missing/);
    const warnings: string[] = [];
    const pool = createEnginePool({ workers: 1, timeoutMs: 60_000, windowSeconds: 30, modelsDir: dir, modelsRequired: false, logger: { warn: (_o, msg) => warnings.push(msg) } });
    try {
      expect(pool.method).toBe(SIGNAL_METHOD);
      expect(pool.modelsProblem).toMatch(/mood_aggressive-musicnn-msd-2\/model\.json is missing/);
      expect(warnings).toHaveLength(1);
      const features = await pool.analyse({ path: CLIPS[2]! });
      expect(methodOf(features.engine)).toBe(SIGNAL_METHOD);
    } finally {
      await pool.close();
    }
  });
});

withModels('the models', () => {
  let runner: ModelRunner;
  /** The models prepared at the default rank once for this block (seconds of CPU each time). */
  let prepared: PreparedModels;
  /** Where the pools below keep the prepared models: the first prepares, the next read them. */
  let cacheDir: string;
  beforeAll(async () => {
    prepared = prepareModels(readModelFiles(modelsDir), DEFAULT_RANK);
    runner = await ModelRunner.fromPrepared(prepared);
    cacheDir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-models-cache-'));
  });
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));
  // The six models' weights leave the Jest worker, which goes on to run other files.
  afterAll(() => runner?.dispose());

  it('use WebAssembly SIMD', () => {
    expect(runner.simd).toBe(true);
  });

  it('give the same outputs fed our input as fed essentia.js’s, over every patch', async () => {
    const essentia = await loadEssentiaModel();
    const { x16 } = window16k(CLIPS[0]!);
    const ours = runner.run(new MusicnnInput().frames(x16));
    const reference = runner.run(essentia.frames(x16));
    for (const c of CLASSIFIERS) expect(Math.abs(ours.classes[c.name] - reference.classes[c.name])).toBeLessThan(1e-3);
    for (const t of MSD_TAGS) expect(Math.abs(ours.tags[t] - reference.tags[t])).toBeLessThan(1e-3);
  });

  it('run factorised (MODELS_RANK) close to the models as trained on every patch, the tagger (of lower rank) exactly', async () => {
    const exact = await ModelRunner.load(modelsDir, 0);
    try {
      const { x44 } = window16k(CLIPS[1]!);
      const frames = runner.frames(x44, 44100);
      const [ours, trained] = [runner.perPatch(frames), exact.perPatch(frames)];
      const worst = (a: Float32Array, b: Float32Array): number => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
      const classes = Math.max(...CLASSIFIERS.map((c) => worst(ours.classes[c.name], trained.classes[c.name])));
      // The mean over the patches, what an analysis reports, of each class.
      const mean = (rows: Float32Array): number => rows.reduce((s, v, i) => s + (i % 2 === 0 ? v : 0), 0) / (rows.length / 2);
      const means = Math.max(...CLASSIFIERS.map((c) => Math.abs(mean(ours.classes[c.name]) - mean(trained.classes[c.name]))));
      // Measured on the corpora at the default rank: 0.032 per patch and 0.014 per clip at worst (BENCHMARKS.md).
      expect(classes).toBeLessThan(0.05);
      expect(means).toBeLessThan(0.02);
      // The factorisation ran: the classifiers' kernels are of full rank, so something moved.
      expect(classes).toBeGreaterThan(1e-5);
      // The tagger's timbral kernels are of rank 22 and 14: kept whole, the outputs are the same.
      expect(worst(ours.tags, trained.tags)).toBeLessThan(1e-4);
    } finally {
      exact.dispose();
    }
  });

  it('average the positive class and the tags over the patches asked for, weighted as asked', () => {
    const { x44 } = window16k(CLIPS[2]!);
    const per = runner.perPatch(runner.frames(x44, 44100), [0, 3, 5]);
    const positive = (c: (typeof CLASSIFIERS)[number], row: number): number => per.classes[c.name][row * 2 + c.positive]!;
    const tag = (t: (typeof MSD_TAGS)[number], row: number): number => per.tags[row * MSD_TAGS.length + MSD_TAGS.indexOf(t)]!;
    const two = runner.average(per, undefined, [0, 2]);
    const weighted = runner.average(per, [0.5, 0.3, 0.2]);
    for (const c of CLASSIFIERS) {
      expect(two.classes[c.name]).toBeCloseTo((positive(c, 0) + positive(c, 2)) / 2, 6);
      expect(weighted.classes[c.name]).toBeCloseTo(0.5 * positive(c, 0) + 0.3 * positive(c, 1) + 0.2 * positive(c, 2), 6);
    }
    for (const t of ['rock', 'instrumental', 'female vocalists'] as const) expect(two.tags[t]).toBeCloseTo((tag(t, 0) + tag(t, 2)) / 2, 6);
  });

  it('fail with the model named when one throws, and the runner goes on', async () => {
    const { x44 } = window16k(CLIPS[2]!);
    const frames = runner.frames(x44, 44100);
    const broken = await ModelRunner.fromPrepared(prepared);
    broken.dispose();
    expect(() => broken.run(frames)).toThrow(ModelRunError);
    expect(() => broken.run(frames)).toThrow(/the model mood_happy-musicnn-msd-2 failed/);
    expect(runner.run(frames).patches.used).toBe(patchCount(frames.frames));
  });

  it('answer moods, valence, danceability, instrumentalness and the tagger’s tags through the engine pool, saying so', async () => {
    const pool = createEnginePool({ workers: 1, timeoutMs: 120_000, windowSeconds: 30, modelsDir, modelsCacheDir: cacheDir });
    const signal = createEnginePool({ workers: 1, timeoutMs: 120_000, windowSeconds: 30 });
    try {
      expect(pool.method).toBe(MODELS_METHOD);
      const [withModels, withoutModels] = await Promise.all([pool.analyse({ path: CLIPS[0]! }), signal.analyse({ path: CLIPS[0]! })]);
      expect(methodOf(withModels.engine)).toBe(MODELS_METHOD);
      expect(methodOf(withoutModels.engine)).toBe(SIGNAL_METHOD);
      // What the runner in this thread says of the same window.
      const { x44 } = window16k(CLIPS[0]!);
      const frames = runner.frames(x44, 44100);
      const direct = runner.run(frames, choosePatches(frames, DEFAULT_PATCHES));
      expect(withModels.mood.happy).toBeCloseTo(direct.classes.mood_happy, 2);
      expect(withModels.mood.sad).toBeCloseTo(direct.classes.mood_sad, 2);
      expect(withModels.danceability).toBeCloseTo(direct.classes.danceability, 2);
      // Valence from the models' outputs through the model fitted on people's labels (valence.ts).
      expect(withModels.valence).toBeCloseTo(logistic(VALENCE_MODELS, modelValenceInputs(direct.classes, direct.tags)), 2);
      expect(withModels.tempo).toBe(withoutModels.tempo);
      // The tagger's 50 tags, most probable first, as the runner gives them; none without models.
      expect(withModels.tags).toHaveLength(MSD_TAGS.length);
      for (const { name, probability } of withModels.tags!) expect(probability).toBeCloseTo(direct.tags[name as (typeof MSD_TAGS)[number]], 2);
      expect(withModels.tags![0]!.probability).toBeCloseTo(Math.max(...Object.values(direct.tags)), 2);
      expect(withoutModels).not.toHaveProperty('tags');
      // Both sound embeddings with models: the signal path's as without them, and the tagger's layer with the classifiers.
      expect(withModels.embeddings!.map((e) => e.kind)).toEqual([SIGNAL_EMBEDDING, MODELS_EMBEDDING]);
      expect(withoutModels.embeddings!.map((e) => e.kind)).toEqual([SIGNAL_EMBEDDING]);
      expect(withModels.embeddings![0]!.vector).toEqual(withoutModels.embeddings![0]!.vector);
      const expected = modelsEmbedding(direct.embedding, direct.classes, withModels.embeddings![0]!.vector)!.vector;
      const got = withModels.embeddings![1]!.vector;
      expect(got).toHaveLength(expected.length);
      got.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 2));
    } finally {
      await Promise.all([pool.close(), signal.close()]);
    }
  });

  it('keep to the models the host checked and prepared at start when the files change under a running pool', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-models-'));
    try {
      for (const f of MODEL_FOLDERS) {
        mkdirSync(path.join(dir, f.folder));
        for (const file of ['model.json', 'group1-shard1of1.bin']) copyFileSync(path.join(modelsDir, f.folder, file), path.join(dir, f.folder, file));
      }
      // Read, checked and rewritten once by the host; the threads never read the folder.
      const pool = createEnginePool({ workers: 1, timeoutMs: 120_000, windowSeconds: 30, modelsDir: dir, modelsCacheDir: cacheDir });
      unlinkSync(path.join(dir, 'msd-musicnn-1', 'group1-shard1of1.bin'));
      try {
        const features = await pool.analyse({ path: CLIPS[2]! });
        expect(methodOf(features.engine)).toBe(MODELS_METHOD);
        expect(features.tags).toHaveLength(MSD_TAGS.length);
      } finally {
        await pool.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are prepared once for every thread: the weights in one SharedArrayBuffer, each graph as factoriseMusicnn rewrites it', () => {
    const files = readModelFiles(modelsDir);
    expect(prepared.models.map((m) => m.folder)).toEqual(MODEL_FOLDERS.map((f) => f.folder));
    const windows = classifierWindows(files, DEFAULT_RANK);
    expect(Object.keys(prepared.windows)).toEqual(Object.keys(windows));
    for (const [name, w] of Object.entries(windows)) expect(Buffer.from(prepared.windows[name]!.basis.buffer).equals(Buffer.from(w!.basis.buffer))).toBe(true);
    for (const [i, model] of prepared.models.entries()) {
      expect(model.weights.buffer).toBeInstanceOf(SharedArrayBuffer);
      const file = files[i]!;
      const direct = factoriseMusicnn(file.modelJson, file.weights, DEFAULT_RANK, file.folder === TAGGER ? {} : windows);
      expect(Buffer.from(model.weights).equals(Buffer.from(direct.weights))).toBe(true);
      expect(model.modelJson).toEqual(direct.modelJson);
      expect(model.inputs).toEqual(direct.inputs);
    }
  });
});

describe('an engine thread’s models', () => {
  it('fail each analysis, saying why, when they cannot be loaded, and the thread goes on', async () => {
    const models = new ThreadModels({ rank: DEFAULT_RANK, windows: {}, models: [] });
    const features = {} as AudioFeatures;
    await expect(models.apply(features, new Float32Array(16000), 16000)).rejects.toThrow(/the models in MODELS_DIR could not be loaded: the model mood_happy-musicnn-msd-2 was not prepared/);
    await expect(models.apply(features, new Float32Array(16000), 16000)).rejects.toThrow(/could not be loaded/);
  });
});
