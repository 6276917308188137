import DataLoader from 'dataloader';
import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { DESCRIPTORS, columnOf, valueOf, type DescriptorValues, type MoodValues } from '../../core/descriptors';
import { foldForSearch } from '../../core/fold';
import type { AudioFeatures, Segment, StoredAnalysis, TagScore, TempoAlternative, Timeline } from '../../core/types';
import type { DescriptorColumn, DescriptorColumnValues } from '../../db/columns';
import { guardConnection, type AnalysesTable, type Database, type DatabaseSchema } from '../../db/database';
import { tagRows } from '../../db/tag-rows';
import { encodeVector } from '../../core/vectors';
import { withUnreadSegments, type AnalysisStore, type ReadOptions, type StoredSummary } from './store';

/** The engine strings this engine writes begin so (src/core/analysis-method.ts). */
const ENGINE_PREFIX = 'trackgraph-engine/';

type Row = Selectable<AnalysesTable>;

/**
 * The analysis store on SQLite or Postgres: one repository, one schema (src/db/migrations.ts).
 * Connection failures surface as SERVICE_UNAVAILABLE, so a client is told to retry rather than
 * seeing an internal error; an analysis and its tag rows are written in one statement or one
 * transaction, so nothing is ever half-written.
 */
export class SqlAnalysisStore implements AnalysisStore {
  /** Reads the segments of analyses read without them (getMany's `{ segments: false }`). */
  private readonly segments: SegmentsReader;

  constructor(private readonly database: Database) {
    this.segments = new SegmentsReader(database);
  }

  async get(trackKey: string): Promise<StoredAnalysis | undefined> {
    const row = await guardConnection(() => this.withSegments().where('analyses.track_key', '=', trackKey).executeTakeFirst());
    return row ? fromRow(row, row.segments) : undefined;
  }

  async getMany(trackKeys: readonly string[], options?: ReadOptions): Promise<Map<string, StoredAnalysis>> {
    const unique = [...new Set(trackKeys)];
    const found = new Map<string, StoredAnalysis>();
    if (unique.length === 0) return found;
    if (options?.segments === false) {
      const rows = await guardConnection(() => this.database.db.selectFrom('analyses').selectAll().where('track_key', 'in', unique).execute());
      for (const row of rows) found.set(row.track_key, this.segments.unread(row));
      return found;
    }
    const rows = await guardConnection(() => this.withSegments().where('analyses.track_key', 'in', unique).execute());
    for (const row of rows) found.set(row.track_key, fromRow(row, row.segments));
    return found;
  }

  /** Analyses with their segments (a row of analysis_segments, when they have one). */
  private withSegments() {
    return this.database.db
      .selectFrom('analyses')
      .leftJoin('analysis_segments as s', 's.seq', 'analyses.seq')
      .selectAll('analyses')
      .select('s.segments');
  }

  async save(analysis: StoredAnalysis): Promise<boolean> {
    const values = toRow(analysis);
    const tags = analysis.features.tags;
    const segments = analysis.features.timeline.segments;
    const insert = async (db: Kysely<DatabaseSchema>): Promise<boolean> => {
      const into = db.insertInto('analyses');
      const query =
        this.database.dialect === 'sqlite'
          ? into.values({ ...values, seq: sql<number>`(select coalesce(max(seq), 0) + 1 from analyses)`, revision: nextRevision('sqlite') })
          : into.values(values);
      const row = await query.onConflict((oc) => oc.column('track_key').doNothing()).returning('seq').executeTakeFirst();
      // The first save of a key writes its tags, segments and embeddings; a later one leaves all as they are.
      if (row) {
        await insertTags(db, Number(row.seq), tags);
        await insertSegments(db, Number(row.seq), analysis);
        await insertEmbeddings(db, Number(row.seq), analysis);
      }
      return row !== undefined;
    };
    // With tags, segments or embeddings, the analysis and their rows are one transaction: all are stored or none.
    const alone = (!tags || tags.length === 0) && segments === undefined && embeddingRows(0, analysis).length === 0;
    return guardConnection(() => (alone ? insert(this.database.db) : this.database.db.transaction().execute(insert)));
  }

