import { readFile } from 'node:fs/promises';
import { ANALYSIS_FAILED_MESSAGE, AppError, type ErrorCode, invalidArgument, isAppError, shownError } from '../core/errors';
import type { AudioFeatures, AudioInput, AudioProbe } from '../core/types';
import { decodeAnalysisWindow } from './decode';
import { workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions } from './engine';
import type { PreparedModels } from './models/model-prepared';
import { probeAudio } from './probe';
import { ANALYSIS_RATE } from './window';

/** A task as the pool sends it to a worker thread (structured-cloned). */
export type WorkerTask = { kind: 'analyse'; input: AudioInput } | { kind: 'probe'; input: AudioInput };

/** This thread's engine, built once from the options the pool started it with. */
const engine = createEngine(workerData as EngineOptions);
/** This thread's models when the pool was given MODELS_DIR, as its host prepared them; loaded at the thread's first analysis. */
const { models: prepared, modelsPatches } = workerData as { models?: PreparedModels; modelsPatches?: number };
// The models' module loads TensorFlow.js (~0.12 s of CPU a thread): only a thread that runs them requires it.
const models =
  prepared === undefined
    ? undefined
    : // eslint-disable-next-line @typescript-eslint/no-require-imports
      new (require('./models/model-analysis') as typeof import('./models/model-analysis')).ThreadModels(prepared, modelsPatches);

/** Errors cross the thread boundary as plain data and become AppErrors again on the main side. */
export interface WireError {
  code: ErrorCode;
  message: string;
  /** Detail of an unexpected failure, for the host's log only. */
  detail?: string;
}

export type WorkerResult<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** A file that cannot be opened is the caller's mistake, not corrupt audio. */
function unreadable(error: unknown, path: string): AppError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
    return invalidArgument(`cannot read ${path}: ${code}`);
  }
  return undefined;
}

async function readInput(input: AudioInput): Promise<Uint8Array> {
  if ('bytes' in input) return input.bytes;
  try {
    return new Uint8Array(await readFile(input.path));
  } catch (error) {
    throw unreadable(error, input.path) ?? error;
  }
}

async function analyse(input: AudioInput): Promise<AudioFeatures> {
  const bytes = await readInput(input);
  const audio = await decodeAnalysisWindow(bytes, engine.options.windowSeconds);
  const features = engine.analyseWindow(audio);
  return models ? models.apply(features, audio.samples, ANALYSIS_RATE) : features;
}

async function probe(input: AudioInput): Promise<AudioProbe> {
  try {
    return await probeAudio(input);
  } catch (error) {
    const notFound = 'path' in input ? unreadable(error, input.path) : undefined;
    if (notFound) throw notFound;
    throw new AppError('AUDIO_UNDECODABLE', `cannot read the file's tags: ${(error as Error).message ?? String(error)}`);
  }
}

/** piscina's entry point: never throws, so that every failure reaches the host as data. */
export default async function run(task: WorkerTask): Promise<WorkerResult<AudioFeatures | AudioProbe>> {
  try {
    const value = task.kind === 'analyse' ? await analyse(task.input) : await probe(task.input);
    return { ok: true, value };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: shownError(error) };
    const detail = error instanceof Error ? (error.stack ?? error.message) : `non-Error thrown: ${String(error)}`;
    return { ok: false, error: { ...shownError(error, ANALYSIS_FAILED_MESSAGE), detail } };
  }
}
