import { randomUUID } from 'node:crypto';
import { methodOf } from '../core/analysis-method';
import { ANALYSIS_FAILED_MESSAGE, invalidArgument, isAppError, shownError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { StoredAnalysis, TrackMetadata } from '../core/types';
import type { AnalysisEvents } from './events/analysis-events.channel';
import { replacedEvent } from './events/analysis-events.channel';
import type { AnalysisStore, StoredSummary } from './store/store';

/** Stored analyses listed per store read. */
const PAGE = 500;
/** Finished re-analyses whose progress is still answered (the admin endpoint). */
const KEPT_JOBS = 10;
/** Errors that say the track's audio is gone (its old analysis is kept and reported). */
const UNAVAILABLE = new Set(['NO_AUDIO_SOURCE', 'TRACK_NOT_FOUND', 'NOT_FOUND']);

/** The engine analyses are made by now: its version (ALGORITHM_VERSION) and method (`signal`, `models:<set>[/r<rank>][/p<n>]`). */
export interface CurrentEngine {
  /** The engine string a new analysis records (`trackgraph-engine/11`, `… models:…`). */
  engine: string;
  version: number;
  method: string;
}

export interface ReanalyseRequest {
  /** Only analyses of an engine version below this one (method ignored); default: every analysis not made by the current engine. */
  olderThan?: number;
  /** Lists and counts what would be redone, analyses nothing. */
  dryRun?: boolean;
}

export interface ReanalyseProblem {
  trackKey: string;
  artist: string;
  trackName: string;
  code: string;
  message: string;
}

/** Where a re-analysis stands. */
export interface ReanalyseProgress {
  state: 'listing' | 'running' | 'done';
  dryRun: boolean;
  /** Analyses to redo (known once listing is over). */
  total: number;
  /** Of which handled, whatever the outcome. */
  done: number;
  replaced: number;
  /** Audio no longer to be had: the old analysis is kept. */
  unavailable: ReanalyseProblem[];
  /** The new analysis failed: the old one is kept. */
  failed: ReanalyseProblem[];
  /** How many of the analyses to redo each engine made. */
  byEngine: Record<string, number>;
  startedAt: string;
  finishedAt?: string;
}

/** Where a stored track's audio may be found again (the library's catalogue, search's metadata cache). */
export interface TrackLocator {
  locate(stored: StoredSummary): Promise<TrackMetadata>;
}

/** Analyses one track again from the audio source its stored analysis came from (AnalysisRunner). */
export interface Reanalyser {
  analyseAgain(track: TrackMetadata, sourceName: string): Promise<StoredAnalysis>;
}

/** The version of an engine string of this engine (`trackgraph-engine/<n>…`), or undefined for another server's. */
export function engineVersion(engine: string): number | undefined {
  const match = /^trackgraph-engine\/(\d+)(?:\s|$)/.exec(engine);
  return match ? Number(match[1]) : undefined;
}

/**
 * Is an analysis made by `engine` to be redone? With `olderThan`: its version is below it.
 * Otherwise: its version is below the current one, or it is the current version by another
 * method (models where the server now uses the signal formulas, or the reverse). Another
 * server's analyses, and a newer engine's (a server of a later build shares the store), never.
 */
export function isToRedo(engine: string, current: CurrentEngine, olderThan?: number): boolean {
  const version = engineVersion(engine);
  if (version === undefined) return false;
  if (olderThan !== undefined) return version < olderThan;
  return version < current.version || (version === current.version && methodOf(engine) !== current.method);
}

/** `11` or `trackgraph-engine/11`: the version --older-than and the admin endpoint take. */
export function parseOlderThan(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(?:trackgraph-engine\/)?(\d{1,6})$/.exec(text);
  if (!match) throw invalidArgument('olderThan must be an engine version: a whole number such as 11, or trackgraph-engine/11');
  return Number(match[1]);
}

/**
 * Re-analysis: the stored analyses an older engine (or another method) made are analysed again
 * from their audio and replaced, each atomically (the old row stays until the new one is
 * written), and each replacement is announced as `analysis.replaced` so every process drops
 * what it holds of the key. Resumable by nature: a replaced analysis is current, so a second
 * run skips it; an analysis whose audio is gone keeps its old values and is reported.
 * At most `concurrency` analyses at once (the engine pool's workers).
 */
export class ReanalyseService {
  constructor(
    private readonly store: AnalysisStore,
    private readonly locator: TrackLocator,
    private readonly reanalyser: Reanalyser,
    private readonly events: AnalysisEvents,
    /** The engine new analyses are made by. */
    readonly current: CurrentEngine,
    private readonly options: { concurrency: number },
    private readonly logger: Logger,
  ) {}

  /** Runs a re-analysis to its end; `onProgress` is told after the listing and after each track. */
  async run(request: ReanalyseRequest, onProgress?: (progress: ReanalyseProgress) => void): Promise<ReanalyseProgress> {
    return this.runInto(newProgress(request), request, onProgress);
  }

  private async runInto(progress: ReanalyseProgress, request: ReanalyseRequest, onProgress?: (progress: ReanalyseProgress) => void): Promise<ReanalyseProgress> {
    const todo = await this.listToRedo(request.olderThan);
    progress.total = todo.length;
    for (const s of todo) progress.byEngine[s.engine] = (progress.byEngine[s.engine] ?? 0) + 1;
    progress.state = 'running';
    onProgress?.(progress);
    if (!request.dryRun) {
      const queue = [...todo];
      const worker = async (): Promise<void> => {
        for (let next = queue.shift(); next && !this.stopping; next = queue.shift()) {
          await this.redo(next, progress);
          progress.done++;
          onProgress?.(progress);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(this.options.concurrency, queue.length)) }, worker));
    }
    progress.state = 'done';
    progress.finishedAt = new Date().toISOString();
    const byKey = (a: ReanalyseProblem, b: ReanalyseProblem) => (a.trackKey < b.trackKey ? -1 : 1);
    progress.unavailable.sort(byKey);
    progress.failed.sort(byKey);
    return progress;
  }

  /** Every stored analysis to redo, walked in pages by trackKey. */
  private async listToRedo(olderThan: number | undefined): Promise<StoredSummary[]> {
    const todo: StoredSummary[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.store.listOtherEngines(this.current.engine, { limit: PAGE, ...(after !== undefined ? { after } : {}) });
      todo.push(...page.filter((s) => isToRedo(s.engine, this.current, olderThan)));
      if (page.length < PAGE) return todo;
      after = page[page.length - 1]!.trackKey;
    }
  }

  private async redo(stored: StoredSummary, progress: ReanalyseProgress): Promise<void> {
    const problem = (error: unknown): ReanalyseProblem => ({ trackKey: stored.trackKey, artist: stored.artist, trackName: stored.trackName, ...shownError(error, ANALYSIS_FAILED_MESSAGE) });
    let fresh: StoredAnalysis;
    try {
      const track = await this.locator.locate(stored);
      fresh = await this.reanalyser.analyseAgain(track, stored.source);
    } catch (error) {
      if (isAppError(error) && UNAVAILABLE.has(error.code)) {
        progress.unavailable.push(problem(error));
        this.logger.warn({ trackKey: stored.trackKey, source: stored.source, err: error }, 'reanalyse: audio no longer available; the stored analysis is kept');
      } else {
        progress.failed.push(problem(error));
        this.logger.error({ trackKey: stored.trackKey, source: stored.source, err: error }, 'reanalyse: analysis failed; the stored analysis is kept');
      }
      return;
    }
    try {
      if (!(await this.store.replace(fresh))) throw new Error('the stored analysis is gone');
    } catch (error) {
      progress.failed.push(problem(error));
      this.logger.error({ trackKey: stored.trackKey, err: error }, 'reanalyse: the new analysis could not be stored; the old one is kept');
      return;
    }
    progress.replaced++;
    this.logger.info({ trackKey: stored.trackKey, from: stored.engine, to: fresh.features.engine }, 'analysis replaced');
    await this.events.publish(replacedEvent(fresh, stored.engine));
  }

  /**
   * Analyses one stored track again from the audio `track.audio` names (a song whose file changed
   * on the music server) and replaces its analysis, announced as any replacement is. A track not
   * stored yet is stored. Throws what the analysis throws, the stored analysis kept.
   */
  async redoFrom(track: TrackMetadata): Promise<StoredAnalysis> {
    const source = track.audio?.source;
    if (!source) throw invalidArgument(`track ${track.trackKey} names no audio to analyse again`);
    const old = await this.store.get(track.trackKey);
    const fresh = await this.reanalyser.analyseAgain(track, source);
    if (!old) {
      await this.store.save(fresh);
      return (await this.store.get(track.trackKey)) ?? fresh;
    }
    if (!(await this.store.replace(fresh))) throw new Error('the stored analysis is gone');
    this.logger.info({ trackKey: track.trackKey, from: old.features.engine, to: fresh.features.engine, source }, 'analysis replaced: its audio changed');
    await this.events.publish(replacedEvent(fresh, old.features.engine));
    return fresh;
  }

  // The admin endpoint's jobs: one at a time in this process, their progress kept in memory.
  private readonly jobs = new Map<string, ReanalyseProgress>();
  private running: { id: string; progress: ReanalyseProgress; done: Promise<void> } | undefined;
  private stopping = false;

  /**
   * Starts a re-analysis in the background, or answers the one running (started: false): two at
   * once would redo the same tracks twice.
   */
  start(request: ReanalyseRequest): { id: string; started: boolean; progress: ReanalyseProgress } {
    if (this.running) return { id: this.running.id, progress: this.running.progress, started: false };
    const id = `rea_${randomUUID().replace(/-/g, '')}`;
    const progress = newProgress(request);
    this.jobs.set(id, progress);
    for (const old of [...this.jobs.keys()].slice(0, Math.max(0, this.jobs.size - KEPT_JOBS))) this.jobs.delete(old);
    const done = this.runInto(progress, request)
      .catch((error: unknown) => {
        progress.failed.push({ trackKey: '', artist: '', trackName: '', ...shownError(error, ANALYSIS_FAILED_MESSAGE) });
        progress.state = 'done';
        progress.finishedAt = new Date().toISOString();
        this.logger.error({ err: error, job: id }, 'reanalyse: the re-analysis stopped');
      })
      .then(() => {
        this.running = undefined;
      });
    this.running = { id, progress, done };
    return { id, started: true, progress };
  }

  /** The progress of a job this process started (undefined when unknown or long finished). */
  job(id: string): ReanalyseProgress | undefined {
    return this.jobs.get(id);
  }

  /**
   * Shutdown: no track is started any more, and the ones started are finished (replaced or
   * kept); a job stopped so is `done` with done < total, and the next run redoes the rest.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  /** Waits for the running job, if any (shutdown and tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }
}

function newProgress(request: ReanalyseRequest): ReanalyseProgress {
  return { state: 'listing', dryRun: request.dryRun === true, total: 0, done: 0, replaced: 0, unavailable: [], failed: [], byEngine: {}, startedAt: new Date().toISOString() };
}
