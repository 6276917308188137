import type { StoredAnalysis } from '../../core/types';

/** What listOtherEngines tells of a stored analysis: enough to find its audio again. */
export interface StoredSummary {
  trackKey: string;
  artist: string;
  trackName: string;
  engine: string;
  source: string;
}

/**
 * Persistent analyses, one row per trackKey. Implementations: SQLite (embedded) and Postgres
 * (scale-out), both through the same Kysely repository and migrations.
 */
export interface AnalysisStore {
  get(trackKey: string): Promise<StoredAnalysis | undefined>;
  /** One read for many keys; keys absent from the store are absent from the map. */
  getMany(trackKeys: readonly string[]): Promise<Map<string, StoredAnalysis>>;
  /**
   * Stores an analysis atomically. The first analysis of a key wins: a second save of the same
   * key leaves the stored row as it is and returns false, so racing workers store it once.
   */
  save(analysis: StoredAnalysis): Promise<boolean>;
  /**
   * Swaps the stored analysis of `analysis.trackKey` for this one, in one statement: readers see
   * the old row or the new one, never a mix, and the old one stays until the new one is written.
   * Returns false (nothing written) when no analysis of the key is stored.
   */
  replace(analysis: StoredAnalysis): Promise<boolean>;
  /**
   * A page of the stored analyses whose engine string differs from `currentEngine` and was made
   * by this engine (`trackgraph-engine/…`; another server's analyses are not listed), ordered by
   * trackKey, starting after `after`: what a re-analysis walks through, resumable from its
   * last key.
   */
  listOtherEngines(currentEngine: string, page: { after?: string; limit: number }): Promise<StoredSummary[]>;
  /** Number of stored analyses. */
  count(): Promise<number>;
  /** Throws when the database cannot be reached (used by readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
