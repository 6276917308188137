import { CompiledQuery, sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { StoredAnalysis } from '../../core/types';
import type { AnalysesTable, Database, DatabaseSchema } from '../../db/database';
import { ORDERABLE_COLUMNS } from '../../db/migrations';
import { fromRow } from './sql.store';

/** A numeric column tracks can be filtered by ranges of and ordered by. */
export type RangeColumn = (typeof ORDERABLE_COLUMNS)[number];
/** What a page can be ordered by: a numeric column, or `seq` (insertion order). */
export type OrderColumn = RangeColumn | 'seq';
export type Direction = 'asc' | 'desc';

export interface ColumnRange {
  min?: number;
  max?: number;
}

/** Filters in column terms, already validated by the service. */
export interface TracksFilter {
  ranges?: Partial<Record<RangeColumn, ColumnRange>>;
  keys?: readonly number[];
  mode?: number;
  timeSignatures?: readonly number[];
  /** Case-insensitive substring of the artist. */
  artist?: string;
  /** Case-insensitive substring of the title. */
  trackName?: string;
}

export interface TracksPageRequest {
  filter: TracksFilter;
  order: { column: OrderColumn; direction: Direction };
  /** Keyset position: the order value and seq of the last row already seen. */
  after?: { value: number; seq: number };
  limit: number;
}

export interface TracksPageRow {
  analysis: StoredAnalysis;
  seq: number;
  /** The row's value of the order column (seq when ordered by seq). */
  value: number;
}

/** The columns similarity needs, without the timeline. */
export interface FeatureRow {
  trackKey: string;
  tempo: number;
  key: number;
  mode: number;
  energy: number;
  liveness: number;
  danceability: number;
  instrumentalness: number;
  speechiness: number;
  valence: number;
  arousal: number;
  approachability: number;
  engagement: number;
  happy: number;
  sad: number;
  relaxed: number;
  aggressive: number;
}

export interface CandidatesRequest {
  tempoMin: number;
  tempoMax: number;
  /** Only these (key, mode) pairs; absent: any. */
  keyModes?: readonly { key: number; mode: number }[];
  excludeTrackKey: string;
  limit: number;
}

/** Browsing stored analyses: filtered, ordered, keyset-paginated pages and similarity candidates. */
export interface TracksQuery {
  page(request: TracksPageRequest): Promise<TracksPageRow[]>;
  count(filter: TracksFilter): Promise<number>;
  candidates(request: CandidatesRequest): Promise<FeatureRow[]>;
  /** The database's plan for `page(request)` (SQLite EXPLAIN QUERY PLAN / Postgres EXPLAIN), one line per step. */
  explainPage(request: TracksPageRequest): Promise<string[]>;
}

/** Matches below which a range filter's index drives a SQLite page (and its matches are sorted). */
const DRIVING_RANGE_CAP = 2000;

type Select = SelectQueryBuilder<DatabaseSchema, 'analyses', object>;
type Eb = ExpressionBuilder<DatabaseSchema, 'analyses'>;

/**
 * TracksQuery on the analyses table, SQLite or Postgres. Pages are keyset-paginated on
 * (order column, seq): seq is unique and only grows, so rows inserted while a client pages can
 * appear ahead of or behind its position but never shift the rows it has not seen yet, and each
 * page is an index range read (migration 0002 indexes every order column with seq).
 */
export class SqlTracksQuery implements TracksQuery {
  constructor(private readonly database: Database) {}

  async page(request: TracksPageRequest): Promise<TracksPageRow[]> {
    const rows = await (await this.pageQuery(request)).execute();
    const column = request.order.column;
    return rows.map((row) => ({
      analysis: fromRow(row),
      seq: Number(row.seq),
      value: Number((row as Record<string, unknown>)[column]),
    }));
  }

  async count(filter: TracksFilter): Promise<number> {
    const row = await this.filtered(this.database.db.selectFrom('analyses'), filter)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async candidates(request: CandidatesRequest): Promise<FeatureRow[]> {
    let query = this.database.db
      .selectFrom('analyses')
      .select([
        'track_key as trackKey', 'tempo', 'key', 'mode', 'energy', 'liveness', 'danceability', 'instrumentalness',
        'speechiness', 'valence', 'arousal', 'approachability', 'engagement', 'mood_happy as happy',
        'mood_sad as sad', 'mood_relaxed as relaxed', 'mood_aggressive as aggressive',
      ])
      .where('tempo', '>=', request.tempoMin)
      .where('tempo', '<=', request.tempoMax)
      .where('track_key', '!=', request.excludeTrackKey);
    const pairs = request.keyModes;
    if (pairs) {
      if (pairs.length === 0) return [];
      query = query.where((eb) => eb.or(pairs.map((p) => eb.and([eb('key', '=', p.key), eb('mode', '=', p.mode)]))));
    }
    // No ORDER BY: with one, the planner would walk the tempo index to avoid a sort instead of
    // reading one (key, mode, tempo) range per pair; the caller ranks the candidates itself.
    const rows = await query.limit(request.limit).execute();
    return rows.map((r) => {
      const out = {} as Record<string, unknown>;
      for (const [k, v] of Object.entries(r)) out[k] = k === 'trackKey' ? v : Number(v);
      return out as unknown as FeatureRow;
    });
  }

  async explainPage(request: TracksPageRequest): Promise<string[]> {
    const compiled = (await this.pageQuery(request)).compile();
    if (this.database.dialect === 'sqlite') {
      const result = await this.database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      return result.rows.map((r) => r.detail);
    }
    const result = await this.database.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((r) => r['QUERY PLAN']);
  }

  /**
   * The page query, with its access path chosen on SQLite. SQLite's planner takes any range
   * filter as selective (statistics do not tell it how many rows a range holds), so it reads a
   * loose range's matches and sorts them all. Here the most selective range filter is measured
   * instead: a count of its index range capped at DRIVING_RANGE_CAP (an index-only read). Under
   * the cap, that range's index drives and its few matches are sorted; otherwise the order index
   * is walked and the filters are checked on the way, which finds a page quickly because the
   * filters are loose. The other terms are written `+column` so the planner cannot use them.
   * Postgres estimates ranges from its histograms and chooses well by itself.
   */
  private async pageQuery(request: TracksPageRequest) {
    const { column, direction } = request.order;
    const driver = this.database.dialect === 'sqlite' ? await this.drivingRange(request) : undefined;
    const pinned = this.database.dialect === 'sqlite';
    // Which column's index may serve the query: the driving range's, else the order column's.
    const usable = (c: string): boolean => !pinned || (driver ? c === driver : c === column || c === 'seq');
    const col = (c: OrderColumn) => (usable(c) ? sql.ref(c) : sql`+${sql.ref(c)}`);
    let query = this.filtered(this.database.db.selectFrom('analyses'), request.filter, usable).selectAll();
    const after = request.after;
    if (after) {
      const op = sql.raw(direction === 'asc' ? '>' : '<');
      query =
        column === 'seq'
          ? query.where(sql<boolean>`${col('seq')} ${op} ${after.seq}`)
          : query.where(sql<boolean>`(${col(column)}, ${col('seq')}) ${op} (${after.value}, ${after.seq})`);
    }
    if (column !== 'seq') query = query.orderBy(col(column), direction);
    return query.orderBy(col('seq'), direction).limit(request.limit);
  }

  /** The range filter whose index should drive a SQLite page, when one is selective enough. */
  private async drivingRange(request: TracksPageRequest): Promise<RangeColumn | undefined> {
    let best: { column: RangeColumn; rows: number } | undefined;
    for (const [column, range] of Object.entries(request.filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]) {
      if (!range || column === request.order.column) continue;
      let probe = this.database.db.selectFrom('analyses').select(sql<number>`1`.as('one'));
      if (range.min !== undefined) probe = probe.where(column, '>=', range.min);
      if (range.max !== undefined) probe = probe.where(column, '<=', range.max);
      const row = await this.database.db
        .selectFrom(probe.limit(DRIVING_RANGE_CAP).as('matches'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const rows = Number(row?.n ?? 0);
      if (rows < DRIVING_RANGE_CAP && (!best || rows < best.rows)) best = { column, rows };
    }
    return best?.column;
  }

  private filtered<Q extends Select>(query: Q, filter: TracksFilter, usable: (column: string) => boolean = () => true): Q {
    let q = query as Select;
    const col = (c: RangeColumn | 'key' | 'mode' | 'time_signature') => (usable(c) ? sql.ref(c) : sql`+${sql.ref(c)}`);
    for (const [column, range] of Object.entries(filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]) {
      if (range?.min !== undefined) q = q.where(col(column), '>=', range.min);
      if (range?.max !== undefined) q = q.where(col(column), '<=', range.max);
    }
    if (filter.keys) q = q.where(col('key'), 'in', [...filter.keys]);
    if (filter.mode !== undefined) q = q.where(col('mode'), '=', filter.mode);
    if (filter.timeSignatures) q = q.where(col('time_signature'), 'in', [...filter.timeSignatures]);
    if (filter.artist !== undefined) q = q.where((eb) => this.contains(eb, 'artist', filter.artist!));
    if (filter.trackName !== undefined) q = q.where((eb) => this.contains(eb, 'track_name', filter.trackName!));
    return q as Q;
  }

  /**
   * Case-insensitive substring: ILIKE on Postgres (every letter), LIKE on SQLite (case-insensitive
   * for ASCII letters only). The text's own % _ \ are escaped, so they match themselves.
   */
  private contains(eb: Eb, column: keyof AnalysesTable & ('artist' | 'track_name'), text: string) {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = this.database.dialect === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    return sql<boolean>`${eb.ref(column)} ${op} ${pattern} escape '\\'`;
  }
}
