import { CompiledQuery, sql, type ExpressionBuilder, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import { foldForSearch } from '../../core/fold';
import type { StoredAnalysis } from '../../core/types';
import { guardConnection, type AnalysesTable, type Database, type DatabaseSchema } from '../../db/database';
import { DESCRIPTOR_COLUMNS, type DescriptorColumn, type DescriptorColumnValues, type OrderableColumn } from '../../db/columns';
import { FEATURE_INDEX_COLUMNS } from '../../db/migrations';
import { tagId } from '../../db/tag-rows';
import { SegmentsReader } from './sql.store';

/**
 * The same SQLite statement reading `analyses` through the index analyses_features (INDEXED BY:
 * the planner still chooses how to read it, but not another index). Kysely has no INDEXED BY, so
 * it is added after the statement's one `from "analyses"`; a statement with none or several is a
 * programming error, not a silent fallback.
 */
export function indexedByFeatures<R>(compiled: CompiledQuery<R>): CompiledQuery<R> {
  const from = 'from "analyses"';
  const at = compiled.sql.indexOf(from);
  if (at < 0 || compiled.sql.indexOf(from, at + 1) >= 0) throw new Error(`indexedByFeatures: the statement needs exactly one ${from}: ${compiled.sql}`);
  const text = `${compiled.sql.slice(0, at + from.length)} indexed by "analyses_features"${compiled.sql.slice(at + from.length)}`;
  return CompiledQuery.raw(text, [...compiled.parameters]);
}

/** A numeric column tracks can be filtered by ranges of and ordered by. */
export type RangeColumn = OrderableColumn;
/** What a page can be ordered by: a numeric column, or `seq` (insertion order). */
export type OrderColumn = RangeColumn | 'seq';
export type Direction = 'asc' | 'desc';

export interface ColumnRange {
  min?: number;
  max?: number;
}

/**
 * A condition on the tagger's tags (analysis_tags): the analysis has one of the tags named (most
 * often one), with a probability in the range, among its `top` most probable tags when given.
 */
export interface TagCondition {
  names: readonly string[];
  min?: number;
  max?: number;
  top?: number;
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
  /** Tag conditions, every one of which must hold. */
  tags?: readonly TagCondition[];
}

/**
 * A page's order: a column of analyses, or the probability of one of the tagger's tags (its name
 * as the tagger gives it), which holds only the analyses that have the tag.
 */
export type PageOrder = { column: OrderColumn; direction: Direction } | { tag: string; direction: Direction };

export interface TracksPageRequest {
  filter: TracksFilter;
  order: PageOrder;
  /** Keyset position: the order value and seq of the last row already seen. */
  after?: { value: number; seq: number };
  limit: number;
}

/** A page ordered by a column of analyses. */
type ColumnPageRequest = TracksPageRequest & { order: { column: OrderColumn; direction: Direction } };
/** A page ordered by a tag's probability. */
type TagPageRequest = TracksPageRequest & { order: { tag: string; direction: Direction } };

export interface TracksPageRow {
  analysis: StoredAnalysis;
  seq: number;
  /** The row's value of the order: the column's (seq when ordered by seq), or the tag's probability in thousandths. */
  value: number;
}

/** The columns similarity needs, without the timeline: tempo, key, mode and every descriptor column. */
export type FeatureRow = { trackKey: string; tempo: number; key: number; mode: number } & DescriptorColumnValues;

/**
 * FeatureRow and the other columns recommendations rank by; with a tag condition in the filter,
 * the highest probability among the first condition's tags.
 */
export type RankRow = FeatureRow & { loudness: number; timeSignature: number; durationMs: number; tagProbability?: number };

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
  /** Up to `limit` rows matching a filter, newest first, with the columns recommendations rank by (no timeline). */
  featureRows(filter: TracksFilter, limit: number): Promise<RankRow[]>;
  /** The database's plan for `featureRows(filter, limit)`, one line per step. */
  explainFeatureRows(filter: TracksFilter, limit: number): Promise<string[]>;
  /** The database's plan for `page(request)` (SQLite EXPLAIN QUERY PLAN / Postgres EXPLAIN), one line per step. */
  explainPage(request: TracksPageRequest): Promise<string[]>;
}

type Row = Selectable<AnalysesTable>;

/** What an index found for a page: a seq, in the page's order, with its order value. */
export interface IndexedPageRow {
  seq: number;
  value: number;
}

/**
 * An in-memory index pages can be found in (BrowseIndex, browse.index.ts): the seqs of a page
 * and their order values; undefined for what it does not answer (a text filter).
 */
export interface BrowseIndex {
  readonly size: number;
  /** Loaded (with `tags`) and up to date: true; false while it loads, the database answering. */
  fresh(tags: readonly string[]): Promise<boolean>;
  page(request: TracksPageRequest): IndexedPageRow[] | undefined;
  count(filter: TracksFilter): number | undefined;
  candidates(request: CandidatesRequest): FeatureRow[];
  featureRows(filter: TracksFilter, limit: number): RankRow[] | undefined;
}

/**
 * Rows of the order index a filtered page reads before it stops walking and lets the filters'
 * indexes answer (see pageRows): 2,000 fill a page of 21 when one row in 95 matches, and cost
 * about 2 ms of CPU on SQLite when they do not. On SQLite it is also the most rows a page reads
 * by rowid from a range filter's matches: no more than the walk would.
 */
const WALK_WINDOW = 2000;

/** SQLite: most seqs of the order index read per statement by sqliteTagSetWalk (about 4 ms of CPU). */
const SEQ_WALK_CHUNK = 20_000;

/** SQLite: rows of analyses_seq a recommendations pool is walked through, per row of the pool, before the filter's index is read instead (featureRowsRead). */
const FEATURE_WALK = 4;

/**
 * What a page returns on SQLite: every column but the folded names (artist_fold, title_fold), which
 * are only matched; SQLite then decodes no column it does not need. Postgres reads `*`: a select
 * list equal to the table's columns lets its scans hand rows on without projecting each one
 * (measured at 100,000 rows: this list cost the range-filter cases about 1 ms more server CPU).
 */
