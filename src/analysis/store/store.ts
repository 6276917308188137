import type { StoredAnalysis } from '../../core/types';

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
  /** Number of stored analyses. */
  count(): Promise<number>;
  /** Throws when the database cannot be reached (used by readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
