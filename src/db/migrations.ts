import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { DESCRIPTORS, columnOf } from '../core/descriptors';
import { foldForSearch } from '../core/fold';
import { tagRows } from './tag-rows';
import type { Database, Dialect } from './database';

const REAL = 'double precision' as const;

/*
 * The column lists below are the schema as these migrations made it, kept as written: a
 * migration that has run must do the same on every database. Descriptors added to the registry
 * since are added by syncDescriptorColumns, which runs after the migrations.
 */

/** The numeric columns migration 0001 created. */
const NUMERIC_COLUMNS_0001 = [
  'tempo', 'loudness', 'energy', 'liveness', 'danceability', 'instrumentalness', 'speechiness', 'valence',
  'arousal', 'approachability', 'engagement', 'mood_happy', 'mood_sad', 'mood_relaxed', 'mood_aggressive',
  'tempo_confidence', 'key_confidence', 'mode_confidence', 'time_signature_confidence',
] as const;

/** The orderable columns migration 0002 indexed on (column, seq). */
const ORDERABLE_COLUMNS_0002 = [
  'tempo', 'duration_ms', 'loudness', 'energy', 'liveness', 'danceability', 'instrumentalness', 'speechiness',
  'valence', 'arousal', 'approachability', 'engagement', 'mood_happy', 'mood_sad', 'mood_relaxed', 'mood_aggressive',
] as const;

/**
 * The columns of analyses_features (SQLite, migration 0004), in order: (key, mode, tempo) first
 * for similar()'s ranges, then every other column a browse filter tests or similar() ranks by,
 * seq, and track_key, so both can be answered from the index alone.
 */
const FEATURE_INDEX_COLUMNS_0004 = [
  'key', 'mode', 'tempo', 'time_signature', ...ORDERABLE_COLUMNS_0002.filter((c) => c !== 'tempo'), 'seq', 'track_key',
] as const;

/**
 * The columns of analyses_features since migration 0011: 0004's, and acousticness (the descriptor
 * added since, which similar() and recommendations rank by) before seq and track_key.
 */
export const FEATURE_INDEX_COLUMNS = [...FEATURE_INDEX_COLUMNS_0004.slice(0, -2), 'acousticness', 'seq', 'track_key'] as const;

