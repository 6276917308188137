import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { foldForSearch } from '../core/fold';
import type { Database, Dialect } from './database';

const REAL = 'double precision' as const;

const DESCRIPTOR_COLUMNS = [
  'tempo', 'loudness', 'energy', 'liveness', 'danceability', 'instrumentalness', 'speechiness', 'valence',
  'arousal', 'approachability', 'engagement', 'mood_happy', 'mood_sad', 'mood_relaxed', 'mood_aggressive',
  'tempo_confidence', 'key_confidence', 'mode_confidence', 'time_signature_confidence',
] as const;

/** Numeric columns tracks() can be ordered by (besides seq); each has an index on (column, seq). */
export const ORDERABLE_COLUMNS = [
  'tempo', 'duration_ms', 'loudness', 'energy', 'liveness', 'danceability', 'instrumentalness', 'speechiness',
  'valence', 'arousal', 'approachability', 'engagement', 'mood_happy', 'mood_sad', 'mood_relaxed', 'mood_aggressive',
] as const;

/**
 * The columns of analyses_features (SQLite, migration 0004), in order: (key, mode, tempo) first
 * for similar()'s ranges, then every other column a browse filter tests or similar() ranks by,
 * seq, and track_key, so both can be answered from the index alone.
 */
export const FEATURE_INDEX_COLUMNS = [
  'key', 'mode', 'tempo', 'time_signature', ...ORDERABLE_COLUMNS.filter((c) => c !== 'tempo'), 'seq', 'track_key',
] as const;

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
        for (const column of DESCRIPTOR_COLUMNS) table = table.addColumn(column, REAL, (c) => c.notNull());
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
        for (const column of ORDERABLE_COLUMNS) {
          await db.schema.createIndex(`analyses_by_${column}`).ifNotExists().on('analyses').columns([column, 'seq']).execute();
        }
        // similar(): one index range per (key, mode) of the key neighbourhood, within a tempo band.
        await db.schema.createIndex('analyses_by_key_mode_tempo').ifNotExists().on('analyses').columns(['key', 'mode', 'tempo']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const column of ORDERABLE_COLUMNS) await db.schema.dropIndex(`analyses_by_${column}`).ifExists().execute();
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
          await db.schema.createIndex('analyses_features').ifNotExists().on('analyses').columns([...FEATURE_INDEX_COLUMNS]).execute();
        }
        await sql`analyze analyses`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect !== 'sqlite') return;
        await db.schema.dropIndex('analyses_features').ifExists().execute();
        await db.schema.createIndex('analyses_by_key_mode_tempo').ifNotExists().on('analyses').columns(['key', 'mode', 'tempo']).execute();
      },
    },
  };
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

class InlineProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect);
  }
}

/**
 * Brings the schema of a database up to date. With a Postgres schema (DATABASE_SCHEMA), Kysely
 * keeps its bookkeeping tables there too (and creates the schema): otherwise it would find
 * another schema's bookkeeping and believe this one migrated.
 */
export async function migrateToLatest(database: Database): Promise<void> {
  await migrateTo(database);
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