  async replace(analysis: StoredAnalysis): Promise<boolean> {
    // Every column but the key (and SQLite's seq, the row's place in insertion order) is rewritten
    // by one UPDATE; the tag rows are swapped in the same transaction (the analysis replaced may
    // have had tags, or other ones).
    const { track_key: trackKey, ...values } = toRow(analysis);
    return guardConnection(() =>
      this.database.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('analyses')
          .set({ ...values, revision: nextRevision(this.database.dialect) })
          .where('track_key', '=', trackKey)
          .returning('seq')
          .executeTakeFirst();
        if (!row) return false;
        await trx.deleteFrom('analysis_tags').where('seq', '=', Number(row.seq)).execute();
        await insertTags(trx, Number(row.seq), analysis.features.tags);
        await trx.deleteFrom('analysis_segments').where('seq', '=', Number(row.seq)).execute();
        await insertSegments(trx, Number(row.seq), analysis);
        await trx.deleteFrom('analysis_embeddings').where('seq', '=', Number(row.seq)).execute();
        await insertEmbeddings(trx, Number(row.seq), analysis);
        return true;
      }),
    );
  }

  async listOtherEngines(currentEngine: string, page: { after?: string; limit: number }): Promise<StoredSummary[]> {
    const rows = await guardConnection(() => {
      let query = this.database.db
        .selectFrom('analyses')
        .select(['track_key', 'artist', 'track_name', 'engine', 'source'])
        .where('engine', '<>', currentEngine)
        .where('engine', 'like', `${ENGINE_PREFIX}%`);
      if (page.after !== undefined) query = query.where('track_key', '>', page.after);
      return query.orderBy('track_key').limit(page.limit).execute();
    });
    return rows.map((r) => ({ trackKey: r.track_key, artist: r.artist, trackName: r.track_name, engine: r.engine, source: r.source }));
  }

  async count(): Promise<number> {
    const row = await guardConnection(() =>
      this.database.db.selectFrom('analyses').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
    );
    return Number(row?.n ?? 0);
  }

  async ping(): Promise<void> {
    await guardConnection(() => sql`select 1`.execute(this.database.db));
  }

  async close(): Promise<void> {
    await this.database.close();
  }
}

/**
 * The revision a write gives its row (migration 0012): SQLite, one more than the table's largest
 * (in the write's transaction: writers are serialised); Postgres, the writing transaction's id
 * (an insert takes it from the column's default).
 */
function nextRevision(dialect: Database['dialect']): RawBuilder<number> {
  return dialect === 'sqlite' ? sql<number>`(select coalesce(max(revision), 0) + 1 from analyses)` : sql<number>`pg_current_xact_id()::text::bigint`;
}

/** The tag rows of the analysis stored as `seq` (analysis_tags, src/db/tag-rows.ts), on `db` (a transaction). */
async function insertTags(db: Kysely<DatabaseSchema>, seq: number, tags: StoredAnalysis['features']['tags']): Promise<void> {
  const rows = tagRows(seq, tags);
  if (rows.length > 0) await db.insertInto('analysis_tags').values(rows).execute();
}

/** The analysis_segments row of an analysis stored as `seq` (migration 0010), on `db` (a transaction); none without segments. */
async function insertSegments(db: Kysely<DatabaseSchema>, seq: number, analysis: StoredAnalysis): Promise<void> {
  const row = segmentsRow(seq, analysis);
  if (row) await db.insertInto('analysis_segments').values(row).execute();
}

/** The analysis_embeddings rows of an analysis stored as `seq` (migration 0013), on `db` (a transaction). */
async function insertEmbeddings(db: Kysely<DatabaseSchema>, seq: number, analysis: StoredAnalysis): Promise<void> {
  const rows = embeddingRows(seq, analysis);
  if (rows.length > 0) await db.insertInto('analysis_embeddings').values(rows).execute();
}

/**
 * The analysis_embeddings rows of an analysis stored as `seq`: one per kind (the first of a kind
 * given twice), each vector as little-endian 32-bit floats. A vector that is empty or holds a
 * number that is not finite is left out: the embeddings come from the engine.
 */