/**
 * The schema, as ordered migrations written once for both dialects. Kysely's Migrator records
 * what ran in its own table and takes a lock, so several nodes starting at once migrate once.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_analyses_and_api_keys': {
      async up(db: Kysely<unknown>) {
        let table = db.schema
          .createTable('analyses')
          .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
            dialect === 'postgres' ? c.notNull().unique() : c.notNull(),
          )
          .addColumn('track_key', 'text', (c) => c.primaryKey())
          .addColumn('artist', 'text', (c) => c.notNull())
          .addColumn('track_name', 'text', (c) => c.notNull())
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addColumn('key', 'integer', (c) => c.notNull())
          .addColumn('mode', 'integer', (c) => c.notNull())
          .addColumn('time_signature', 'integer', (c) => c.notNull());
        for (const column of NUMERIC_COLUMNS_0001) table = table.addColumn(column, REAL, (c) => c.notNull());
        await table
          .addColumn('timeline', 'text', (c) => c.notNull())
          .addColumn('engine', 'text', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('analysed_at', 'text', (c) => c.notNull())
          .execute();
        if (dialect === 'sqlite') {
          // SQLite has no sequences: seq is assigned as max(seq)+1 inside the insert.
          await db.schema.createIndex('analyses_seq').unique().on('analyses').column('seq').execute();
        }
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('api_keys').execute();
        await db.schema.dropTable('analyses').execute();
      },
    },
    '0002_browse_indexes': {
      // One index per orderable field, on (field, seq): it serves `ORDER BY field, seq` in either
      // direction and the keyset cursor `(field, seq) > (v, s)` without a sort, and a range filter
      // on that field. Filters on other fields are checked on the rows the index walks (see
      // docs/API.md, "Browse"). seq alone already has its unique index.
      async up(db: Kysely<unknown>) {
        for (const column of ORDERABLE_COLUMNS_0002) {
          await db.schema.createIndex(`analyses_by_${column}`).ifNotExists().on('analyses').columns([column, 'seq']).execute();
        }
        // similar(): one index range per (key, mode) of the key neighbourhood, within a tempo band.
        await db.schema.createIndex('analyses_by_key_mode_tempo').ifNotExists().on('analyses').columns(['key', 'mode', 'tempo']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const column of ORDERABLE_COLUMNS_0002) await db.schema.dropIndex(`analyses_by_${column}`).ifExists().execute();
        await db.schema.dropIndex('analyses_by_key_mode_tempo').ifExists().execute();
      },
    },
    '0003_folded_names': {
      // artist_fold, title_fold: the names as text filters match them (foldForSearch: NFKD, case
      // folded, diacritics removed), written with each analysis (SqlAnalysisStore, toRow) and
      // back-filled here for the rows already stored, in JS (neither database can fold Unicode
      // the same way as the other), a batch of rows per statement in seq order. No index: a
      // substring cannot use a b-tree; text filters are checked on the rows a page reads.
      async up(db: Kysely<unknown>) {
        for (const column of ['artist_fold', 'title_fold']) {
          // SQLite adds a NOT NULL column only with a default. Postgres gets none (a default would
          // stay in its catalogue as the column's "missing value", for no row's benefit: every row
          // is written by the back-fill); NOT NULL is set after the back-fill instead.
          await db.schema
            .alterTable('analyses')
            .addColumn(column, 'text', (c) => (dialect === 'sqlite' ? c.notNull().defaultTo('') : c))
            .execute();
        }
        await backFillFolds(db);
        if (dialect === 'postgres') {
          for (const column of ['artist_fold', 'title_fold']) await db.schema.alterTable('analyses').alterColumn(column, (c) => c.setNotNull()).execute();
        }
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('analyses').dropColumn('title_fold').execute();
        await db.schema.alterTable('analyses').dropColumn('artist_fold').execute();
      },
    },
    '0004_covering_features': {
      // SQLite: analyses_features replaces analyses_by_key_mode_tempo (its first three columns):
      // similar() and a sorted page read it without touching the table (docs/API.md, "Browse").
      // Postgres keeps the narrow index: its similar() reads an OR of ranges as bitmaps, which
      // always visit the table, and its sorted pages AND the filters' own bitmaps, so the wider
      // index only cost inserts and reads (measured: BENCHMARKS.md, "Browse"). Both gather
      // their statistics again.
      async up(db: Kysely<unknown>) {
        if (dialect === 'sqlite') {
          await db.schema.dropIndex('analyses_by_key_mode_tempo').ifExists().execute();
          await db.schema.createIndex('analyses_features').ifNotExists().on('analyses').columns([...FEATURE_INDEX_COLUMNS_0004]).execute();
        }
        await sql`analyze analyses`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect !== 'sqlite') return;
        await db.schema.dropIndex('analyses_features').ifExists().execute();
        await db.schema.createIndex('analyses_by_key_mode_tempo').ifNotExists().on('analyses').columns(['key', 'mode', 'tempo']).execute();
      },
    },
    '0005_api_key_lifecycle': {
      // Keys gain a scope (read, admin), an optional expiry and where they were made; the keys
      // made before are read keys made by the CLI. When each key was last used, and its requests
      // and analyses per UTC day, are written in batches by every API node (src/auth/api-keys.ts,
      // src/usage): keyed by key id, so keys from API_KEYS and ADMIN_API_KEYS have them too.
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('api_keys').addColumn('scope', 'text', (c) => c.notNull().defaultTo('read')).execute();
        await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
        await db.schema.alterTable('api_keys').addColumn('source', 'text', (c) => c.notNull().defaultTo('cli')).execute();
        await db.schema
          .createTable('api_key_last_used')
          .addColumn('key_id', 'text', (c) => c.primaryKey())
          .addColumn('last_used_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('api_key_usage')
          .addColumn('key_id', 'text', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('analyses', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('api_key_usage_pk', ['key_id', 'day'])
          .execute();
        // An admin's usage(days) reads every key's rows of the last days.
        await db.schema.createIndex('api_key_usage_by_day').on('api_key_usage').columns(['day', 'key_id']).execute();
        await db.schema
          .createTable('api_key_usage_batches')
          .addColumn('batch_id', 'text', (c) => c.primaryKey())
          .addColumn('flushed_at', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('api_key_usage_batches').execute();
        await db.schema.dropTable('api_key_usage').execute();
        await db.schema.dropTable('api_key_last_used').execute();
        for (const column of ['source', 'expires_at', 'scope']) await db.schema.alterTable('api_keys').dropColumn(column).execute();
      },
    },
    '0006_webhooks': {
      // Webhooks per API key, their deliveries (the pending ones are the retry queue, so they
      // survive a restart), and which keys asked for an analysis not stored yet. Times are ISO
      // text like the other tables'; toISOString() text sorts as time does.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('webhooks')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('key_id', 'text', (c) => c.notNull())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('events', 'text', (c) => c.notNull())
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('disabled_at', 'text')
          .addColumn('disabled_reason', 'text')
          .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('webhooks_by_key').on('webhooks').columns(['key_id', 'created_at']).execute();
        await db.schema
          .createTable('webhook_deliveries')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('webhook_id', 'text', (c) => c.notNull())
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('event', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'text')
          .addColumn('response_status', 'integer')
          .addColumn('duration_ms', 'integer')
          .addColumn('error', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('webhook_deliveries_once', ['event_id', 'webhook_id'])
          .execute();
        // The dispatchers' question, "what is due?": finished deliveries have no next_attempt_at.
        await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').column('next_attempt_at').execute();
        await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
        await db.schema
          .createTable('webhook_interests')
          .addColumn('track_key', 'text', (c) => c.notNull())
          .addColumn('key_id', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('webhook_interests_pk', ['track_key', 'key_id'])
          .execute();
        await db.schema.createIndex('webhook_interests_by_age').on('webhook_interests').column('created_at').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('webhook_interests').execute();
        await db.schema.dropTable('webhook_deliveries').execute();
        await db.schema.dropTable('webhooks').execute();
      },
    },
    '0007_upload_usage': {
      // Uploads and the bytes received for them, per key per UTC day: what the upload quota
      // (UPLOAD_QUOTA_FILES_PER_DAY, UPLOAD_QUOTA_BYTES_PER_DAY) counts against.
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('api_key_usage').addColumn('uploads', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('api_key_usage').addColumn('upload_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('api_key_usage').dropColumn('upload_bytes').execute();
        await db.schema.alterTable('api_key_usage').dropColumn('uploads').execute();
      },
    },
    '0008_analysis_tags': {
      // The tagger's tags of each analysis, a row per tag, so that browse can find the analyses
      // of a tag from an index alone: (tag, milli, …) answers "probability ≥ p", (tag, rank, …)
      // "among its n most probable"; the primary key (seq, tag) answers "does this analysis have
      // it" for the rows an order index walks (on SQLite the table is that key's b-tree: WITHOUT
      // ROWID). All numbers (the analysis by seq, the tag by id, the probability in thousandths):
      // 50 rows an analysis in three b-trees. Rows stored before are back-filled from their
      // timeline column, where the tags also stay.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('analysis_tags')
          .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
          .addColumn('tag', 'smallint', (c) => c.notNull())
          .addColumn('milli', 'smallint', (c) => c.notNull())
          .addColumn('rank', 'smallint', (c) => c.notNull())
          .addPrimaryKeyConstraint('analysis_tags_pk', ['seq', 'tag'])
          .modifyEnd(dialect === 'sqlite' ? sql`without rowid` : sql``)
          .execute();
        await db.schema.createIndex('analysis_tags_by_tag').on('analysis_tags').columns(['tag', 'milli', 'rank', 'seq']).execute();
        await db.schema.createIndex('analysis_tags_by_rank').on('analysis_tags').columns(['tag', 'rank', 'milli', 'seq']).execute();
        await backFillTags(db);
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('analysis_tags').execute();
      },
    },
    '0009_tag_order': {
      // Browse orders by a tag's probability (ties in storage order): (tag, milli, seq) walks a
      // tag's analyses in that order and its keyset without a sort. rank stays in the index, last,
      // so "probability ≥ p among the n most probable" is still answered from it alone.
      async up(db: Kysely<unknown>) {
        await db.schema.dropIndex('analysis_tags_by_tag').execute();
        await db.schema.createIndex('analysis_tags_by_tag').on('analysis_tags').columns(['tag', 'milli', 'seq', 'rank']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('analysis_tags_by_tag').execute();
        await db.schema.createIndex('analysis_tags_by_tag').on('analysis_tags').columns(['tag', 'milli', 'rank', 'seq']).execute();
      },
    },
    '0010_analysis_segments': {
      // The segments of each analysis (~100 rows of 31 numbers: most of a timeline's bytes) move
      // out of its timeline column into a table of their own, keyed by the analysis' seq, so the
      // rows a browse page reads (and decodes: the timeline column is read with every row) no
      // longer carry them; only the reads of one analysis (the store's get and getMany) join
      // them back. Rows stored before are moved here, a batch at a time in seq order: their
      // segments written to the table, their timeline rewritten without them.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('analysis_segments')
          // SQLite: an INTEGER PRIMARY KEY is the rowid itself (no second b-tree).
          .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.primaryKey())
          .addColumn('segments', 'text', (c) => c.notNull())
          .execute();
        await moveSegments(db, 'out');
      },
      async down(db: Kysely<unknown>) {
        await moveSegments(db, 'back');
        await db.schema.dropTable('analysis_segments').execute();
      },
    },
    '0011_features_cover_acousticness': {
      // SQLite: analyses_features built again with acousticness (FEATURE_INDEX_COLUMNS), the
      // descriptor added since 0004: similar() and recommendations rank by it, and without it in
      // the index each of their candidates was read from the table (3,000 a call of similar(): at
      // 1,000,000 analyses about 40 ms of CPU, where the index alone costs a fraction). The column
      // is added here when syncDescriptorColumns has not added it yet (a new database: it runs
      // after the migrations), as it adds it: nullable, the analyses stored before without a
      // value. Postgres has no such index (migration 0004): nothing to do.
      async up(db: Kysely<unknown>) {
        if (dialect !== 'sqlite') return;
        const { rows } = await sql<{ name: string }>`select name from pragma_table_info('analyses')`.execute(db);
        if (!rows.some((r) => r.name === 'acousticness')) await db.schema.alterTable('analyses').addColumn('acousticness', REAL).execute();
        await db.schema.dropIndex('analyses_features').ifExists().execute();
        await db.schema.createIndex('analyses_features').on('analyses').columns([...FEATURE_INDEX_COLUMNS]).execute();
        await sql`analyze analyses`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect !== 'sqlite') return;
        await db.schema.dropIndex('analyses_features').ifExists().execute();
        await db.schema.createIndex('analyses_features').on('analyses').columns([...FEATURE_INDEX_COLUMNS_0004]).execute();
      },
    },
    '0012_analyses_revision': {
      // When each analysis was last written, for the in-memory browse index (browse.index.ts) to
      // read only what changed since it last looked: SQLite, the table's largest revision plus one
      // (writers are serialised); Postgres, the writing transaction's id (pg_current_xact_id,
      // the column's default; an update sets it). Rows stored before are 0: the index's first
      // load reads every row.
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('analyses').addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
        if (dialect === 'postgres') await sql`alter table analyses alter column revision set default pg_current_xact_id()::text::bigint`.execute(db);
        await db.schema.createIndex('analyses_by_revision').on('analyses').column('revision').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('analyses_by_revision').execute();
        await db.schema.alterTable('analyses').dropColumn('revision').execute();
      },
    },
    '0013_analysis_embeddings': {
      // The sound embeddings of each analysis (engine 25 on), a row per kind, keyed by the
      // analysis' seq and written in the analysis' transaction, so the sound index finds them by
      // the analysis' revision. Binary (32-bit floats): a 64-number vector is 256 bytes.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('analysis_embeddings')
          .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('vector', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
          .addPrimaryKeyConstraint('analysis_embeddings_pk', ['seq', 'kind'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('analysis_embeddings').execute();
      },
    },
    '0014_source_tracks': {
      // The songs of a music server (SOURCES=subsonic) by their server ids, each with the track
      // key its names give and a marker of its file's version (when the server added it, its
      // size): what the whole-server index skips, and how playlists saved into the server find a
      // stored track's song.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('source_tracks')
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('source_id', 'text', (c) => c.notNull())
          .addColumn('track_key', 'text', (c) => c.notNull())
          .addColumn('version', 'text')
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('source_tracks_pk', ['source', 'source_id'])
          .execute();
        await db.schema.createIndex('source_tracks_by_key').on('source_tracks').columns(['source', 'track_key']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('source_tracks').execute();
      },
    },
  };
}

/** Analyses whose segments are moved per batch (one statement each way). */
const SEGMENT_BATCH = 200;