const FIXED_PAGE_COLUMNS = [
  'seq', 'track_key', 'artist', 'track_name', 'duration_ms', 'tempo', 'key', 'mode', 'time_signature', 'loudness',
  'tempo_confidence', 'key_confidence', 'mode_confidence', 'time_signature_confidence', 'timeline', 'engine', 'source', 'analysed_at',
] as const satisfies readonly (keyof AnalysesTable)[];
// Every column is returned, a folded name, or a descriptor's (a new fixed column must be placed here).
const _pageColumnsComplete: Exclude<keyof AnalysesTable, (typeof FIXED_PAGE_COLUMNS)[number] | DescriptorColumn | 'artist_fold' | 'title_fold' | 'revision'> extends never ? true : never = true;
void _pageColumnsComplete;
const PAGE_COLUMNS: readonly (keyof AnalysesTable)[] = [...FIXED_PAGE_COLUMNS, ...DESCRIPTOR_COLUMNS];

type Select = SelectQueryBuilder<DatabaseSchema, 'analyses', object>;
type Eb = ExpressionBuilder<DatabaseSchema, 'analyses'>;
/** Runs one statement of a page (on the pool or a transaction); explainPage also records its plan. */
type Exec = <R>(query: CompiledQuery<R>, db: Kysely<DatabaseSchema>) => Promise<R[]>;
/** A node of a Postgres EXPLAIN (FORMAT JSON) plan, the fields read here. */
interface PlanNode {
  'Node Type': string;
  Filter?: string;
  Plans?: PlanNode[];
}

/**
 * TracksQuery on the analyses table, SQLite or Postgres. Pages are keyset-paginated on
 * (order column, seq): seq is unique and only grows, so rows inserted while a client pages can
 * appear ahead of or behind its position but never shift the rows it has not seen yet, and each
 * page is an index range read (migration 0002 indexes every order column with seq).
 */
export class SqlTracksQuery implements TracksQuery {
  /** A page's analyses are read without their segments (analysis_segments): each reads them from here when asked. */
  private readonly segments: SegmentsReader;

  /**
   * `index`: the in-memory browse index (browse.index.ts), shared by the queries of one process:
   * once loaded, pages, counts, candidates and recommendation pools are found there, and only a
   * page's rows are read from the database; before it is loaded, and for filters on text, the
   * statements below answer.
   */
  constructor(
    private readonly database: Database,
    private readonly index?: BrowseIndex,
  ) {
    this.segments = new SegmentsReader(database);
  }

  /** The index, when there is one and it is loaded (with the tags a filter and an order name) and up to date. */
  private async indexed(filter?: TracksFilter, order?: PageOrder): Promise<BrowseIndex | undefined> {
    if (!this.index) return undefined;
    const tags = [...(filter?.tags ?? []).flatMap((t) => t.names), ...(order && 'tag' in order ? [order.tag] : [])];
    return (await guardConnection(() => this.index!.fresh(tags))) ? this.index : undefined;
  }

  async page(request: TracksPageRequest): Promise<TracksPageRow[]> {
    const index = await this.indexed(request.filter, request.order);
    const found = index?.page(request);
    if (found) {
      const rows = await guardConnection(() => this.rowsBySeq(found.map((f) => f.seq), (query, db) => db.executeQuery(query).then((r) => r.rows)));
      const values = new Map(found.map((f) => [f.seq, f.value]));
      return rows.map((row) => ({ analysis: this.segments.unread(row), seq: Number(row.seq), value: values.get(Number(row.seq))! }));
    }
    const rows = await guardConnection(() => this.pageRows(request, async (query, db) => (await db.executeQuery(query)).rows));
    const column = 'tag' in request.order ? 'tag_milli' : request.order.column;
    return rows.map((row) => {
      const { tag_milli: _milli, ...analysisRow } = row as Row & { tag_milli?: number };
      return { analysis: this.segments.unread(analysisRow), seq: Number(row.seq), value: Number((row as Record<string, unknown>)[column]) };
    });
  }

  async count(filter: TracksFilter): Promise<number> {
    const counted = (await this.indexed(filter))?.count(filter);
    if (counted !== undefined) return counted;
    const row = await guardConnection(() =>
      this.filtered(this.database.db.selectFrom('analyses'), filter)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst(),
    );
    return Number(row?.n ?? 0);
  }

