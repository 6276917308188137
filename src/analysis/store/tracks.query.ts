import { CompiledQuery, sql, type ExpressionBuilder, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import { foldForSearch } from '../../core/fold';
import type { StoredAnalysis } from '../../core/types';
import { guardConnection, type AnalysesTable, type Database, type DatabaseSchema } from '../../db/database';
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
  /** Substring of the artist, both folded by foldForSearch (case, accents, compatibility forms). */
  artist?: string;
  /** Substring of the title, both folded by foldForSearch. */
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
  /** Inclusive tempo bands, any of (similar() reads one around the tempo, half and double it). */
  tempo: readonly { min: number; max: number }[];
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
/** Rows of the order index a page walks before trying the filters' indexes instead. */
const WALK_WINDOW = 2000;
/**
 * Relative cost, on SQLite, of reading one more index entry's rowid into a candidate set versus
 * checking one candidate row (reading it by rowid and testing the filters): a further set is read
 * only while it is cheaper than checking the candidates already found (measured at 100,000
 * rows: about 0.1 µs of CPU per entry through json_group_array, 2–3 µs per candidate row read by
 * rowid, filtered and sorted; BENCHMARKS.md, "Browse").
 */
const ENTRY_COST = 1;
const ROW_COST = 20;

type Row = Selectable<AnalysesTable>;

/** What filters and orders read: every column but the stored timeline and provenance. */
const NARROW_COLUMNS = [...ORDERABLE_COLUMNS, 'key', 'mode', 'time_signature', 'artist_fold', 'title_fold', 'seq'] as const;
/**
 * What a page returns on SQLite: every column but the folded names (artist_fold, title_fold), which
 * are only matched; SQLite then decodes no column it does not need. Postgres reads `*`: a select
 * list equal to the table's columns lets its scans hand rows on without projecting each one
 * (measured at 100,000 rows: this list cost the range-filter cases about 1 ms more server CPU).
 */
const PAGE_COLUMNS = [
  'seq', 'track_key', 'artist', 'track_name', 'duration_ms', 'tempo', 'key', 'mode', 'time_signature', 'loudness', 'energy',
  'liveness', 'danceability', 'instrumentalness', 'speechiness', 'valence', 'arousal', 'approachability', 'engagement',
  'mood_happy', 'mood_sad', 'mood_relaxed', 'mood_aggressive', 'tempo_confidence', 'key_confidence', 'mode_confidence',
  'time_signature_confidence', 'timeline', 'engine', 'source', 'analysed_at',
] as const satisfies readonly (keyof AnalysesTable)[];
// Every column is either returned or a folded name (a new column must be placed here).
const _pageColumnsComplete: Exclude<keyof AnalysesTable, (typeof PAGE_COLUMNS)[number] | 'artist_fold' | 'title_fold'> extends never ? true : never = true;
void _pageColumnsComplete;
type PageQuery = SelectQueryBuilder<DatabaseSchema, 'analyses', Row>;

type Select = SelectQueryBuilder<DatabaseSchema, 'analyses', object>;
type Eb = ExpressionBuilder<DatabaseSchema, 'analyses'>;
type Executor = Kysely<DatabaseSchema>;
/** Runs one statement of a page on `db` (the pool, or a transaction); explainPage also records its plan. */
type Exec = <R>(query: CompiledQuery<R>, db: Executor) => Promise<R[]>;

/** A node of a Postgres EXPLAIN (FORMAT JSON) plan, the fields read here. */
interface PlanNode {
  'Node Type': string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** The rows of one filter's index range: counted, and read as a set of rowids (SQLite). */
interface IndexedSet {
  label: string;
  index: string;
  where: RawBuilder<boolean>;
  count: number;
}

/**
 * TracksQuery on the analyses table, SQLite or Postgres. Pages are keyset-paginated on
 * (order column, seq): seq is unique and only grows, so rows inserted while a client pages can
 * appear ahead of or behind its position but never shift the rows it has not seen yet, and each
 * page is an index range read (migration 0002 indexes every order column with seq).
 */
export class SqlTracksQuery implements TracksQuery {
  constructor(private readonly database: Database) {}

  async page(request: TracksPageRequest): Promise<TracksPageRow[]> {
    const rows = await guardConnection(() => this.pageRows(request, async (query, db) => (await db.executeQuery(query)).rows));
    const column = request.order.column;
    return rows.map((row) => ({
      analysis: fromRow(row),
      seq: Number(row.seq),
      value: Number((row as Record<string, unknown>)[column]),
    }));
  }

  async count(filter: TracksFilter): Promise<number> {
    const row = await guardConnection(() =>
      this.filtered(this.database.db.selectFrom('analyses'), filter)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst(),
    );
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
      .where('track_key', '!=', request.excludeTrackKey);
    const pairs = request.keyModes;
    const bands = request.tempo;
    if (bands.length === 0 || pairs?.length === 0) return [];
    // One term per (key, mode) pair and tempo band: each an index range of (key, mode, tempo).
    query = query.where((eb) =>
      eb.or(
        (pairs ?? [undefined]).flatMap((p) =>
          bands.map((b) =>
            eb.and([
              ...(p ? [eb('key', '=', p.key), eb('mode', '=', p.mode)] : []),
              eb('tempo', '>=', b.min),
              eb('tempo', '<=', b.max),
            ]),
          ),
        ),
      ),
    );
    // No ORDER BY: with one, the planner would walk the tempo index to avoid a sort instead of
    // reading one (key, mode, tempo) range per pair; the caller ranks the candidates itself.
    const rows = await guardConnection(() => query.limit(request.limit).execute());
    return rows.map((r) => {
      const out = {} as Record<string, unknown>;
      for (const [k, v] of Object.entries(r)) out[k] = k === 'trackKey' ? v : Number(v);
      return out as unknown as FeatureRow;
    });
  }

  async explainPage(request: TracksPageRequest): Promise<string[]> {
    const plans: string[] = [];
    // Every statement page() would run, in order (a bounded walk may be followed by others).
    await this.pageRows(request, async (query, db) => {
      const explain = this.database.dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await db.executeQuery<{ detail?: string; 'QUERY PLAN'?: string }>(
        CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]),
      );
      if (plans.length > 0) plans.push('then:');
      plans.push(...result.rows.map((r) => r.detail ?? r['QUERY PLAN'] ?? ''));
      return (await db.executeQuery(query)).rows;
    });
    return plans;
  }

  /**
   * Runs the statements of a page through `exec`, choosing the access path. A page is first an
   * ordered read of the order index, the filters checked on the rows it walks: loose filters fill
   * a page within a few rows. When the filters are rare together, or rare where the order starts,
   * or the page is the last one, that walk would go on through most of the index; so unless no
   * other filter has an index, it is bounded to WALK_WINDOW rows, and a page it does not fill is
   * answered from the filters' indexes instead:
   *  - Postgres: the same query, planned without ordered index scans or a sequential scan
   *    (`enable_indexscan`, `enable_seqscan` off for that statement, heap tuples costed higher):
   *    the planner reads its filters' indexes as bitmaps, ANDed, and sorts the matches. Its own choice
   *    would be the ordered scan, as it takes the filters as independent and expects matches all
   *    along the order (the bounded walk is only run when that is its choice).
   *  - SQLite (see sqlitePage): the filters' index ranges are intersected as rowid sets.
   */
  private async pageRows(request: TracksPageRequest, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    if (this.database.dialect === 'sqlite') return this.sqlitePage(request, exec);
    const plain = this.pageQuery(request, { pinned: false }).compile();
    if (this.otherRanges(request).length === 0 && !request.filter.keys) return exec(plain, db);
    // The planner's own choice, unless it is to walk the order index with the filters checked on
    // the way: then that walk is bounded, and the filters' indexes answer what it leaves.
    if (!(await this.postgresWalksOrder(plain))) return exec(plain, db);
    const walked = await exec(this.pageQuery(request, { pinned: false, window: WALK_WINDOW }).compile(), db);
    if (walked.length >= request.limit) return walked;
    return db.transaction().execute(async (trx) => {
      // Neither the ordered walk again nor a read of the whole table (a filter here has an index).
      // The walk just showed the filters rarer together than the planner's independence estimate,
      // so reading one more index into the bitmap pays more than it thinks: heap tuples are
      // costed 10x (cpu_tuple_cost 0.1), which makes it AND the filters' bitmaps (measured on the
      // empty case at 100,000 rows: 4 ms of server CPU instead of 18). No parallel workers for a page.
      await sql`select set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true),
        set_config('cpu_tuple_cost', '0.1', true), set_config('max_parallel_workers_per_gather', '0', true)`.execute(trx);
      return exec(plain, trx);
    });
  }

  /** Whether Postgres would answer `query` by an ordered index scan (its plan, not run). */
  private async postgresWalksOrder(query: CompiledQuery): Promise<boolean> {
    const result = await this.database.db.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const raw = result.rows[0]?.['QUERY PLAN'];
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    let node: PlanNode | undefined = doc[0]?.Plan;
    while (node && node['Node Type'] === 'Limit') node = node.Plans?.[0];
    return node?.['Node Type'] === 'Index Scan' && node.Filter !== undefined;
  }

  /**
   * SQLite's planner takes every range filter as selective (it cannot tell how many rows a range
   * holds), so it would read a loose range's tens of thousands of matches and sort them; here the
   * access path is chosen instead, from index-only counts of each filter that has an index (a
   * range, the key list) and of the order index from the cursor on. Costs are in index entries
   * read (ENTRY_COST) and table rows read (ROW_COST), cheapest first:
   *  1. a range filter whose index range holds fewer than DRIVING_RANGE_CAP rows drives, and its
   *     few matches are sorted;
   *  2. with no range filter on another field, the order index is walked, filters checked on the
   *     way (there is no other index to fall back on);
   *  3. else the order index is walked for as many rows as the filters' counts say should fill
   *     the page four times over if they were independent (at most WALK_WINDOW);
   *  4. if that does not fill the page (filters rare together, or rare where the order starts, or
   *     a last page), the filters' index ranges are read as rowid sets, smallest first, each an
   *     index-only read, and intersected here (a bitmap over the smaller), while reading one more
   *     set costs less than finishing with the candidates found so far. Finishing is the cheaper of:
   *     reading the candidates' rows by rowid, checking every filter again and sorting them; or
   *     walking the order index from the cursor on, testing each entry's rowid against the
   *     candidates before its row is read (an index-only test), until the page is full.
   * The terms that must not drive are written `+column`, which the planner cannot use an index for.
   */
  private async sqlitePage(request: TracksPageRequest, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    const ranges = this.otherRanges(request);
    if (ranges.length === 0) return exec(this.pageQuery(request, { pinned: true }).compile(), db);
    const sets: IndexedSet[] = [];
    for (const [column, range] of ranges) {
      sets.push(await this.counted({ label: column, index: `analyses_by_${column}`, where: rangeCondition(column, range) }, exec));
    }
    const driver = sets.reduce((best, s) => (s.count < best.count ? s : best));
    if (driver.count < DRIVING_RANGE_CAP) {
      return this.byRowid(this.pageQuery(request, { pinned: true, driver: driver.label as RangeColumn, narrow: true }), exec);
    }
    const { keys, mode } = request.filter;
    if (keys) {
      const where = mode === undefined
        ? sql<boolean>`${sql.ref('key')} in (${sql.join(keys)})`
        : sql<boolean>`${sql.ref('key')} in (${sql.join(keys)}) and ${sql.ref('mode')} = ${mode}`;
      sets.push(await this.counted({ label: 'key', index: 'analyses_by_key_mode_tempo', where }, exec));
    }
    // The table's rows: max(seq), an estimate read from the end of its index.
    const [last] = await exec(sql<{ n: number | null }>`select max(seq) as n from analyses`.compile(db), db);
    const total = Number(last?.n ?? 0);
    const density = sets.reduce((d, s) => d * (total > 0 ? Math.min(1, s.count / total) : 0), 1);
    const window = density > 0 ? Math.min(WALK_WINDOW, Math.max(request.limit, Math.ceil((4 * request.limit) / density))) : 0;
    if (window > 0) {
      const walked = await this.byRowid(this.pageQuery(request, { pinned: true, window, narrow: true }), exec);
      if (walked.length >= request.limit) return walked;
    }
    const order = (await this.orderSet(request, exec))?.count ?? total;
    const ordered = [...sets].sort((a, b) => a.count - b.count);
    let ids = await this.readIds(ordered[0]!, exec);
    const finishing = (): number => Math.min(ids.length * ROW_COST, order * ENTRY_COST);
    for (const next of ordered.slice(1)) {
      if (ids.length === 0 || next.count * ENTRY_COST >= finishing()) break;
      ids = intersect(ids, await this.readIds(next, exec));
    }
    if (ids.length === 0) return [];
    if (ids.length * ROW_COST <= order * ENTRY_COST) {
      return this.byRowid(this.pageQuery(request, { pinned: true, rowids: ids, finish: 'sort', narrow: true }), exec);
    }
    return exec(this.pageQuery(request, { pinned: true, rowids: ids, finish: 'walk' }).compile(), db);
  }

  /** The order index's rows from the cursor on, within the order field's own range, counted; none if neither is given. */
  private async orderSet(request: TracksPageRequest, exec: Exec): Promise<IndexedSet | undefined> {
    const { column, direction } = request.order;
    const own = column === 'seq' ? undefined : request.filter.ranges?.[column];
    const after = request.after;
    if (!own && !after) return undefined;
    const terms: RawBuilder<boolean>[] = [];
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    if (own) terms.push(rangeCondition(column as RangeColumn, own));
    if (after) terms.push(column === 'seq' ? sql<boolean>`seq ${op} ${after.seq}` : sql<boolean>`(${sql.ref(column)}, seq) ${op} (${after.value}, ${after.seq})`);
    const index = column === 'seq' ? 'analyses_seq' : `analyses_by_${column}`;
    return this.counted({ label: 'order', index, where: sql.join(terms, sql` and `) as RawBuilder<boolean> }, exec);
  }

  /** A set counted on its index (index-only). */
  private async counted(set: Omit<IndexedSet, 'count'>, exec: Exec): Promise<IndexedSet> {
    const [row] = await exec(
      sql<{ n: number }>`select count(*) as n from analyses indexed by ${sql.raw(set.index)} where ${set.where}`.compile(this.database.db),
      this.database.db,
    );
    return { ...set, count: Number(row?.n ?? 0) };
  }

  /** The rowids of a set, from its index alone. */
  private async readIds(set: IndexedSet, exec: Exec): Promise<number[]> {
    const [row] = await exec(
      sql<{ ids: string }>`select json_group_array(rowid) as ids from analyses indexed by ${sql.raw(set.index)} where ${set.where}`.compile(this.database.db),
      this.database.db,
    );
    return JSON.parse(row?.ids ?? '[]') as number[];
  }

  /**
   * The page query; pinned (SQLite): only `driver`'s index, else the order index, may be used;
   * with `rowids`, no index but the table's own: those rows are read and sorted.
   */
  private pageQuery(
    request: TracksPageRequest,
    path: { pinned: boolean; driver?: RangeColumn; window?: number; rowids?: number[]; finish?: 'sort' | 'walk'; narrow?: boolean },
  ): PageQuery {
    const { column, direction } = request.order;
    const usable = (c: string): boolean =>
      !path.pinned || (path.finish === 'sort' ? false : path.driver ? c === path.driver : c === column || c === 'seq');
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
      const inner = ordered(keyset(this.database.db.selectFrom('analyses')));
      // Windows are narrow on SQLite (rowids and the filtered columns) and whole rows on Postgres.
      const window = (path.narrow ? inner.select([sql<number>`rowid`.as('rid'), ...NARROW_COLUMNS]) : inner.selectAll()).limit(path.window);
      const outer = ordered(this.filtered(this.database.db.selectFrom(window.as('walk')) as unknown as Select, request.filter));
      return (path.narrow ? outer.select('rid' as never) : this.returned(outer)).limit(request.limit) as unknown as PageQuery;
    }
    let base = this.database.db.selectFrom('analyses') as Select;
    // Sort: the candidates are looked up by rowid. Walk: `+rowid`, tested on each order index entry.
    const rowid = path.finish === 'walk' ? sql`+rowid` : sql`rowid`;
    if (path.rowids) base = base.where(sql<boolean>`${rowid} in (select value from json_each(${JSON.stringify(path.rowids)}))`);
    const query = ordered(keyset(this.filtered(base, request.filter, usable)));
    return (path.narrow ? query.select(sql<number>`rowid`.as('rid')) : this.returned(query)).limit(request.limit) as unknown as PageQuery;
  }

  /** The columns a page returns: PAGE_COLUMNS on SQLite, `*` on Postgres (see PAGE_COLUMNS). */
  private returned(query: Select): Select {
    return (this.database.dialect === 'postgres' ? query.selectAll() : query.select(PAGE_COLUMNS as never)) as Select;
  }

  /**
   * Runs a `narrow` page query (the page's rowids, in order), then reads those rows: a query that
   * sorts, or walks a window, then carries only the columns it tests, not the stored timeline.
   */
  private async byRowid(query: PageQuery, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    const rids = (await exec(query.compile(), db)).map((r) => Number((r as unknown as { rid: number }).rid));
    if (rids.length === 0) return [];
    const rows = await exec(
      sql<Row & { rid: number }>`select rowid as rid, ${sql.join(PAGE_COLUMNS.map((c) => sql.ref(c)))} from analyses where rowid in (${sql.join(rids)})`.compile(db),
      db,
    );
    const position = new Map(rids.map((rid, i) => [rid, i]));
    return rows.sort((a, b) => position.get(Number(a.rid))! - position.get(Number(b.rid))!).map(({ rid: _rid, ...row }) => row as Row);
  }

  private otherRanges(request: TracksPageRequest): [RangeColumn, ColumnRange][] {
    return (Object.entries(request.filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]).filter(
      (e): e is [RangeColumn, ColumnRange] => e[1] !== undefined && e[0] !== request.order.column,
    );
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
   * Substring of a folded name: the text is folded as the stored column was (foldForSearch: case,
   * diacritics, compatibility forms), so both databases match alike, every script included. LIKE
   * on text already folded (no ILIKE, no collation involved); the text's own % _ \ are escaped,
   * so they match themselves.
   */
  private contains(eb: Eb, column: 'artist' | 'track_name', text: string) {
    const folded = column === 'artist' ? 'artist_fold' : 'title_fold';
    const pattern = `%${foldForSearch(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<boolean>`${eb.ref(folded)} like ${pattern} escape '\\'`;
  }
}

function rangeCondition(column: RangeColumn, range: ColumnRange): RawBuilder<boolean> {
  const terms: RawBuilder<boolean>[] = [];
  if (range.min !== undefined) terms.push(sql<boolean>`${sql.ref(column)} >= ${range.min}`);
  if (range.max !== undefined) terms.push(sql<boolean>`${sql.ref(column)} <= ${range.max}`);
  return sql.join(terms, sql` and `) as RawBuilder<boolean>;
}

/** The ids in both lists (in b's order), through a bitmap over the smaller one. */
function intersect(a: number[], b: number[]): number[] {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  let max = 0;
  for (const id of small) if (id > max) max = id;
  const bits = new Uint8Array(max + 1);
  for (const id of small) bits[id] = 1;
  const out: number[] = [];
  for (const id of large) if (id <= max && bits[id] === 1) out.push(id);
  return out;
}