/**
 * Migration 0010's move: `out`, the segment rows of each timeline column that has them
 * (`segmentRows`, written since engine 11) into analysis_segments, the column rewritten without
 * them; `back` (down), the other way. Only rows whose text names segments are read whole.
 */
async function moveSegments(db: Kysely<unknown>, way: 'out' | 'back'): Promise<void> {
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const { rows } =
      way === 'out'
        ? await sql<{ seq: number | string; timeline: string }>`
            select seq, timeline from analyses where seq > ${after} and timeline like ${'%"segmentRows":%'}
            order by seq limit ${SEGMENT_BATCH}`.execute(db)
        : await sql<{ seq: number | string; timeline: string; segments: string }>`
            select a.seq, a.timeline, s.segments from analyses as a join analysis_segments as s on s.seq = a.seq
            where a.seq > ${after} order by a.seq limit ${SEGMENT_BATCH}`.execute(db);
    if (rows.length === 0) return;
    const moved = (rows as { seq: number | string; timeline: string; segments?: string }[]).map((r) => {
      const { segmentRows, ...rest } = JSON.parse(r.timeline) as { segmentRows?: unknown };
      return way === 'out'
        ? { seq: Number(r.seq), timeline: JSON.stringify(rest), segments: Array.isArray(segmentRows) ? JSON.stringify(segmentRows) : undefined }
        : { seq: Number(r.seq), timeline: JSON.stringify({ ...rest, segmentRows: JSON.parse(r.segments ?? '[]') as unknown }) };
    });
    const segments = moved.flatMap((m) => ('segments' in m && m.segments !== undefined ? [sql`(${m.seq}, ${m.segments})`] : []));
    if (segments.length > 0) await sql`insert into analysis_segments (seq, segments) values ${sql.join(segments)}`.execute(db);
    // The seq typed: Postgres reads a VALUES list's parameters as text.
    await sql`with moved (s, t) as (values ${sql.join(moved.map((m) => sql`(cast(${m.seq} as bigint), ${m.timeline})`))})
      update analyses set timeline = moved.t from moved where analyses.seq = moved.s`.execute(db);
    if (way === 'back') await sql`delete from analysis_segments where seq in (${sql.join(moved.map((m) => m.seq))})`.execute(db);
    after = Number(rows[rows.length - 1]!.seq);
    if (rows.length < SEGMENT_BATCH) return;
  }
}

