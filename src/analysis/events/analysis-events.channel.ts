import { hash, randomUUID } from 'node:crypto';
import { ANALYSIS_COMPLETED, ANALYSIS_FAILED, ANALYSIS_REPLACED, type AnalysisCompleted, type AnalysisEvent, type AnalysisEventListener, type AnalysisFailed, type AnalysisReplaced, type EventOrigin } from '../../core/analysis-events';
import { ANALYSIS_FAILED_MESSAGE, shownError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { StoredAnalysis, TrackMetadata } from '../../core/types';
import type { AnalysisTask } from '../jobs/jobs';

/**
 * The one source of "an analysis ended" that webhooks and GraphQL subscriptions listen to. The
 * process that ran the analysis (the API node with in-process jobs, the worker with BullMQ)
 * publishes; every listener of every process of the deployment hears it: this process's first
 * (origin 'local'), waited for, then the others' (origin 'remote'). So what the local listeners
 * write (the webhook deliveries) is in the store when the other processes hear the event.
 * Embedded: an in-process emitter. Several processes: Redis pub/sub (redis.analysis-events.ts).
 */
export interface AnalysisEvents {
  /** Tells this process's listeners, waits for them, then the other processes'. Never rejects. */
  publish(event: AnalysisEvent): Promise<void>;
  /** Hears every event of the deployment until the returned function is called. */
  subscribe(listener: AnalysisEventListener): () => void;
  close(): Promise<void>;
}

/** The listeners of one process; a listener that throws is logged and the others are still told. */
export class LocalAnalysisEvents implements AnalysisEvents {
  private readonly listeners = new Set<AnalysisEventListener>();

  constructor(private readonly logger: Logger) {}

  publish(event: AnalysisEvent): Promise<void> {
    return this.tell(event, 'local');
  }

  /** Tells every listener, and resolves when the promises they returned have settled. Never rejects. */
  async tell(event: AnalysisEvent, origin: EventOrigin): Promise<void> {
    const failed = (error: unknown) => this.logger.error({ err: error, event: event.type, trackKey: event.trackKey }, 'analysis event listener failed');
    const pending: Promise<void>[] = [];
    for (const listener of [...this.listeners]) {
      try {
        const result = listener(event, origin);
        if (result) pending.push(result.catch(failed));
      } catch (error) {
        failed(error);
      }
    }
    await Promise.all(pending);
  }

  subscribe(listener: AnalysisEventListener): () => void {
    // A wrapper of its own, so the same function subscribed twice is two subscriptions.
    const own: AnalysisEventListener = (event, origin) => listener(event, origin);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}

/**
 * The event of a stored analysis. Its id is derived from the stored row (key and analysis
 * time), so two processes announcing the same row (a job run twice, two nodes racing for one
 * key) announce one event.
 */
export function completedEvent(analysis: StoredAnalysis, now = Date.now()): AnalysisCompleted {
  const id = `evt_${hash('sha256', `${analysis.trackKey}\u0000${analysis.analysedAt}`, 'hex').slice(0, 32)}`;
  return { type: ANALYSIS_COMPLETED, id, trackKey: analysis.trackKey, at: new Date(now).toISOString(), analysis };
}

/** The event of an analysis that failed for good, with the code and message its requests were given. */
export function failedEvent(trackKey: string, error: unknown, now = Date.now()): AnalysisFailed {
  const safe = shownError(error, ANALYSIS_FAILED_MESSAGE);
  return { type: ANALYSIS_FAILED, id: `evt_${randomUUID().replace(/-/g, '')}`, trackKey, at: new Date(now).toISOString(), error: safe };
}

/** The event of a stored analysis replaced by `analysis` (re-analysis); its id is derived from the new row. */
export function replacedEvent(analysis: StoredAnalysis, previousEngine: string, now = Date.now()): AnalysisReplaced {
  const id = `evt_${hash('sha256', `replaced\u0000${analysis.trackKey}\u0000${analysis.analysedAt}`, 'hex').slice(0, 32)}`;
  return { type: ANALYSIS_REPLACED, id, trackKey: analysis.trackKey, at: new Date(now).toISOString(), analysis, previousEngine };
}

/**
 * The job body, announcing how each run ends before it counts as done (the webhook deliveries
 * are recorded by then): for in-process jobs, where a failure is final (a later request starts a
 * new job). BullMQ workers announce from their job instead, where they know whether an attempt
 * is left.
 */
export function announcing(task: AnalysisTask, events: AnalysisEvents): AnalysisTask {
  return async (track: TrackMetadata) => {
    let stored: StoredAnalysis;
    try {
      stored = await task(track);
    } catch (error) {
      await events.publish(failedEvent(track.trackKey, error));
      throw error;
    }
    await events.publish(completedEvent(stored));
    return stored;
  };
}
