import type { Segment, StoredAnalysis } from '../../core/types';

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
  /**
   * One read for many keys; keys absent from the store are absent from the map. With
   * `{ segments: false }` the analyses' segments are not read (browse and recommendations answer
   * without them): an analysis read so is marked (unreadSegments) and reads them when asked.
   */
  getMany(trackKeys: readonly string[], options?: ReadOptions): Promise<Map<string, StoredAnalysis>>;
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

export interface ReadOptions {
  /** Whether to read the segments of each analysis (default true). */
  segments?: boolean;
}

/** The segments of an analysis read without them, by the read that left them out. */
const unread = new WeakMap<StoredAnalysis, () => Promise<Segment[] | undefined>>();

/**
 * Marks an analysis read without its segments (timeline.segments absent whether it has any or
 * not): `load` reads them (undefined: it has none). Returns the analysis.
 */
export function withUnreadSegments(analysis: StoredAnalysis, load: () => Promise<Segment[] | undefined>): StoredAnalysis {
  unread.set(analysis, load);
  return analysis;
}

/**
 * How to read the segments of an analysis that was read without them (a browse page, a
 * recommendation), for the readers that show them when asked (GraphQL's timeline.segments);
 * undefined when the analysis was read whole.
 */
export function unreadSegments(analysis: StoredAnalysis): (() => Promise<Segment[] | undefined>) | undefined {
  return unread.get(analysis);
}