/** Rows folded per statement of the back-fill (3 parameters each). */
const FOLD_BATCH = 500;

async function backFillFolds(db: Kysely<unknown>): Promise<void> {
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const { rows } = await sql<{ seq: number | string; track_key: string; artist: string; track_name: string }>`
      select seq, track_key, artist, track_name from analyses where seq > ${after} order by seq limit ${FOLD_BATCH}`.execute(db);
    if (rows.length === 0) return;
    const values = rows.map((r) => sql`(${r.track_key}, ${foldForSearch(r.artist)}, ${foldForSearch(r.track_name)})`);
    // UPDATE … FROM a VALUES list: SQLite ≥ 3.33 and Postgres both take it.
    await sql`with folded (k, a, t) as (values ${sql.join(values)})
      update analyses set artist_fold = folded.a, title_fold = folded.t from folded where analyses.track_key = folded.k`.execute(db);
    after = Number(rows[rows.length - 1]!.seq);
    if (rows.length < FOLD_BATCH) return;
  }
}

/** Analyses read per batch of the tags' back-fill; their tag rows are written TAG_ROWS_PER_STATEMENT at a time (4 parameters each). */
const TAG_BATCH = 200;
const TAG_ROWS_PER_STATEMENT = 500;

/**
 * The tag rows of the analyses stored before migration 0008, from the tags in their timeline
 * column (only rows whose column names tags are read whole). Tags that are not a list of
 * {name, probability} are skipped, as a read would not serve them either.
 */