  async candidates(request: CandidatesRequest): Promise<FeatureRow[]> {
    const index = await this.indexed();
    if (index) return index.candidates(request);
    let query = this.database.db
      .selectFrom('analyses')
      .select(['track_key as trackKey', 'tempo', 'key', 'mode', ...DESCRIPTOR_COLUMNS])
      .where('track_key', '!=', request.excludeTrackKey);
    const pairs = request.keyModes;
    const bands = request.tempo;
    if (bands.length === 0 || pairs?.length === 0) return [];
    // One term per (key, mode) pair and tempo band, each a range of an index on (key, mode, tempo):
    // on SQLite analyses_features, which holds every column selected here (no table row is read).
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

  async featureRows(filter: TracksFilter, limit: number): Promise<RankRow[]> {
    const pooled = (await this.indexed(filter))?.featureRows(filter, limit);
    if (pooled) return pooled;
    const rows = await guardConnection(() => this.featureRowsRead(filter, limit, async (query) => (await this.database.db.executeQuery(query)).rows));
    return rows.map((r) => {
      const out = {} as Record<string, unknown>;
      for (const [k, v] of Object.entries(r)) out[k] = k === 'trackKey' ? v : Number(v);
      return out as unknown as RankRow;
    });
  }

  async explainFeatureRows(filter: TracksFilter, limit: number): Promise<string[]> {
    const index = await this.indexed(filter);
    if (index?.featureRows(filter, limit)) return [`browse index (memory): a scan of ${index.size} analyses`];
    const plans: string[] = [];
    await this.featureRowsRead(filter, limit, async (query) => {
      const plan = await this.explain(query);
      if (plans.length > 0) plans.push('then:');
      plans.push(...plan);
      return (await this.database.db.executeQuery(query)).rows;
    });
    return plans;
  }

  /**
   * The statements of featureRows. Postgres: one, as its planner chooses (it ANDs the ranges'
   * bitmaps). SQLite: newest first is a walk of analyses_seq, each row read and checked, which is
   * cheap while the filter matches densely and reads the whole table when it matches a few rows or
   * none (ranges that correlated data never meets together: 1.2 s at 1,000,000 analyses). So the walk
   * is bounded to the newest FEATURE_WALK × limit rows; a pool it does not fill is read from
   * analyses_features instead (every range column but the newest descriptors, and seq): the
   * matching seqs from the index alone, the newest `limit` of them kept while it is read, then
   * their rows.
   */
  private async featureRowsRead(filter: TracksFilter, limit: number, exec: (query: CompiledQuery<Record<string, unknown>>) => Promise<Record<string, unknown>[]>): Promise<Record<string, unknown>[]> {
    const db = this.database.db;
    const plain = this.featureRowsQuery(filter, limit);
    if (this.database.dialect !== 'sqlite' || !hasFilter(filter)) return exec(plain);
    const [bound] = await exec(sql<{ seq: number }>`select seq from analyses order by seq desc limit 1 offset ${FEATURE_WALK * limit - 1}`.compile(db));
    if (!bound) return exec(plain);
    const walked = await exec(this.featureRowsQuery(filter, limit, sql<boolean>`seq >= ${Number(bound.seq)}`));
    if (walked.length >= limit) return walked;
    const matches = this.filtered(db.selectFrom('analyses'), filter).select('seq').orderBy('seq', 'desc').limit(limit).compile();
    const seqs = await exec(indexedByFeatures(matches));
    if (seqs.length === 0) return [];
    return exec(this.featureRowsQuery(filter, limit, sql<boolean>`seq in (select value from json_each(${JSON.stringify(seqs.map((r) => Number(r.seq)))}))`));
  }

  private featureRowsQuery(filter: TracksFilter, limit: number, where?: RawBuilder<boolean>): CompiledQuery<Record<string, unknown>> {
    let query = this.filtered(this.database.db.selectFrom('analyses'), filter)
      .select(['track_key as trackKey', 'tempo', 'key', 'mode', 'loudness', 'time_signature as timeSignature', 'duration_ms as durationMs', ...DESCRIPTOR_COLUMNS])
      .orderBy('seq', 'desc')
      .limit(limit);
    if (where) query = query.where(where);
    const first = filter.tags?.[0];
    if (first) {
      query = query.select(
        sql<number>`(select max(t.milli) / 1000.0 from analysis_tags as t where t.seq = analyses.seq and ${tagWhere(first, 't.')})`.as('tagProbability'),
      );
    }
    return query.compile();
  }

  /** The database's plan of a statement (SQLite EXPLAIN QUERY PLAN / Postgres EXPLAIN), one line per step. */
  private async explain(query: CompiledQuery, db: Kysely<DatabaseSchema> = this.database.db): Promise<string[]> {
    const explain = this.database.dialect === 'sqlite' ? 'explain query plan' : 'explain';
    const result = await db.executeQuery<{ detail?: string; 'QUERY PLAN'?: string }>(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]));
    return result.rows.map((r) => r.detail ?? r['QUERY PLAN'] ?? '');
  }

  async explainPage(request: TracksPageRequest): Promise<string[]> {
    const plans: string[] = [];
    const index = await this.indexed(request.filter, request.order);
    const found = index?.page(request);
    if (found) {
      plans.push(`browse index (memory): a scan of ${index!.size} analyses, ${found.length} kept`, 'then:');
      await this.rowsBySeq(found.map((f) => f.seq), async (query, db) => {
        plans.push(...(await this.explain(query, db)));
        return [];
      });
      return plans;
    }
    // Every statement page() would run, in order (a bounded walk may be followed by others).
    await this.pageRows(request, async (query, db) => {
      const plan = await this.explain(query, db);
      if (plans.length > 0) plans.push('then:');
      plans.push(...plan);
      return (await db.executeQuery(query)).rows;
    });
    return plans;
  }

  private pageRows(request: TracksPageRequest, exec: Exec): Promise<Row[]> {
    return isTagOrder(request) ? this.tagPageRows(request, exec) : this.columnPageRows(request as ColumnPageRequest, exec);
  }

  /**
   * The statements of a page ordered by a column. The database plans each from its statistics; what is decided here
   * is only the one choice both planners get wrong on correlated descriptors. A page with a filter
   * some index could answer (a range on another field than the order, a key list) is either a
   * walk of the order index, the filters checked on the way, or a read of the filters' matches,
   * sorted. The planners cost the walk taking the filters as independent, so filters that are
   * loose one by one but rare together (or never), or rare where the order starts, send it through
   * most of the index (the empty synthetic case at 100,000 rows: SQLite 260 ms of CPU, Postgres
   * 89 ms). So the walk is bounded to the next WALK_WINDOW rows of the order index (the planner
   * chooses how to read that stretch: it may prefer a selective filter's index), and a page it does
   * not fill is asked again, sorted: the filters' matches read through their indexes, as the
   * planner chooses. Postgres's own plan is run as it is when it is not the walk (one EXPLAIN
   * tells). SQLite's is not asked: it costs the walk as a read of the whole index, the LIMIT not
   * counted, and sorts a filter's matches where a few hundred rows of the walk fill the page (keys
   * and meter: 16,667 rows read and sorted, 41 ms, against 1 ms). On SQLite a range filter found
   * to hold at most WALK_WINDOW rows answers before any walk (sqliteCandidates), rather than being
   * read once inside the bounded walk and again after it.
   */
  private async columnPageRows(request: ColumnPageRequest, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    const sqlite = this.database.dialect === 'sqlite';
    const plain = this.pageQuery(request).compile();
    if (!this.hasIndexedFilter(request)) return exec(plain, db);
    if (!sqlite && !(await this.postgresWalks(plain))) return exec(plain, db);
    // SQLite: a range filter holding few rows answers at once, without a walk.
    const few = sqlite ? await this.sqliteCandidates(request, exec, true) : undefined;
    if (few) return this.sqliteSorted(request, few, exec);
    const walked = await this.boundedWalk(request, exec);
    if (!walked) return exec(plain, db);
    if (walked.length >= request.limit) return walked;
    if (!sqlite) return this.postgresSorted(plain, exec);
    if (onlyTags(request.filter)) {
      const matched = await this.sqliteTagSetWalk(request, exec);
      if (matched) return matched;
    }
    return this.sqliteSorted(request, await this.sqliteCandidates(request, exec), exec);
  }

  /**
   * SQLite, a page whose filter is tag conditions alone, the bounded walk not filled: the
   * conditions' seqs read from the tags' indexes alone and intersected (sqliteMatchSet), held as
   * a bitmap; then the order index walked from the page's position, WALK_WINDOW seqs then four
   * times as many each time up to SEQ_WALK_CHUNK, read from that index alone, each looked up in
   * the bitmap, until the page is full or the index ends; then those rows by seq. Where the seqs are more than WALK_WINDOW,
   * sqliteSorted would read all of analyses_features and look up each row's tag (a tag held by a
   * sixth of 1,000,000 analyses: 3.4 s); this reads about 0.2 µs an entry. Undefined (the caller
   * answers as before) when a walked row's order value is NULL: the walk does not continue past
   * one.
   */
  private async sqliteTagSetWalk(request: ColumnPageRequest, exec: Exec): Promise<Row[] | undefined> {
    const db = this.database.db;
    const seqs = await this.sqliteMatchSet(request.filter, exec);
    if (!seqs) return undefined;
    if (seqs.length === 0) return [];
    const { column, direction } = request.order;
    const found = await walkAgainst(memberOf(seqs), request.limit, request.after, (after, size) => {
      const from = this.keyset(db.selectFrom('analyses'), { ...request, after });
      const ordered = (column === 'seq' ? from : from.orderBy(column, direction)).orderBy('seq', direction).select(['seq', sql.ref(column).as('value')]).limit(size);
      return groupArray<[number, number | null]>(exec, db, ordered.compile(), 'json_array(seq, value)');
    });
    return found && this.sqliteRowsBySeq(found.map(([seq]) => seq), exec);
  }

  /**
   * The statements of a page ordered by a tag's probability: the tag's rows of analysis_tags in
   * (probability, seq) order (analysis_tags_by_tag), each analysis read by seq and checked
   * against the filters. With filters, the walk is bounded to the tag's next WALK_WINDOW rows as a
   * column's order is (pageRows), for the same reason; a page it does not fill is asked again
   * from the filters' matches, each looking up its row of the tag (the primary key), sorted: on
   * SQLite as sqliteTagSorted reads them, on Postgres as postgresSorted plans it.
   */
  private async tagPageRows(request: TagPageRequest, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    if (!hasFilter(request.filter)) return exec(this.tagPageQuery(request, 'order'), db);
    const walked = await exec(this.tagPageQuery(request, 'walk'), db);
    if (walked.length >= request.limit) return walked;
    // Fewer of the tag's rows remained than the walk reads: it has seen every one.
    const beyond = await exec(
      this.tagRows(request)
        .select('seq')
        .orderBy('milli', request.order.direction)
        .orderBy('seq', request.order.direction)
        .offset(WALK_WINDOW)
        .limit(1)
        .compile(),
      db,
    );
    if (beyond.length === 0) return walked;
    if (this.database.dialect === 'postgres') return this.postgresSorted(this.tagPageQuery(request, 'matches'), exec, true);
    const candidates = await this.sqliteCandidates({ ...request, order: { column: 'seq', direction: request.order.direction } }, exec);
    if (candidates?.length === 0) return [];
    if (!candidates) {
      const matched = await this.sqliteTagOrderSetWalk(request, exec);
      if (matched) return matched;
    }
    return this.sqliteTagSorted(request, candidates, exec);
  }

  /**
   * SQLite, the seqs of every analysis a filter holds for, read from indexes alone: each tag
   * condition's from the tags' indexes, the conditions on columns of analyses_features (ranges,
   * keys, mode, meter) from that index (by its leading key, mode and tempo where the filter
   * bounds them), intersected. Undefined when a condition is on a column the index lacks, or on
   * text.
   */
  private async sqliteMatchSet(filter: TracksFilter, exec: Exec): Promise<number[] | undefined> {
    const db = this.database.db;
    if (filter.artist !== undefined || filter.trackName !== undefined) return undefined;
    const ranged = Object.entries(filter.ranges ?? {}).filter(([, r]) => r !== undefined).map(([c]) => c);
    if (!ranged.every((c) => (FEATURE_INDEX_COLUMNS as readonly string[]).includes(c))) return undefined;
    let seqs: number[] | undefined;
    for (const condition of filter.tags ?? []) {
      const set = await this.tagConditionSeqs(condition, exec);
      seqs = seqs ? intersect(seqs, set) : set;
      if (seqs.length === 0) return [];
    }
    if (ranged.length > 0 || filter.keys !== undefined || filter.mode !== undefined || filter.timeSignatures !== undefined) {
      const inner = indexedByFeatures(this.filtered(db.selectFrom('analyses'), { ...filter, tags: undefined }).select('seq').compile());
      const set = await groupArray<number>(exec, db, inner);
      seqs = seqs ? intersect(seqs, set) : set;
    }
    return seqs;
  }

  /**
   * SQLite, a page ordered by a tag whose bounded walk was not filled and whose filter holds for
   * more analyses than are worth reading by rowid: the filter's seqs from indexes alone
   * (sqliteMatchSet) held as a bitmap, then the tag's rows walked in the page's order from its
   * position (analysis_tags_by_tag alone, WALK_WINDOW rows then four times as many each time up
   * to SEQ_WALK_CHUNK), each seq looked up in the bitmap, until the page is full; then those rows
   * by seq. Where sqliteTagSorted would look up the tag's row of each of the filter's matches (a
   * tempo range and a mode at 1,000,000 analyses: 45,000 lookups, 150 ms). At most WALK_WINDOW
   * seqs are not walked against: each one's row of the tag is looked up by the primary key, and
   * those sorted. Undefined when the filter's seqs cannot be read from indexes alone.
   */
  private async sqliteTagOrderSetWalk(request: TagPageRequest, exec: Exec): Promise<Row[] | undefined> {
    const db = this.database.db;
    const seqs = await this.sqliteMatchSet(request.filter, exec);
    if (!seqs) return undefined;
    if (seqs.length === 0) return [];
    const { direction } = request.order;
    const found: [number, number][] = [];
    if (seqs.length <= WALK_WINDOW) {
      // Few: each one's row of the tag, by the primary key, sorted.
      let few = db
        .selectFrom('analysis_tags as w')
        .select(['w.seq', 'w.milli'])
        .where(sql<boolean>`w.tag = ${tagId(request.order.tag) ?? -1}`)
        .where(sql<boolean>`w.seq in (select value from json_each(${JSON.stringify(seqs)}))`);
      if (request.after) few = few.where(tagKeyset(request, 'w.'));
      const rows = await exec(few.orderBy('w.milli', direction).orderBy('w.seq', direction).limit(request.limit).compile(), db);
      found.push(...rows.map((r) => [Number(r.seq), Number(r.milli)] as [number, number]));
      return this.sqliteTagRowsBySeq(found, exec);
    }
    // A tag's probability is never NULL: the walk ends with the tag's rows or a full page.
    const walked = await walkAgainst(memberOf(seqs), request.limit, request.after, (after, size) => {
      const ordered = this.tagRows({ ...request, after }).select(['seq', 'milli']).orderBy('milli', direction).orderBy('seq', direction).limit(size);
      return groupArray<[number, number]>(exec, db, ordered.compile(), 'json_array(seq, milli)');
    });
    return this.sqliteTagRowsBySeq((walked ?? []) as [number, number][], exec);
  }

  /** SQLite: the page's rows by seq, in the order of `seqs`. */
  private async sqliteRowsBySeq(seqs: readonly number[], exec: Exec): Promise<Row[]> {
    if (seqs.length === 0) return [];
    const db = this.database.db;
    const rows = await exec(sql<Row>`select ${sql.join(PAGE_COLUMNS.map((c) => sql.ref(c)))} from analyses where seq in (${sql.join(seqs)})`.compile(db), db);
    const place = new Map(seqs.map((seq, i) => [seq, i]));
    return rows.sort((a, b) => place.get(Number(a.seq))! - place.get(Number(b.seq))!);
  }

  /** SQLite: the rows of a page ordered by a tag, in the order of `found` ([seq, milli] pairs), each with its tag_milli. */
  private async sqliteTagRowsBySeq(found: readonly [number, number][], exec: Exec): Promise<Row[]> {
    const milliOf = new Map(found);
    const rows = await this.sqliteRowsBySeq(found.map(([seq]) => seq), exec);
    return rows.map((r) => ({ ...r, tag_milli: milliOf.get(Number(r.seq)) }) as Row);
  }

  /** SQLite: the seqs of the analyses holding a tag condition, from the tags' indexes alone (each seq once); `limit` caps the read. */
  private tagConditionSeqs(condition: TagCondition, exec: Exec, limit: RawBuilder<unknown> = sql``): Promise<number[]> {
    const db = this.database.db;
    // An analysis may hold several of a condition's tags: its seq once.
    const distinct = condition.names.length === 1 ? sql`` : sql`distinct`;
    return groupArray<number>(exec, db, sql`select ${distinct} seq from analysis_tags where ${tagWhere(condition)} ${limit}`.compile(db));
  }

  /** The ordering tag's rows after the page's position. */
  private tagRows(request: TagPageRequest) {
    const query = this.database.db.selectFrom('analysis_tags').where('tag', '=', tagId(request.order.tag) ?? -1);
    return request.after ? query.where(tagKeyset(request)) : query;
  }

  /**
   * A page ordered by a tag's probability, read one of three ways:
   *  - `order`: the tag's rows in order, each analysis read by seq (SQLite: CROSS JOIN keeps the
   *    tag's index outermost);
   *  - `walk`: the same over only the tag's next WALK_WINDOW rows (a subquery);
   *  - `matches` (Postgres; SQLite's is sqliteTagSorted): the filters' matches, each joined to its
   *    row of the tag, sorted.
   */
  private tagPageQuery(request: TagPageRequest, path: 'order' | 'walk' | 'matches'): CompiledQuery<Row> {
    const db = this.database.db;
    const sqlite = this.database.dialect === 'sqlite';
    const { tag, direction } = request.order;
    const id = tagId(tag) ?? -1;
    const ordered = this.tagRows(request).orderBy('milli', direction).orderBy('seq', direction);
    type Joined = SelectQueryBuilder<DatabaseSchema & { w: { seq: number; milli: number } }, 'analyses' | 'w', object>;
    let query: Joined;
    if (path === 'walk') {
      const walk = ordered.select(['seq', 'milli']).limit(WALK_WINDOW).as('w');
      query = sqlite ? db.selectFrom(walk).crossJoin('analyses') : db.selectFrom(walk).innerJoin('analyses', 'analyses.seq', 'w.seq');
    } else if (sqlite) {
      query = db.selectFrom('analysis_tags as w').crossJoin('analyses');
    } else {
      query = db.selectFrom('analyses').innerJoin('analysis_tags as w', 'w.seq', 'analyses.seq');
    }
    query = query.where(sql<boolean>`analyses.seq = w.seq`);
    if (path !== 'walk') {
      query = query.where(sql<boolean>`w.tag = ${id}`);
      if (request.after) query = query.where(tagKeyset(request, 'w.'));
    }
    query = this.filtered(query, request.filter, 'analyses.seq');
    const selected = sqlite
      ? query.select(PAGE_COLUMNS.map((c) => sql.ref(`analyses.${c}`).as(c)))
      : query.selectAll('analyses');
    return selected
      .select(sql<number>`w.milli`.as('tag_milli'))
      .orderBy(sql`w.milli`, direction)
      .orderBy(sql`w.seq`, direction)
      .limit(request.limit)
      .compile();
  }

  /** Whether Postgres would answer `query` by walking an index in order, filters checked on the rows (its plan, not run). */
  private async postgresWalks(query: CompiledQuery): Promise<boolean> {
    const result = await this.database.db.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const raw = result.rows[0]?.['QUERY PLAN'];
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    let node: PlanNode | undefined = doc[0]?.Plan;
    while (node && node['Node Type'] === 'Limit') node = node.Plans?.[0];
    // A tag condition is a join: the walk is the outermost side of nested loops, each tag looked
    // up for the rows it reads.
    let joined = false;
    while (node && node['Node Type'] === 'Nested Loop') {
      joined = true;
      node = node.Plans?.[0];
    }
    return node?.['Node Type'] === 'Index Scan' && (node.Filter !== undefined || joined);
  }

  /**
   * The page asked within the next WALK_WINDOW rows of the order index; undefined (SQLite) when
   * fewer remain, and the page is the plain one. Postgres: one statement, a subquery of those rows
   * (their timelines stay TOASTed, not read). SQLite: the last of those rows' position, read from
   * the order index alone, then the page asked up to it; its planner chooses how to read that
   * stretch (a subquery would decode each row's timeline).
   */
  private async boundedWalk(request: ColumnPageRequest, exec: Exec): Promise<Row[] | undefined> {
    const db = this.database.db;
    const { column, direction } = request.order;
    const ordered = (q: Select): Select => (column === 'seq' ? q : q.orderBy(column, direction)).orderBy('seq', direction);
    if (this.database.dialect === 'postgres') {
      const walk = ordered(this.keyset(db.selectFrom('analyses') as Select, request)).selectAll().limit(WALK_WINDOW);
      const page = ordered(this.filtered(db.selectFrom(walk.as('walk')) as unknown as Select, request.filter)).selectAll().limit(request.limit);
      return exec(page.compile() as CompiledQuery<Row>, db);
    }
    const last = ordered(this.keyset(db.selectFrom('analyses') as Select, request))
      .select([sql<number>`${sql.ref(column)}`.as('value'), sql<number>`seq`.as('seq')])
      .offset(WALK_WINDOW - 1)
      .limit(1);
    const [bound] = await exec(last.compile() as CompiledQuery<{ value: number; seq: number }>, db);
    return bound ? exec(this.pageQuery(request, { until: { value: Number(bound.value), seq: Number(bound.seq) } }).compile(), db) : undefined;
  }

  /**
   * SQLite's sorted page: the page's rowids, then those rows. Its planner, left to choose how to
   * find the matches, reads a loose range through its one-column index, each match then read from
   * the table (30,000 rows for the empty case at 100,000 rows: 76 ms of CPU); and it has no way to
   * combine two indexes. So the rowids are found in one of two ways:
   *  - candidates (sqliteCandidates): each range filter's rowids read from its own index alone,
   *    the sets intersected; up to WALK_WINDOW of them are read by rowid, checked against every
   *    filter and sorted (the empty case: 7 ms, where reading all of analyses_features costs 12);
   *  - else analyses_features, named (INDEXED BY): the planner still chooses how to read it, by
   *    ranges of its leading key, mode and tempo, or all of it (about 12 ms per 100,000 rows).
   */
  private async sqliteSorted(request: ColumnPageRequest, candidates: number[] | undefined, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    const { column, direction } = request.order;
    if (candidates?.length === 0) return [];
    let query = this.keyset(this.filtered(db.selectFrom('analyses'), request.filter), request);
    if (candidates) query = query.where(sql<boolean>`rowid in (select value from json_each(${JSON.stringify(candidates)}))`);
    const plus = (c: string) => sql`+${sql.ref(c)}`;
    const compiled = query.select(sql<number>`rowid`.as('rid')).orderBy(plus(column), direction).orderBy(plus('seq'), direction).limit(request.limit).compile();
    const ids = (await exec(candidates ? compiled : indexedByFeatures(compiled), db)).map((r) => Number(r.rid));
    return this.sqliteRowsByRowid(ids, exec);
  }

  /** A page's rows by seq, in the order of `seqs` (a seq no longer stored is left out). */
  private async rowsBySeq(seqs: readonly number[], exec: Exec): Promise<Row[]> {
    if (seqs.length === 0) return [];
    const db = this.database.db;
    const columns = this.database.dialect === 'postgres' ? sql`*` : sql.join(PAGE_COLUMNS.map((c) => sql.ref(c)));
    const rows = await exec(sql<Row>`select ${columns} from analyses where seq in (${sql.join([...seqs])})`.compile(db), db);
    const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
    return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
  }

  /** SQLite: the page's rows by rowid, in the order of `ids`. */
  private async sqliteRowsByRowid(ids: readonly number[], exec: Exec): Promise<Row[]> {
    if (ids.length === 0) return [];
    const db = this.database.db;
    const rows = await exec(
      sql<Row & { rid: number }>`select rowid as rid, ${sql.join(PAGE_COLUMNS.map((c) => sql.ref(c)))} from analyses where rowid in (${sql.join([...ids])})`.compile(db),
      db,
    );
    const position = new Map(ids.map((id, i) => [id, i]));
    return rows.sort((a, b) => position.get(Number(a.rid))! - position.get(Number(b.rid))!).map(({ rid: _rid, ...row }) => row);
  }

  /**
   * SQLite's sorted page ordered by a tag, as sqliteSorted: the page's rowids and probabilities
   * first, from the candidates by rowid or from analyses_features (named: every column a filter
   * other than text tests, and seq), each joined to its row of the tag by the primary key (both
   * index-only), sorted; then those rows. Left to choose, SQLite reads a filter's one-column
   * index and each match's table row (a tempo range and a mode at 100,000 analyses: about 50 ms).
   */
  private async sqliteTagSorted(request: TagPageRequest, candidates: number[] | undefined, exec: Exec): Promise<Row[]> {
    const db = this.database.db;
    const { tag, direction } = request.order;
    let query = db
      .selectFrom('analyses')
      .crossJoin('analysis_tags as w')
      .where(sql<boolean>`analyses.seq = w.seq`)
      .where(sql<boolean>`w.tag = ${tagId(tag) ?? -1}`);
    if (request.after) query = query.where(tagKeyset(request, 'w.'));
    if (candidates) query = query.where(sql<boolean>`analyses.rowid in (select value from json_each(${JSON.stringify(candidates)}))`);
    const compiled = this.filtered(query, request.filter, 'analyses.seq')
      .select([sql<number>`analyses.rowid`.as('rid'), sql<number>`w.milli`.as('milli')])
      .orderBy(sql`w.milli`, direction)
      .orderBy(sql`w.seq`, direction)
      .limit(request.limit)
      .compile();
    const found = await exec(candidates ? compiled : indexedByFeatures(compiled), db);
    const rows = await this.sqliteRowsByRowid(found.map((r) => Number(r.rid)), exec);
    return rows.map((row, i) => ({ ...row, tag_milli: Number(found[i]!.milli) }) as Row);
  }

  /**
   * The rowids in every range filter on another field than the order's, each range read from its
   * index alone (json_group_array over a covering range: about 0.1 µs of CPU an entry, where a
   * row read by rowid, checked and sorted costs 2–3 µs), intersected through a bitmap; undefined
   * with no such range or tag condition, or more than WALK_WINDOW rowids. Tag conditions give
   * analyses' seqs, read from the tags' indexes alone and intersected first: only the seqs left are
   * looked up for their rowids. `beforeWalk`: each range and tag is read only up to WALK_WINDOW
   * entries, and only those found whole are intersected: a range of a few rows is the cheapest
   * answer, a loose one not worth reading unless the walk fails.
   */
  private async sqliteCandidates(request: ColumnPageRequest, exec: Exec, beforeWalk = false): Promise<number[] | undefined> {
    const db = this.database.db;
    const limit = beforeWalk ? sql`limit ${WALK_WINDOW + 1}` : sql``;
    let seqs: number[] | undefined;
    for (const condition of request.filter.tags ?? []) {
      const set = await this.tagConditionSeqs(condition, exec, limit);
      if (beforeWalk && set.length > WALK_WINDOW) continue;
      seqs = seqs ? intersect(seqs, set) : set;
      if (seqs.length === 0) return [];
    }
    let ids: number[] | undefined;
    if (seqs && seqs.length <= WALK_WINDOW) {
      const [row] = await exec(sql<{ ids: string }>`select json_group_array(rowid) as ids from analyses where seq in (select value from json_each(${JSON.stringify(seqs)}))`.compile(db), db);
      ids = JSON.parse(row?.ids ?? '[]') as number[];
    }
    for (const [column, range] of Object.entries(request.filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]) {
      if (!range || column === request.order.column) continue;
      if (ids?.length === 0) break;
      let where = sql<boolean>`1`;
      if (range.min !== undefined) where = sql<boolean>`${where} and ${sql.ref(column)} >= ${range.min}`;
      if (range.max !== undefined) where = sql<boolean>`${where} and ${sql.ref(column)} <= ${range.max}`;
      const [row] = await exec(sql<{ ids: string }>`select json_group_array(rowid) as ids from (select rowid from analyses where ${where} ${limit})`.compile(db), db);
      const set = JSON.parse(row?.ids ?? '[]') as number[];
      if (beforeWalk && set.length > WALK_WINDOW) continue;
      ids = ids ? intersect(ids, set) : set;
    }
    return ids && ids.length <= WALK_WINDOW ? ids : undefined;
  }

  /**
   * Postgres's sorted page: the same statement, planned without ordered index scans or a
   * sequential scan, in a transaction of its own (`set_config(…, true)`). Left to itself with the
   * walk ruled out it reads the whole table with parallel workers (47 ms with two for the empty
   * case) or one filter's bitmap, filtering its 30,000 heap rows (13–18 ms): it takes the filters
   * as independent and expects thousands of matches. Heap tuples costed 10x (cpu_tuple_cost 0.1)
   * make it AND the filters' bitmaps instead (4–7 ms of server CPU); no parallel workers for a page.
   * `nestedLoops` (a page ordered by a tag): each match joined to its row of the tag by the primary
   * key, where it would hash all of the tag's rows however few the matches.
   */
  private postgresSorted(plain: CompiledQuery<Row>, exec: Exec, nestedLoops = false): Promise<Row[]> {
    return this.database.db.transaction().execute(async (trx) => {
      // No JIT: these settings cost plans past jit_above_cost, and compiling one costs more than a
      // page (10–20 ms of server CPU).
      await sql`select set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true),
        set_config('cpu_tuple_cost', '0.1', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)`.execute(trx);
      if (nestedLoops) await sql`select set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`.execute(trx);
      return exec(plain, trx);
    });
  }

  /**
   * The page query: filters, keyset, order and limit; with `until`, only the order index's rows
   * up to that position (the bounded walk).
   */
  private pageQuery(request: ColumnPageRequest, path: { until?: { value: number; seq: number } } = {}): SelectQueryBuilder<DatabaseSchema, 'analyses', Row> {
    const { column, direction } = request.order;
    let query = this.keyset(this.filtered(this.database.db.selectFrom('analyses'), request.filter), request);
    if (path.until) {
      const op = sql.raw(direction === 'asc' ? '<=' : '>=');
      const { value, seq } = path.until;
      query = query.where(column === 'seq' ? sql<boolean>`seq ${op} ${seq}` : sql<boolean>`(${sql.ref(column)}, seq) ${op} (${value}, ${seq})`);
    }
    if (column !== 'seq') query = query.orderBy(column, direction);
    query = query.orderBy('seq', direction);
    const selected = this.database.dialect === 'postgres' ? query.selectAll() : query.select(PAGE_COLUMNS as never);
    return selected.limit(request.limit);
  }

  /** The keyset condition: rows after the cursor in the page's order. */
  private keyset(query: Select, request: ColumnPageRequest, ref: (c: string) => RawBuilder<unknown> = (c) => sql.ref(c)): Select {
    const after = request.after;
    if (!after) return query;
    const { column, direction } = request.order;
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    return column === 'seq'
      ? query.where(sql<boolean>`${ref('seq')} ${op} ${after.seq}`)
      : query.where(sql<boolean>`(${ref(column)}, ${ref('seq')}) ${op} (${after.value}, ${after.seq})`);
  }

  /** Whether a filter has an index other than the order's: a range on another field, a key list, or a tag. */
  private hasIndexedFilter(request: ColumnPageRequest): boolean {
    const { ranges, keys, tags } = request.filter;
    return keys !== undefined || (tags?.length ?? 0) > 0 || Object.entries(ranges ?? {}).some(([c, r]) => r !== undefined && c !== request.order.column);
  }

  /** `seq`: how the analyses' seq is named where a join also has one (a page ordered by a tag). */
  private filtered<Q extends Select>(query: Q, filter: TracksFilter, seq = 'seq'): Q {
    let q = query as Select;
    const col = (c: RangeColumn | 'key' | 'mode' | 'time_signature') => sql.ref(c);
    for (const [column, range] of Object.entries(filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]) {
      if (range?.min !== undefined) q = q.where(col(column), '>=', range.min);
      if (range?.max !== undefined) q = q.where(col(column), '<=', range.max);
    }
    if (filter.keys) q = q.where(col('key'), 'in', [...filter.keys]);
    if (filter.mode !== undefined) q = q.where(col('mode'), '=', filter.mode);
    if (filter.timeSignatures) q = q.where(col('time_signature'), 'in', [...filter.timeSignatures]);
    if (filter.artist !== undefined) q = q.where((eb) => this.contains(eb, 'artist', filter.artist!));
    if (filter.trackName !== undefined) q = q.where((eb) => this.contains(eb, 'track_name', filter.trackName!));
    for (const condition of filter.tags ?? []) {
      // SQLite: each row's tag looked up by the primary key (seq, tag) as the page reads it,
      // where a list would be read whole first (sqliteCandidates reads it when it is short).
      // Postgres: a semi-join, its planner choosing the side to start from.
      q = q.where(
        this.database.dialect === 'sqlite'
          ? sql<boolean>`exists (select 1 from analysis_tags as t where t.seq = analyses.seq and ${tagWhere(condition, 't.')})`
          : sql<boolean>`${sql.ref(seq)} in (${tagged(condition)})`,
      );
    }
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

/** The keyset condition of a page ordered by a tag: its rows after the cursor (`prefix`: the tags' alias and a dot). */
function tagKeyset(request: TagPageRequest, prefix = ''): RawBuilder<boolean> {
  const { value, seq } = request.after!;
  const ref = (column: string) => sql.ref(`${prefix}${column}`);
  return sql<boolean>`(${ref('milli')}, ${ref('seq')}) ${sql.raw(request.order.direction === 'asc' ? '>' : '<')} (${value}, ${seq})`;
}

function isTagOrder(request: TracksPageRequest): request is TagPageRequest {
  return 'tag' in request.order;
}

/**
 * SQLite: `select json_group_array(<element>) from (<inner>)` read back as one array: one row
 * crosses to JS where the inner statement's rows would cross one by one.
 */
async function groupArray<T>(exec: Exec, db: Kysely<DatabaseSchema>, inner: CompiledQuery<unknown>, element = 'seq'): Promise<T[]> {
  const [row] = await exec(CompiledQuery.raw(`select json_group_array(${element}) as items from (${inner.sql})`, [...inner.parameters]) as CompiledQuery<{ items: string }>, db);
  return JSON.parse(row?.items ?? '[]') as T[];
}

/**
 * The walk of the SQLite set walks: `chunk(after, size)` gives [seq, order value] pairs in the
 * page's order from a position, WALK_WINDOW of them, then four times as many each time up to
 * SEQ_WALK_CHUNK; the pairs whose seq `member` holds are kept until `limit` are found or the
 * walk ends. Undefined when the position to continue from has a NULL order value (the keyset
 * cannot continue past it).
 */
async function walkAgainst(
  member: (seq: number) => boolean,
  limit: number,
  start: { value: number; seq: number } | undefined,
  chunk: (after: { value: number; seq: number } | undefined, size: number) => Promise<[number, number | null][]>,
): Promise<[number, number | null][] | undefined> {
  const found: [number, number | null][] = [];
  let after = start;
  for (let size = WALK_WINDOW; ; size = Math.min(SEQ_WALK_CHUNK, size * 4)) {
    const entries = await chunk(after, size);
    for (const entry of entries) {
      if (member(entry[0])) found.push(entry);
      if (found.length >= limit) return found;
    }
    if (entries.length < size) return found;
    const [seq, value] = entries[entries.length - 1]!;
    if (value === null) return undefined;
    after = { value, seq };
  }
}

/** Membership in a set of seqs, as a bitmap indexed by seq (one byte per seq up to the largest). */
function memberOf(seqs: readonly number[]): (seq: number) => boolean {
  let max = 0;
  for (const seq of seqs) if (seq > max) max = seq;
  const member = new Uint8Array(max + 1);
  for (const seq of seqs) member[seq] = 1;
  return (seq) => seq <= max && member[seq] === 1;
}

/** Whether a filter's conditions are all on tags (and it has one). */
function onlyTags(filter: TracksFilter): boolean {
  return (filter.tags?.length ?? 0) > 0 && Object.entries(filter).every(([k, v]) => k === 'tags' || v === undefined || (k === 'ranges' && Object.values(v as object).every((r) => r === undefined)));
}

/** Whether a filter has any condition. */
function hasFilter(filter: TracksFilter): boolean {
  return Object.values(filter).some((v) => v !== undefined && (typeof v !== 'object' || v === null || Object.keys(v as object).length > 0));
}

/**
 * The seqs of the analyses a tag condition holds for: a range of analysis_tags_by_tag (tag, then
 * probability) or analysis_tags_by_rank (tag, then rank), the other checked in the same index.
 */
function tagged(condition: TagCondition): RawBuilder<unknown> {
  return sql`select seq from analysis_tags where ${tagWhere(condition)}`;
}

/** A tag condition on analysis_tags' columns (`prefix`: the table's alias and a dot, or nothing). */
function tagWhere(condition: TagCondition, prefix = ''): RawBuilder<boolean> {
  const ref = (column: string) => sql.ref(`${prefix}${column}`);
  // Names the tagger does not give have no id, and match nothing (-1).
  const ids = condition.names.map((t) => tagId(t) ?? -1);
  let where = ids.length === 1 ? sql<boolean>`${ref('tag')} = ${ids[0]}` : sql<boolean>`${ref('tag')} in (${sql.join(ids)})`;
  // Probabilities are held in thousandths: p ≥ min is milli ≥ ⌈1000·min⌉ (to within rounding).
  if (condition.min !== undefined) where = sql<boolean>`${where} and ${ref('milli')} >= ${Math.ceil(condition.min * 1000 - 1e-6)}`;
  if (condition.max !== undefined) where = sql<boolean>`${where} and ${ref('milli')} <= ${Math.floor(condition.max * 1000 + 1e-6)}`;
  if (condition.top !== undefined) where = sql<boolean>`${where} and ${ref('rank')} <= ${condition.top}`;
  return where;
}

/** The ids in both lists (in b's order), through a bitmap over the smaller one. */
function intersect(a: number[], b: number[]): number[] {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  let max = 0;
  for (const id of small) if (id > max) max = id;
  const bits = new Uint8Array(max + 1);
  for (const id of small) bits[id] = 1;
  return large.filter((id) => id <= max && bits[id] === 1);
}
