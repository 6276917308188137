import type { JobsOptions, Queue } from 'bullmq';
import { TimeoutStrategy, timeout, type TimeoutPolicy } from 'cockatiel';
import type { Redis, RedisOptions } from 'ioredis';
import { lazily } from '../../core/lazy';
import { ANALYSIS_FAILED_MESSAGE, AppError, ERROR_CODES, shownError, type ErrorCode } from '../../core/errors';
import { ThrottledWarning, type Logger } from '../../core/logger';
import type { StoredAnalysis, TrackMetadata } from '../../core/types';
import type { AnalysisStore } from '../store/store';
import { ioredis } from '../../ops/redis';
import type { AnalysisJobs, JobCounts, JobStatus } from './jobs';

/** BullMQ, required on first use (the consumer's too). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use (src/core/lazy.ts)
export const bullmq = lazily(() => require('bullmq') as typeof import('bullmq'));

/** The BullMQ queue every API node adds to and every worker consumes. */
export const ANALYSIS_QUEUE = 'analysis';

/** What a worker returns: the analysis itself is in the store, not carried through Redis. */
export interface AnalysisJobResult {
  stored: true;
}

/**
 * The job id of a trackKey: the key itself, so every node adding the same key finds the same
 * job. BullMQ refuses ids that read as integers; the rare all-digit key gets a prefix.
 */
export function jobIdOf(trackKey: string): string {
  return /^\d+$/.test(trackKey) ? `key-${trackKey}` : trackKey;
}

function trackKeyOf(jobId: string): string {
  return jobId.startsWith('key-') ? jobId.slice(4) : jobId;
}

/** Codes a retry cannot change: the job fails at once instead of being attempted again. */
const PERMANENT: ReadonlySet<ErrorCode> = new Set([
  'AUDIO_UNDECODABLE', 'NO_AUDIO_SOURCE', 'TRACK_NOT_FOUND', 'INVALID_ARGUMENT', 'NOT_FOUND', 'ANALYSIS_TIMEOUT', 'UPSTREAM_INVALID',
]);

/**
 * The error a job fails with, as BullMQ records it (a message string). The code travels in front
 * of the message so the API node can answer the waiting request with the same code (422 for an
 * undecodable file) rather than a generic failure. Anything but an AppError is masked.
 */
export function toJobError(error: unknown): Error {
  const shown = shownError(error, ANALYSIS_FAILED_MESSAGE);
  const message = `${shown.code}: ${shown.message}`;
  return error instanceof AppError && PERMANENT.has(error.code) ? new (bullmq().UnrecoverableError)(message) : new Error(message);
}

/**
 * How long one exchange with the queue may take, ms. BullMQ waits for its connection to be
 * ready rather than failing while Redis is away, so without a bound a request would hang.
 */
export const QUEUE_OP_TIMEOUT_MS = 2000;

/** A Redis failure as the client sees it: retry shortly. AppErrors pass unchanged. */
function unreachable(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('SERVICE_UNAVAILABLE', 'the analysis queue is unreachable; try again shortly', { cause: error, retryAfterS: 5 });
}

const FAILURE = /^([A-Z_]+): ([\s\S]*)$/;

export function fromJobFailure(failedReason: string | undefined): AppError {
  const m = FAILURE.exec(failedReason ?? '');
  const code = m?.[1] as ErrorCode | undefined;
  if (m && code && (ERROR_CODES as readonly string[]).includes(code)) {
    return new AppError(code, m[2]!, code === 'SERVICE_UNAVAILABLE' || code === 'UPSTREAM_UNAVAILABLE' ? { retryAfterS: 5 } : undefined);
  }
  // BullMQ's own reasons, e.g. "job stalled more than allowable limit" (its workers kept dying).
  return new AppError('INTERNAL', ANALYSIS_FAILED_MESSAGE);
}

export interface BullmqJobsOptions {
  connection: RedisOptions;
  /** REDIS_PREFIX: every key of the queue starts with it. */
  prefix: string;
  /**
   * How often a waiting request checks its job directly, besides listening for events, ms:
   * the safety net for an event missed while Redis reconnected.
   */
  pollMs?: number;
  /** A waiter still unanswered after this long gives up with ANALYSIS_TIMEOUT, ms. */
  maxWaitMs?: number;
}

export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  // Finished jobs are kept for a while: a request arriving just after the end still finds the
  // outcome, and a later submit re-runs the kept job (retry) when the store lacks the row.
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

interface Waiter {
  promise: Promise<StoredAnalysis>;
  resolve(analysis: StoredAnalysis): void;
  reject(error: AppError): void;
  poll?: NodeJS.Timeout;
  deadline: number;
  checking: boolean;
}

