import type { ConnectionOptions, Job, Worker } from 'bullmq';
import type { Logger } from '../../core/logger';
import type { TrackMetadata } from '../../core/types';
import { completedEvent, failedEvent, type AnalysisEvents } from '../events/analysis-events.channel';
import { ANALYSIS_QUEUE, bullmq, toJobError, type AnalysisJobResult } from './bullmq.jobs';
import type { AnalysisTask } from './jobs';

export interface QueueConsumerOptions {
  connection: ConnectionOptions;
  /** REDIS_PREFIX, the same as the API nodes'. */
  prefix: string;
  /** Jobs this process runs at once (WORKER_CONCURRENCY). */
  concurrency: number;
  /**
   * WORKER_LOCK_MS: a job whose worker stops renewing its lock (killed, frozen) for this long is
   * given to another worker. Renewal runs on this process's event loop, which the engine's
   * threads leave free, so it can be far shorter than an analysis.
   */
  lockMs: number;
  /** Told how each job ends: stored, or failed with no attempt left. */
  events?: AnalysisEvents;
}

/**
 * The consuming side of the analysis queue (`npm run worker`): runs the job body (fetch audio,
 * analyse, store) for jobs added by any API node. The store keeps the first save of a key, so a
 * job run twice (its first worker died after storing) still stores once.
 */
export class QueueConsumer {
  private readonly worker: Worker<TrackMetadata, AnalysisJobResult>;

  constructor(
    task: AnalysisTask,
    options: QueueConsumerOptions,
    private readonly logger: Logger,
  ) {
    this.worker = new (bullmq().Worker)<TrackMetadata, AnalysisJobResult>(
      ANALYSIS_QUEUE,
      async (job: Job<TrackMetadata>) => {
        const context = { jobId: job.id, trackKey: job.data.trackKey, attempt: job.attemptsMade + 1 };
        this.logger.debug(context, 'analysis job started');
        try {
          const stored = await task(job.data);
          // Before the job is done: a worker killed before its deliveries are recorded leaves
          // the job to another worker, which finds the row stored and announces it again.
          await options.events?.publish(completedEvent(stored));
          return { stored: true };
        } catch (error) {
          this.logger.warn({ ...context, err: error }, 'analysis job failed');
          const failure = toJobError(error);
          // BullMQ tries again unless the error is final or this was the last attempt.
          const final = failure instanceof bullmq().UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
          if (final) await options.events?.publish(failedEvent(job.data.trackKey, error));
          throw failure;
        }
      },
      {
        connection: options.connection,
        prefix: options.prefix,
        concurrency: options.concurrency,
        lockDuration: options.lockMs,
        stalledInterval: options.lockMs,
        // A job whose worker died twice is still tried a third time before failing for good.
        maxStalledCount: 2,
        autorun: false,
      },
    );
    this.worker.on('error', (error) => this.logger.warn({ err: error }, 'analysis worker error'));
  }

  start(): void {
    this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'analysis worker stopped'));
  }

  async waitUntilReady(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  /** Throws unless the worker's Redis connection is up (ioredis reconnects it by itself). */
  async ping(): Promise<void> {
    const client = await this.worker.client;
    if (client.status !== 'ready') throw new Error(`Redis connection ${client.status}`);
  }

  /** Takes no new job and waits for the running ones to finish (graceful shutdown). */
  async close(): Promise<void> {
    await this.worker.close();
  }
}
