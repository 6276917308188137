import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { DESCRIPTORS, columnOf, valueOf, type DescriptorValues, type MoodValues } from '../../core/descriptors';
import { foldForSearch } from '../../core/fold';
import type { AudioFeatures, Segment, StoredAnalysis, TagScore, TempoAlternative, Timeline } from '../../core/types';
import type { DescriptorColumn, DescriptorColumnValues } from '../../db/columns';
import { guardConnection, type AnalysesTable, type Database, type DatabaseSchema } from '../../db/database';
import { tagRows } from '../../db/tag-rows';
import type { AnalysisStore, StoredSummary } from './store';

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
  constructor(private readonly database: Database) {}

  async get(trackKey: string): Promise<StoredAnalysis | undefined> {
    const row = await guardConnection(() =>
      this.database.db.selectFrom('analyses').selectAll().where('track_key', '=', trackKey).executeTakeFirst(),
    );
    return row ? fromRow(row) : undefined;
  }

  async getMany(trackKeys: readonly string[]): Promise<Map<string, StoredAnalysis>> {
    const unique = [...new Set(trackKeys)];
    const found = new Map<string, StoredAnalysis>();
    if (unique.length === 0) return found;
    const rows = await guardConnection(() =>
      this.database.db.selectFrom('analyses').selectAll().where('track_key', 'in', unique).execute(),
    );
    for (const row of rows) found.set(row.track_key, fromRow(row));
    return found;
  }

  async save(analysis: StoredAnalysis): Promise<boolean> {
    const values = toRow(analysis);
    const tags = analysis.features.tags;
    const insert = async (db: Kysely<DatabaseSchema>): Promise<boolean> => {
      const into = db.insertInto('analyses');
      const query =
        this.database.dialect === 'sqlite'
          ? into.values({ ...values, seq: sql<number>`(select coalesce(max(seq), 0) + 1 from analyses)` })
          : into.values(values);
      const row = await query.onConflict((oc) => oc.column('track_key').doNothing()).returning('seq').executeTakeFirst();
      // The first save of a key writes its tags; a later one leaves both as they are.
      if (row) await insertTags(db, Number(row.seq), tags);
      return row !== undefined;
    };
    // With tags, the analysis and its tag rows are one transaction: both are stored or neither.
    return guardConnection(() => (tags && tags.length > 0 ? this.database.db.transaction().execute(insert) : insert(this.database.db)));
  }

  async replace(analysis: StoredAnalysis): Promise<boolean> {
    // Every column but the key (and SQLite's seq, the row's place in insertion order) is rewritten
    // by one UPDATE; the tag rows are swapped in the same transaction (the analysis replaced may
    // have had tags, or other ones).
    const { track_key: trackKey, ...values } = toRow(analysis);
    return guardConnection(() =>
      this.database.db.transaction().execute(async (trx) => {
        const row = await trx.updateTable('analyses').set(values).where('track_key', '=', trackKey).returning('seq').executeTakeFirst();
        if (!row) return false;
        await trx.deleteFrom('analysis_tags').where('seq', '=', Number(row.seq)).execute();
        await insertTags(trx, Number(row.seq), analysis.features.tags);
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

/** The tag rows of the analysis stored as `seq` (analysis_tags, src/db/tag-rows.ts), on `db` (a transaction). */
async function insertTags(db: Kysely<DatabaseSchema>, seq: number, tags: StoredAnalysis['features']['tags']): Promise<void> {
  const rows = tagRows(seq, tags);
  if (rows.length > 0) await db.insertInto('analysis_tags').values(rows).execute();
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

export function fromRow(r: Row): StoredAnalysis {
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
      ...fromTimelineColumn(r.timeline),
      engine: r.engine,
    },
  };
}

/**
 * The timeline column holds the timeline's JSON and, beside its lists, the tempo alternatives and
 * the tagger's tags (analyses the models made): read with the whole analysis. (Browse filters by
 * tags through their own table, analysis_tags, written beside this column.) Segments are
 * kept as rows of numbers (SEGMENT_ROW's order), half the size of their objects: ~100 segments
 * make most of a 30 s window's timeline. Rows written before engine 11 lack the segments and the
 * tempo alternatives.
 */
interface TimelineColumn {
  beats: Timeline['beats'];
  bars: Timeline['bars'];
  sections: Timeline['sections'];
  segmentRows?: number[][];
  tempoAlternatives?: TempoAlternative[];
  tags?: TagScore[];
}

/** A stored segment row: these fields, then its 12 pitches and its 12 timbre coefficients. */
const SEGMENT_ROW = ['start', 'duration', 'confidence', 'loudnessStart', 'loudnessMax', 'loudnessMaxTime', 'loudnessEnd'] as const;

function timelineColumn(f: AudioFeatures): TimelineColumn {
  const { segments, ...lists } = f.timeline;
  return {
    ...lists,
    ...(segments ? { segmentRows: segments.map((s) => [...SEGMENT_ROW.map((k) => s[k]), ...s.pitches, ...s.timbre]) } : {}),
    ...(f.tempoAlternatives ? { tempoAlternatives: f.tempoAlternatives } : {}),
    ...(f.tags ? { tags: f.tags } : {}),
  };
}

function fromTimelineColumn(json: string): { timeline: Timeline; tempoAlternatives?: TempoAlternative[]; tags?: TagScore[] } {
  const { segmentRows, tempoAlternatives, tags, ...lists } = JSON.parse(json) as TimelineColumn;
  const timeline: Timeline = segmentRows ? { ...lists, segments: segmentRows.map(segmentOfRow) } : lists;
  return { timeline, ...(tempoAlternatives ? { tempoAlternatives } : {}), ...(tags ? { tags } : {}) };
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
