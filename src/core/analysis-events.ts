import type { ErrorCode } from './errors';
import type { StoredAnalysis } from './types';

/*
 * "An analysis ended", as every process of a deployment hears it: webhooks record their
 * deliveries from it and GraphQL subscriptions push it to their clients.
 */

export const ANALYSIS_COMPLETED = 'analysis.completed';
export const ANALYSIS_FAILED = 'analysis.failed';
/** A stored analysis was swapped for a new one (re-analysis): every cache of it is dropped. */
export const ANALYSIS_REPLACED = 'analysis.replaced';

interface EventFields {
  /**
   * The same for every process that hears this event, and for a completed analysis the same
   * whoever announces it (it is derived from the stored row): a webhook's delivery of it is
   * recorded once however many times it is heard.
   */
  id: string;
  trackKey: string;
  /** ISO-8601 time the analysis ended. */
  at: string;
}

/** The analysis of a key is stored. */
export interface AnalysisCompleted extends EventFields {
  type: typeof ANALYSIS_COMPLETED;
  analysis: StoredAnalysis;
}

/** The analysis of a key failed for good (no attempt is left). */
export interface AnalysisFailed extends EventFields {
  type: typeof ANALYSIS_FAILED;
  /** The code and client-safe message a waiting request is answered with. */
  error: { code: ErrorCode; message: string };
}

/**
 * The stored analysis of a key was replaced by a new one (an operator's re-analysis). Every
 * process drops what it holds of the key (the analysis store's LRU, the REST bodies and ETags
 * made from it, GraphQL's answer caches). Not a webhook event: no request is answered by it.
 */
export interface AnalysisReplaced extends EventFields {
  type: typeof ANALYSIS_REPLACED;
  analysis: StoredAnalysis;
  /** The engine string of the analysis replaced. */
  previousEngine: string;
}

/** An analysis ended (what webhooks deliver). */
export type AnalysisEnded = AnalysisCompleted | AnalysisFailed;

export type AnalysisEvent = AnalysisEnded | AnalysisReplaced;

/** Where an event was heard: in the process that ran the analysis, or in another one. */
export type EventOrigin = 'local' | 'remote';

/**
 * Told of every analysis event of the deployment. A promise it returns is waited for before the
 * event is told to the other processes (it never fails the publisher: its failure is logged).
 */
export type AnalysisEventListener = (event: AnalysisEvent, origin: EventOrigin) => void | Promise<void>;