export function embeddingRows(seq: number, a: StoredAnalysis): { seq: number; kind: string; vector: Uint8Array }[] {
  const seen = new Set<string>();
  return (a.features.embeddings ?? []).flatMap((e) => {
    if (seen.has(e.kind) || e.vector.length === 0 || !e.vector.every(Number.isFinite)) return [];
    seen.add(e.kind);
    return [{ seq, kind: e.kind, vector: encodeVector(e.vector) }];
  });
}

/**
 * The analysis_segments row of an analysis stored as `seq`: its segments as rows of numbers
 * (SEGMENT_ROW's order, half the size of their objects); undefined when it has none (analyses made
 * before engine 11, or by another server). An empty list is stored, and read back, as one.
 */
export function segmentsRow(seq: number, a: StoredAnalysis): { seq: number; segments: string } | undefined {
  const segments = a.features.timeline.segments;
  return segments ? { seq, segments: JSON.stringify(segments.map((s) => [...SEGMENT_ROW.map((k) => s[k]), ...s.pitches, ...s.timbre])) } : undefined;
}

/**
 * Reads the segments of analyses that were read without them, by seq, batching the reads asked in
 * the same tick (a page's nodes asking for theirs) into one statement; nothing is cached.
 */
export class SegmentsReader {
  private readonly loader: DataLoader<number, Segment[] | undefined>;

  constructor(private readonly database: Database) {
    this.loader = new DataLoader((seqs) => this.read(seqs), { cache: false, maxBatchSize: 500 });
  }

  /** The analysis of a row read without its segments, marked (withUnreadSegments) to read them from here. */
  unread(row: Row): StoredAnalysis {
    const seq = Number(row.seq);
    return withUnreadSegments(fromRow(row), () => this.loader.load(seq));
  }

  private async read(seqs: readonly number[]): Promise<(Segment[] | undefined)[]> {
    const rows = await guardConnection(() => this.database.db.selectFrom('analysis_segments').select(['seq', 'segments']).where('seq', 'in', [...seqs]).execute());
    const bySeq = new Map(rows.map((r) => [Number(r.seq), r.segments]));
    return seqs.map((seq) => {
      const json = bySeq.get(seq);
      return json === undefined ? undefined : (JSON.parse(json) as number[][]).map(segmentOfRow);
    });
  }
}

export function toRow(a: StoredAnalysis): Insertable<AnalysesTable> {
  const f = a.features;
  return {
    track_key: a.trackKey,
    artist: a.artist,
    track_name: a.trackName,
    duration_ms: Math.round(f.durationMs),
    tempo: f.tempo,
    key: f.key,
    mode: f.mode,
    time_signature: f.timeSignature,
    loudness: f.loudness,
    ...descriptorColumns(f),
    tempo_confidence: f.confidence.tempo,
    key_confidence: f.confidence.key,
    mode_confidence: f.confidence.mode,
    time_signature_confidence: f.confidence.timeSignature,
    timeline: JSON.stringify(timelineColumn(f)),
    engine: f.engine,
    source: a.source,
    analysed_at: a.analysedAt,
    // What the artist/title text filters of tracks() match (migration 0003).
    artist_fold: foldForSearch(a.artist),
    title_fold: foldForSearch(a.trackName),
  };
}

/**
 * The analysis of a row. `segments`: the JSON of its analysis_segments row, null when it has none;
 * absent when they were not read (a browse page: the analysis reads without them). Rows written
 * by a node older than migration 0010 may still hold theirs in the timeline column.
 */
export function fromRow(r: Row, segments?: string | null): StoredAnalysis {
  return {
    trackKey: r.track_key,
    artist: r.artist,
    trackName: r.track_name,
    analysedAt: r.analysed_at,
    source: r.source,
    features: {
      durationMs: Number(r.duration_ms),
      tempo: Number(r.tempo),
      key: Number(r.key),
      mode: Number(r.mode),
      timeSignature: Number(r.time_signature),
      loudness: Number(r.loudness),
      ...descriptorsOfRow(r),
      confidence: {
        tempo: Number(r.tempo_confidence),
        key: Number(r.key_confidence),
        mode: Number(r.mode_confidence),
        timeSignature: Number(r.time_signature_confidence),
      },
      ...fromTimelineColumn(r.timeline, segments),
      engine: r.engine,
    },
  };
}