async function backFillTags(db: Kysely<unknown>): Promise<void> {
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const { rows } = await sql<{ seq: number | string; timeline: string }>`
      select seq, timeline from analyses where seq > ${after} and timeline like ${'%"tags":[%'}
      order by seq limit ${TAG_BATCH}`.execute(db);
    if (rows.length === 0) return;
    const values = rows.flatMap((r) => tagRows(Number(r.seq), (JSON.parse(r.timeline) as { tags?: unknown }).tags));
    for (let i = 0; i < values.length; i += TAG_ROWS_PER_STATEMENT) {
      const chunk = values.slice(i, i + TAG_ROWS_PER_STATEMENT).map((t) => sql`(${t.seq}, ${t.tag}, ${t.milli}, ${t.rank})`);
      await sql`insert into analysis_tags (seq, tag, milli, rank) values ${sql.join(chunk)}`.execute(db);
    }
    after = Number(rows[rows.length - 1]!.seq);
    if (rows.length < TAG_BATCH) return;
  }
}

class InlineProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations(this.dialect));
  }
}

/**
 * Brings the schema of a database up to date. With a Postgres schema (DATABASE_SCHEMA), Kysely
 * keeps its bookkeeping tables there too (and creates the schema): otherwise it would find
 * another schema's bookkeeping and believe this one migrated.
 */
