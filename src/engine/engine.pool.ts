import os from 'node:os';
import { Piscina } from 'piscina';
import { AppError } from '../core/errors';
import type { AnalysisEngine, AudioFeatures, AudioInput, AudioProbe } from '../core/types';
import type { WorkerResult, WorkerTask } from './engine.thread';
import { SIGNAL_METHOD } from '../core/analysis-method';
import { DEFAULT_PATCHES, DEFAULT_RANK, ModelFilesError, modelsMethod, readModelFiles } from './models/model-files';
import { type PreparedModels, prepareModelsCached } from './models/model-prepared';
import { engineThreadFile } from './engine-thread.file';

export interface EnginePoolOptions {
  /** Worker threads; each holds one engine. */
  workers: number;
  /** Longest one task may run once started; its worker is then terminated and replaced. */
  timeoutMs: number;
  /** Analysed window of files longer than 45 s, seconds. */
  windowSeconds: number;
  /** Essentia's models (MODELS_DIR): moods, valence, danceability and instrumentalness from them. Unset: the signal formulas. */
  modelsDir?: string;
  /**
   * With modelsDir: a model file missing or wrong throws here, naming the file and the fault
   * (true, the default), or is warned about once while the engine serves the signal
   * descriptors and `modelsProblem` says why (false).
   */
  modelsRequired?: boolean;
  /** Patches of each window the models run on (default DEFAULT_PATCHES; 0: all). */
  modelsPatches?: number | undefined;
  /** Rank of the models' factorised convolutions (default DEFAULT_RANK; 0: as trained). */
  modelsRank?: number | undefined;
  /** Where the models, once prepared at that rank, are kept for the next start (DATA_DIR/cache); unset: prepared at every start. */
  modelsCacheDir?: string | undefined;
  logger?: { warn(obj: object, msg: string): void };
}

/** Per-call options beyond the AnalysisEngine interface (tests and tools use the timeout). */
export interface AnalyseOptions {
  signal?: AbortSignal;
  /** Overrides the pool's timeoutMs for this call. */
  timeoutMs?: number;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The analysis was aborted', 'AbortError');
}

/**
 * The analysis engine on a piscina worker-thread pool.
 *
 * Tasks wait in this class's queue and are handed to piscina only when a thread is free, so a
 * task's timeout counts its own run time, never time spent queued behind others. A task that
 * exceeds it is aborted through piscina, which terminates the thread running it and starts a
 * fresh one. Failures come back from the worker as data and are re-thrown here as AppErrors;
 * a thread that dies is INTERNAL for its task and is replaced, the host lives on.
 */
export class EnginePool implements AnalysisEngine {
  private readonly piscina: Piscina<WorkerTask, WorkerResult<AudioFeatures | AudioProbe>>;
  private readonly waiting: Array<{ start: () => void; fail: (error: Error) => void }> = [];
  private running = 0;
  private closed = false;
  /** Why MODELS_DIR is not used (MODELS_REQUIRED=false and a file wrong); undefined when it is or is unset. */
  readonly modelsProblem: string | undefined;
  /** How this engine makes moods and danceability: `signal` or `models:<set>[/r<rank>][/p<n>]` (modelsMethod). */
  readonly method: string;

  constructor(private readonly options: EnginePoolOptions) {
    if (!(options.workers >= 1)) throw new RangeError(`workers must be >= 1, got ${options.workers}`);
    let modelsDir = options.modelsDir;
    const modelsRank = options.modelsRank ?? DEFAULT_RANK;
    let models: PreparedModels | undefined;
    if (modelsDir !== undefined) {
      try {
        // Checked once here, before any thread starts: a bad file stops the start, naming it.
        // The models are rewritten here too (the classifiers' shared windows, each graph
        // factorised), once for every thread and every thread that replaces one.
        models = prepareModelsCached(readModelFiles(modelsDir), modelsRank, options.modelsCacheDir);
      } catch (error) {
        if (!(error instanceof ModelFilesError) || options.modelsRequired !== false) throw error;
        this.modelsProblem = error.message;
        options.logger?.warn({ problems: error.problems }, `${error.message}; MODELS_REQUIRED=false: serving the signal descriptors`);
        modelsDir = undefined;
      }
    }
    const modelsPatches = options.modelsPatches ?? DEFAULT_PATCHES;
    this.method = modelsDir === undefined ? SIGNAL_METHOD : modelsMethod(modelsRank, modelsPatches);
    const { filename, execArgv } = engineThreadFile();
    this.piscina = new Piscina({
      filename,
      execArgv,
      workerData: {
        windowSeconds: options.windowSeconds,
        ...(models === undefined ? {} : { models, modelsPatches }),
      },
      minThreads: options.workers,
      maxThreads: options.workers,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: 1,
    });
    // A thread that fails outside a task (e.g. while starting) must not become an unhandled 'error'.
    this.piscina.on('error', (error: unknown) => options.logger?.warn({ err: error }, 'analysis worker thread failed'));
  }

  get threads(): number {
    return this.options.workers;
  }

  async analyse(input: AudioInput, options: AnalyseOptions = {}): Promise<AudioFeatures> {
    const task: WorkerTask = { kind: 'analyse', input };
    return (await this.run(task, options)) as AudioFeatures;
  }

  async probe(input: AudioInput): Promise<AudioProbe> {
    return (await this.run({ kind: 'probe', input }, {}));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const shutdown = new AppError('SERVICE_UNAVAILABLE', 'the analysis engine is shutting down');
    for (const w of this.waiting.splice(0)) w.fail(shutdown);
    await this.piscina.destroy();
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    if (this.closed) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'the analysis engine is closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.running < this.options.workers) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running++;
          resolve();
        },
        fail: (error: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.start();
  }

  private async run(task: WorkerTask, options: AnalyseOptions): Promise<AudioFeatures | AudioProbe> {
    await this.acquire(options.signal);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    let result: WorkerResult<AudioFeatures | AudioProbe>;
    try {
      result = await this.piscina.run(task, { signal });
    } catch (error) {
      if (timeout.signal.aborted) {
        this.options.logger?.warn({ timeoutMs, kind: task.kind }, 'analysis timed out: worker terminated and replaced');
        throw new AppError('ANALYSIS_TIMEOUT', `the analysis took longer than ${timeoutMs} ms and was stopped`);
      }
      if (options.signal?.aborted) throw abortError(options.signal);
      if (this.closed) throw new AppError('SERVICE_UNAVAILABLE', 'the analysis engine is shutting down');
      this.options.logger?.warn({ err: error, kind: task.kind }, 'analysis worker thread died');
      throw new AppError('INTERNAL', 'the analysis worker stopped unexpectedly', { cause: error });
    } finally {
      clearTimeout(timer);
      this.release();
    }
    if (result.ok) return result.value;
    if (result.error.detail) this.options.logger?.warn({ detail: result.error.detail }, 'analysis failed unexpectedly');
    throw new AppError(result.error.code, result.error.message);
  }
}

/** The engine as the service layer builds it. workers: default the number of cores. */
export function createEnginePool(options: EnginePoolOptions): EnginePool {
  return new EnginePool({ ...options, workers: options.workers > 0 ? options.workers : os.availableParallelism() });
}
