import { CompiledQuery, sql, type ExpressionBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
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
/** Rows of the order index a SQLite page walks before trying the filters' indexes instead. */
const WALK_WINDOW = 2000;

type Row = Selectable<AnalysesTable>;
type PageQuery = SelectQueryBuilder<DatabaseSchema, 'analyses', Row>;

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
    const rows = await this.pageRows(request, (query) => query.execute());
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
    const plans: string[] = [];
    // The queries page() would run, in order (a bounded walk may be followed by another).
    await this.pageRows(request, async (query) => {
      const compiled = query.compile();
      const explain = this.database.dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await this.database.db.executeQuery<{ detail?: string; 'QUERY PLAN'?: string }>(
        CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]),
      );
      if (plans.length > 0) plans.push('then:');
      plans.push(...result.rows.map((r) => r.detail ?? r['QUERY PLAN'] ?? ''));
      return query.execute();
    });
    return plans;
  }

  /**
   * Runs the page through `run`. Postgres chooses its plan from its statistics. SQLite's planner
   * takes every range filter as selective (it cannot tell how many rows a range holds), so it
   * would read a loose range's tens of thousands of matches and sort them; here the access path
   * is chosen instead, cheapest first:
   *  1. a range filter whose index range holds fewer than DRIVING_RANGE_CAP rows (counted by an
   *     index-only read, capped) drives, and its few matches are sorted;
   *  2. with no range filter on another field, the order index is walked, filters checked on
   *     the way (there is no other index to fall back on);
   *  3. else it is walked for at most WALK_WINDOW rows (loose filters fill a page long before),
   *     and if that does not fill the page (filters loose alone but rare together, rare where
   *     the order starts, or a last page) the range filter with the fewest rows drives: its
   *     matches' (value, seq) are sorted, then the page's rows read by seq.
   * The terms that must not drive are written `+column`, which the planner cannot use an index for.
   */
  private async pageRows(request: TracksPageRequest, run: (query: PageQuery) => Promise<Row[]>): Promise<Row[]> {
    if (this.database.dialect !== 'sqlite') return run(this.pageQuery(request, { pinned: false }));
    const ranges = this.otherRanges(request);
    const selective = await this.smallestRange(ranges, DRIVING_RANGE_CAP);
    if (selective && selective.rows < DRIVING_RANGE_CAP) return run(this.pageQuery(request, { pinned: true, driver: selective.column }));
    if (ranges.length === 0) return run(this.pageQuery(request, { pinned: true }));
    const walked = await run(this.pageQuery(request, { pinned: true, window: WALK_WINDOW }));
    if (walked.length >= request.limit) return walked;
    const driver = (await this.smallestRange(ranges, Number.POSITIVE_INFINITY))!;
    // Many matches to sort: sort their (value, seq) only, then read the page's rows by seq.
    const { column } = request.order;
    const keys = this.pageQuery(request, { pinned: true, driver: driver.column }).clearSelect().select(column === 'seq' ? ['seq'] : ['seq', column]);
    const seqs = (await run(keys as unknown as PageQuery)).map((r) => Number(r.seq));
    if (seqs.length === 0) return [];
    const rows = await run(this.database.db.selectFrom('analyses').selectAll().where('seq', 'in', seqs) as PageQuery);
    const position = new Map(seqs.map((seq, i) => [seq, i]));
    return rows.sort((a, b) => position.get(Number(a.seq))! - position.get(Number(b.seq))!);
  }

  /** The page query; pinned (SQLite): only `driver`'s index, else the order index, may be used. */
  private pageQuery(request: TracksPageRequest, path: { pinned: boolean; driver?: RangeColumn; window?: number }): PageQuery {
    const { column, direction } = request.order;
    const usable = (c: string): boolean => !path.pinned || (path.driver ? c === path.driver : c === column || c === 'seq');
    const col = (c: OrderColumn) => (usable(c) ? sql.ref(c) : sql`+${sql.ref(c)}`);
    const after = request.after;
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    const keyset = (q: Select): Select =>
      !after
        ? q
        : column === 'seq'
          ? q.where(sql<boolean>`${col('seq')} ${op} ${after.seq}`)
          : q.where(sql<boolean>`(${col(column)}, ${col('seq')}) ${op} (${after.value}, ${after.seq})`);
    const ordered = (q: Select): Select =>
      (column === 'seq' ? q : q.orderBy(col(column), direction)).orderBy(col('seq'), direction);
    if (path.window !== undefined) {
      // The next `window` rows of the order index, then the filters on those alone.
      const window = ordered(keyset(this.database.db.selectFrom('analyses'))).selectAll().limit(path.window);
      const outer = this.database.db.selectFrom(window.as('walk')) as unknown as Select;
      return ordered(this.filtered(outer, request.filter)).selectAll().limit(request.limit) as PageQuery;
    }
    return ordered(keyset(this.filtered(this.database.db.selectFrom('analyses'), request.filter, usable)))
      .selectAll()
      .limit(request.limit) as PageQuery;
  }

  private otherRanges(request: TracksPageRequest): [RangeColumn, ColumnRange][] {
    return (Object.entries(request.filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]).filter(
      (e): e is [RangeColumn, ColumnRange] => e[1] !== undefined && e[0] !== request.order.column,
    );
  }

  /** The range filter holding the fewest rows, each counted up to `cap` from its own index. */
  private async smallestRange(ranges: [RangeColumn, ColumnRange][], cap: number): Promise<{ column: RangeColumn; rows: number } | undefined> {
    let best: { column: RangeColumn; rows: number } | undefined;
    for (const [column, range] of ranges) {
      let probe = this.database.db.selectFrom('analyses').select(sql<number>`1`.as('one'));
      if (range.min !== undefined) probe = probe.where(column, '>=', range.min);
      if (range.max !== undefined) probe = probe.where(column, '<=', range.max);
      const counted = Number.isFinite(cap) ? probe.limit(cap) : probe;
      const row = await this.database.db
        .selectFrom(counted.as('matches'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const rows = Number(row?.n ?? 0);
      if (!best || rows < best.rows) best = { column, rows };
    }
    return best;
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