export async function migrateToLatest(database: Database): Promise<void> {
  await migrateTo(database);
  await syncDescriptorColumns(database);
}

/** The columns of this schema's analyses table (none when it does not exist); on Postgres the introspection reads the connection's own schema (schema.introspector.ts). */
async function analysesColumns({ db }: Database): Promise<Set<string>> {
  const analyses = (await db.introspection.getTables()).find((t) => t.name === 'analyses');
  return new Set(analyses?.columns.map((c) => c.name) ?? []);
}

/** The indexes of this schema's analyses table. */
async function analysesIndexes({ db, dialect }: Database): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`${
    dialect === 'postgres'
      ? sql`select indexname as name from pg_indexes where tablename = 'analyses' and schemaname = current_schema()`
      : sql`select name from sqlite_master where type = 'index' and tbl_name = 'analyses'`
  }`.execute(db);
  return new Set(rows.map((r) => r.name));
}

/**
 * Adds the column of every registry descriptor the analyses table lacks (a descriptor added
 * since the table was made), nullable: analyses stored before it have no value for it, and read
 * it as absent. A descriptor browse covers gets its (column, seq) index too. Safe to run from
 * several nodes at once: a column another node just added is taken as added.
 */
export async function syncDescriptorColumns(database: Database): Promise<void> {
  const { db } = database;
  const existing = await analysesColumns(database);
  if (existing.size === 0) return;
  // Only missing indexes are created: on Postgres even CREATE INDEX IF NOT EXISTS locks the table
  // against writes first, and a start would wait behind every writing transaction.
  const indexes = await analysesIndexes(database);
  for (const d of DESCRIPTORS) {
    const column = columnOf(d);
    if (!existing.has(column)) {
      try {
        await db.schema.alterTable('analyses').addColumn(column, REAL).execute();
      } catch (error) {
        if (!(await analysesColumns(database)).has(column)) throw error;
      }
    }
    const index = `analyses_by_${column}`;
    if (d.browse && !indexes.has(index)) {
      try {
        await db.schema.createIndex(index).ifNotExists().on('analyses').columns([column, 'seq']).execute();
      } catch (error) {
        // Postgres: two nodes creating it at once, IF NOT EXISTS or not, one fails on the catalogue's unique name.
        if (!(await analysesIndexes(database)).has(index)) throw error;
      }
    }
  }
}

/** Migrates up (or down) to the named migration; the latest when none is named (tests run older schemas with it). */
export async function migrateTo({ db, dialect, schema }: Database, target?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new InlineProvider(dialect),
    ...(schema && dialect === 'postgres' ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