/**
 * Analysis jobs on BullMQ (scale-out): the API node's side. A submit adds the job under the
 * key's id (a second add of a pending key is a no-op cluster-wide, so each key is analysed once)
 * and waits for the queue's events (completed, failed), with a slow poll as a safety net. The
 * result is read from the store, where the worker put it. `npm run worker` processes run the jobs.
 *
 * The Redis connections are this class's own rather than BullMQ's: BullMQ's close waits for
 * Redis to answer, which with Redis away is never, and shutdown must not hang on it.
 */
export class BullmqJobs implements AnalysisJobs {
  private readonly queue: Queue<TrackMetadata, AnalysisJobResult>;
  /** Commands: no offline queue, so with Redis away they fail instead of waiting. */
  private readonly redis: Redis;
  /** The blocking read of the events stream. */
  private readonly subscriber: Redis;
  private readonly eventsReady: Promise<void>;
  private readonly waiters = new Map<string, Waiter>();
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  /** Aggressive: BullMQ's calls take no signal, so the caller stops waiting; the call itself may go on. */
  private readonly queueTimeout: TimeoutPolicy = timeout(QUEUE_OP_TIMEOUT_MS, TimeoutStrategy.Aggressive);
  private closed = false;
  /** Connection errors repeat every reconnection attempt. */
  private readonly warning: ThrottledWarning;