/**
 * The timeline column holds the timeline's JSON (beats, bars, sections) and, beside its lists,
 * the tempo alternatives, the tuning (engine 23 on) and the tagger's tags (analyses the models made): read with the whole
 * analysis, and with every row of a browse page. (Browse filters by tags through their own table,
 * analysis_tags, written beside this column.) The segments, ~100 rows of numbers that make most of
 * a 30 s window's timeline, are in analysis_segments (migration 0010; segmentsRow); rows written
 * before it by an older node may still hold them here, as `segmentRows`. Rows written before engine
 * 11 lack the segments and the tempo alternatives.
 */
interface TimelineColumn {
  beats: Timeline['beats'];
  bars: Timeline['bars'];
  sections: Timeline['sections'];
  segmentRows?: number[][];
  tempoAlternatives?: TempoAlternative[];
  tuningHz?: number;
  tags?: TagScore[];
}

/** A stored segment row: these fields, then its 12 pitches and its 12 timbre coefficients. */
const SEGMENT_ROW = ['start', 'duration', 'confidence', 'loudnessStart', 'loudnessMax', 'loudnessMaxTime', 'loudnessEnd'] as const;

function timelineColumn(f: AudioFeatures): TimelineColumn {
  const { segments: _segments, ...lists } = f.timeline;
  return {
    ...lists,
    ...(f.tempoAlternatives ? { tempoAlternatives: f.tempoAlternatives } : {}),
    ...(f.tuningHz !== undefined ? { tuningHz: f.tuningHz } : {}),
    ...(f.tags ? { tags: f.tags } : {}),
  };
}

/** `segments`: as fromRow takes them (absent: not read, and the timeline has none unless its column holds them). */
function fromTimelineColumn(
  json: string,
  segments?: string | null,
): { timeline: Timeline; tempoAlternatives?: TempoAlternative[]; tuningHz?: number; tags?: TagScore[] } {
  const { segmentRows: inColumn, tempoAlternatives, tuningHz, tags, ...lists } = JSON.parse(json) as TimelineColumn;
  const segmentRows = typeof segments === 'string' ? (JSON.parse(segments) as number[][]) : inColumn;
  const timeline: Timeline = segmentRows ? { ...lists, segments: segmentRows.map(segmentOfRow) } : lists;
  return { timeline, ...(tempoAlternatives ? { tempoAlternatives } : {}), ...(tuningHz !== undefined ? { tuningHz } : {}), ...(tags ? { tags } : {}) };
}

/** A segment from its stored row (SEGMENT_ROW's order), built as one literal: this runs ~100 times per analysis read. */
function segmentOfRow(r: number[]): Segment {
  return {
    start: r[0]!,
    duration: r[1]!,
    confidence: r[2]!,
    loudnessStart: r[3]!,
    loudnessMax: r[4]!,
    loudnessMaxTime: r[5]!,
    loudnessEnd: r[6]!,
    pitches: r.slice(7, 19),
    timbre: r.slice(19, 31),
  };
}

/** A stored analysis's descriptors as their columns (src/db/columns.ts). */
function descriptorColumns(f: AudioFeatures): DescriptorColumnValues {
  const values = {} as DescriptorColumnValues;
  for (const d of DESCRIPTORS) values[columnOf(d) as DescriptorColumn] = valueOf(f, d) ?? 0;
  return values;
}

/**
 * The descriptors of a row, top-level and moods. A descriptor stored before it was in the
 * registry has no value (null): it is left out, and the analysis reads without it.
 */
function descriptorsOfRow(r: Row): DescriptorValues & { mood: MoodValues } {
  const top: Record<string, number> = {};
  const mood: Record<string, number> = {};
  for (const d of DESCRIPTORS) {
    const value = (r as unknown as Record<string, unknown>)[columnOf(d)];
    if (value === null || value === undefined) continue;
    (d.group === 'mood' ? mood : top)[d.name] = Number(value);
  }
  return { ...(top as DescriptorValues), mood: mood as MoodValues };
}