  constructor(
    private readonly store: AnalysisStore,
    options: BullmqJobsOptions,
    private readonly logger: Logger,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
    this.warning = new ThrottledWarning(logger);
    this.redis = new (ioredis().Redis)({ ...options.connection, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.redis.on('error', (error) => this.warn(error, 'analysis queue unreachable; new analyses answer 503 until it returns'));
    this.subscriber = new (ioredis().Redis)({ ...options.connection, maxRetriesPerRequest: null });
    this.subscriber.on('error', (error) => this.warn(error, 'analysis queue unreachable; new analyses answer 503 until it returns'));
    this.queue = new (bullmq().Queue)(ANALYSIS_QUEUE, { connection: this.redis, prefix: options.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    this.queue.on('error', (error) => this.warn(error, 'analysis queue error'));
    this.eventsReady = this.listen(this.queue.toKey('events'));
  }

  /**
   * Reads the queue's event stream (what BullMQ's QueueEvents reads) from where it stood at
   * start, and answers waiters on completed and failed events. It resumes from the last event
   * seen after a reconnection, so none is missed while the stream keeps it.
   */
  private listen(stream: string): Promise<void> {
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const loop = async (): Promise<void> => {
      let lastId: string | undefined;
      while (!this.closed) {
        try {
          if (lastId === undefined) {
            const newest = await this.subscriber.xrevrange(stream, '+', '-', 'COUNT', 1);
            lastId = newest[0]?.[0] ?? '0-0';
            ready();
          }
          const read = await this.subscriber.xread('COUNT', 500, 'BLOCK', 5000, 'STREAMS', stream, lastId);
          for (const [, entries] of read ?? []) {
            for (const [id, fields] of entries) {
              lastId = id;
              this.onEvent(fields);
            }
          }
        } catch (error) {
          if (this.closed) return;
          this.warn(error, 'analysis queue events unreachable');
          await new Promise((resolve) => setTimeout(resolve, this.pollMs));
        }
      }
    };
    void loop();
    return started;
  }

  private onEvent(fields: string[]): void {
    const field = (name: string): string | undefined => {
      const i = fields.indexOf(name);
      return i >= 0 && i % 2 === 0 ? fields[i + 1] : undefined;
    };
    const event = field('event');
    const jobId = field('jobId');
    if (!jobId || (event !== 'completed' && event !== 'failed')) return;
    const key = trackKeyOf(jobId);
    const waiter = this.waiters.get(key);
    if (!waiter) return;
    if (event === 'failed') this.finish(key, waiter, fromJobFailure(field('failedReason')));
    else void this.settle(jobId);
  }

  submit(track: TrackMetadata): Promise<StoredAnalysis> {
    const existing = this.waiters.get(track.trackKey);
    if (existing) return existing.promise;
    if (this.closed) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'this node is shutting down; try again', { retryAfterS: 1 }));
    let resolve!: (analysis: StoredAnalysis) => void;
    let reject!: (error: AppError) => void;
    const promise = new Promise<StoredAnalysis>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const waiter: Waiter = { promise, resolve, reject, deadline: Date.now() + this.maxWaitMs, checking: false };
    this.waiters.set(track.trackKey, waiter);
    this.start(track, waiter).catch((error: unknown) => this.finish(track.trackKey, waiter, unreachable(error)));
    return promise;
  }

  async status(trackKey: string): Promise<JobStatus | undefined> {
    return this.bounded(async () => {
      // The state alone (one script call), not the job hash with its data.
      const id = jobIdOf(trackKey);
      const state = await this.queue.getJobState(id);
      if (state === 'active') return { state: 'processing', queuePosition: 0 };
      if (state === 'completed' || state === 'failed' || state === 'unknown') return undefined;
      return { state: 'queued', queuePosition: await this.position(id) };
    });
  }

  async counts(): Promise<JobCounts> {
    const c = await this.bounded(() => this.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active'));
    return { waiting: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0 };
  }

  async ping(): Promise<void> {
    if (this.redis.status !== 'ready') throw new Error(`Redis connection ${this.redis.status}`);
    await this.bounded(() => this.queue.getJobCounts('active'));
  }

  /** Stops waiting (requests still waiting are told to retry) and closes the connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [key, waiter] of this.waiters) {
      this.finish(key, waiter, new AppError('SERVICE_UNAVAILABLE', 'this node is shutting down; try again', { retryAfterS: 1 }));
    }
    this.subscriber.disconnect();
    await this.bounded(() => this.queue.close()).catch(() => undefined);
    this.redis.disconnect();
  }

  /**
   * Listens first, then adds: a job finishing between the two cannot be missed. The events
   * connection is waited for a moment only: if it is not up yet the poll still sees the end.
   */
  private async start(track: TrackMetadata, waiter: Waiter): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.eventsReady, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.pollMs)))]);
    clearTimeout(timer);
    await this.bounded(() => this.enqueue(track));
    waiter.poll = setInterval(() => void this.check(track, waiter), this.pollMs);
    waiter.poll.unref();
  }

  /**
   * Adds the key's job, or finds the one already there. A finished job kept for retention is
   * run again when the store lacks its row (a failure, or a row deleted since): `retry` moves it
   * back to waiting atomically, and only one of several nodes doing it at once succeeds.
   */
  private async enqueue(track: TrackMetadata): Promise<void> {
    const job = await this.queue.add('analyse', track, { jobId: jobIdOf(track.trackKey) });
    const state = await job.getState();
    if (state !== 'completed' && state !== 'failed') return;
    if (state === 'completed' && (await this.settle(job.id!))) return;
    try {
      await job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
    } catch {
      // Another node retried it first, or it was removed: the poll sees where it went.
    }
  }

  /** The poll: what the events would have said, read from the job itself. */
  private async check(track: TrackMetadata, waiter: Waiter): Promise<void> {
    if (waiter.checking || this.waiters.get(track.trackKey) !== waiter) return;
    waiter.checking = true;
    try {
      if (Date.now() > waiter.deadline) {
        this.finish(track.trackKey, waiter, new AppError('ANALYSIS_TIMEOUT', 'the analysis did not finish in time; try again later'));
        return;
      }
      // Every poll reads the state alone; the job itself only when it failed, for its reason.
      const id = jobIdOf(track.trackKey);
      const state = await this.bounded(() => this.queue.getJobState(id));
      if (state === 'failed') {
        const job = await this.bounded(() => this.queue.getJob(id));
        this.finish(track.trackKey, waiter, fromJobFailure(job?.failedReason));
      }
      else if (state === 'completed' || state === 'unknown') {
        // Unknown: removed (retention ended, or by hand); the row may be there, else add it again.
        if (!(await this.settle(jobIdOf(track.trackKey)))) await this.bounded(() => this.enqueue(track));
      }
    } catch (error) {
      // Redis or the store away: keep waiting; the next poll tries again.
      this.logger.debug({ err: error, trackKey: track.trackKey }, 'analysis job check failed');
    } finally {
      waiter.checking = false;
    }
  }

  /** Answers the key's waiter from the store; false when the store has no row for it (yet). */
  private async settle(jobId: string): Promise<boolean> {
    const key = trackKeyOf(jobId);
    const waiter = this.waiters.get(key);
    let stored: StoredAnalysis | undefined;
    try {
      stored = await this.store.get(key);
    } catch (error) {
      if (waiter) this.finish(key, waiter, error instanceof AppError ? error : new AppError('INTERNAL', 'the analysis could not be read'));
      return true;
    }
    if (!stored) return false;
    if (waiter) this.finish(key, waiter, stored);
    return true;
  }

  private finish(key: string, waiter: Waiter, outcome: StoredAnalysis | AppError): void {
    if (this.waiters.get(key) !== waiter) return;
    this.waiters.delete(key);
    if (waiter.poll) clearInterval(waiter.poll);
    if (outcome instanceof AppError) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }

  /** Runs a queue operation within QUEUE_OP_TIMEOUT_MS; failure or timeout is SERVICE_UNAVAILABLE. */
  private async bounded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await this.queueTimeout.execute(operation);
    } catch (error) {
      throw unreachable(error);
    }
  }

  private warn(error: unknown, msg: string): void {
    this.warning.warn({ err: error }, msg);
  }

  /** Jobs ahead of a waiting one: workers take from the tail of the wait list. */
  private async position(jobId: string): Promise<number> {
    const client = await this.queue.client;
    const key = this.queue.toKey('wait');
    const [index, length] = await Promise.all([client.lpos(key, jobId), client.llen(key)]);
    return index === null ? length : Math.max(0, length - 1 - index);
  }
}
