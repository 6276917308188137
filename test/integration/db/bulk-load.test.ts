import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { SqlAnalysisStore } from '../../../src/analysis/store/sql.store';
import type { Segment, StoredAnalysis } from '../../../src/core/types';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateToLatest } from '../../../src/db/migrations';
import { tagRows } from '../../../src/db/tag-rows';
import { Client } from 'pg';
import { bulkLoadPostgres, bulkLoadSqlite, copyField, copyFrom, type BulkSource } from '../../../measure/store/bulk-load';
import { POSTGRES_URL } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { syntheticAnalysis, syntheticTags } from '../../../measure/store/synthetic-analyses';
import { postgresDatabase, sqliteDatabase, type DatabaseUnderTest } from '../../contract/sql-database';

/*
 * The benchmarks' bulk load (measure/store/bulk-load.ts: indexes dropped and built again, SQLite
 * without a journal, Postgres by COPY) stores exactly what the store's own writes store: every
 * column of every row of the four tables, the indexes, and the next seq.
 */

const COUNT = 230;

function segment(i: number, k: number): Segment {
  return {
    start: k * 0.5,
    duration: 0.5,
    confidence: ((i + k) % 10) / 10,
    loudnessStart: -30 + k,
    loudnessMax: -10.25,
    loudnessMaxTime: 0.125,
    loudnessEnd: -40,
    pitches: Array.from({ length: 12 }, (_, p) => ((i * 31 + p * 7 + k) % 100) / 100),
    timbre: Array.from({ length: 12 }, (_, p) => (i - p * 3.5) / 7),
  };
}

/** Analyses with tags, some with segments, names holding what COPY's text format escapes. */
function analysisAt(i: number): StoredAnalysis {
  const base = syntheticAnalysis(i);
  const odd = ['tab\there', 'back\\slash', 'new\nline', 'cr\rhere', 'Beyoncé «quoted» "x"', '\\N', 'plain'][i % 7]!;
  const artist = `${base.artist} ${odd}`;
  return {
    ...base,
    artist,
    trackKey: `${base.trackKey}:${i}`,
    features: {
      ...base.features,
      tags: syntheticTags(i),
      // Some with embeddings, one kind or two.
      ...(i % 2 === 0 ? { embeddings: [{ kind: 'signal/1', vector: [i / 3, -1.5, 1e-7, i] }, ...(i % 4 === 0 ? [{ kind: 'musicnn/1', vector: [0.25, i] }] : [])] } : {}),
      timeline: { ...base.features.timeline, ...(i % 3 === 0 ? { segments: Array.from({ length: 1 + (i % 4) }, (_, k) => segment(i, k)) } : {}) },
    },
  };
}

const source: BulkSource = { count: COUNT, analysisAt, tagRowsAt: (i) => tagRows(0, analysisAt(i).features.tags) };

/** Every row of the three tables, in a fixed order, numbers as numbers; the loaded tables' indexes; the next seq. */
async function contents(database: Database) {
  const num = (rows: Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) && k !== 'track_key' ? Number(v) : v])));
  const { db, dialect } = database;
  // Every column but revision (migration 0012): when a row was written, which differs by design (a
  // bulk-loaded row is found by the browse index by its seq).
  const analyses = num((await sql<Record<string, unknown>>`select * from analyses order by seq`.execute(db)).rows).map(({ revision: _revision, ...row }) => row);
  const tags = num((await sql<Record<string, unknown>>`select seq, tag, milli, rank from analysis_tags order by seq, tag`.execute(db)).rows);
  const segments = num((await sql<Record<string, unknown>>`select seq, segments from analysis_segments order by seq`.execute(db)).rows);
  const embeddings = num((await sql<Record<string, unknown>>`select seq, kind, vector from analysis_embeddings order by seq, kind`.execute(db)).rows).map((r) => ({ ...r, vector: Buffer.from(r.vector as Uint8Array).toString('hex') }));
  const indexes =
    dialect === 'sqlite'
      ? (await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master where type = 'index' and tbl_name in ('analyses', 'analysis_tags', 'analysis_segments', 'analysis_embeddings') order by name`.execute(db)).rows
      : (await sql<{ name: string; sql: string }>`select indexname as name, replace(indexdef, current_schema() || '.', '') as sql from pg_indexes where schemaname = current_schema() and tablename in ('analyses', 'analysis_tags', 'analysis_segments', 'analysis_embeddings') order by indexname`.execute(db)).rows;
  return { analyses, tags, segments, embeddings, indexes };
}

async function viaStore(open: () => Promise<DatabaseUnderTest>) {
  const under = await open();
  try {
    const store = new SqlAnalysisStore(under.database);
    for (let i = 0; i < COUNT; i++) expect(await store.save(analysisAt(i))).toBe(true);
    return { ...(await contents(under.database)), next: await nextSeq(under.database) };
  } finally {
    await under.close();
  }
}

/** The seq the store gives the next analysis it saves. */
async function nextSeq(database: Database): Promise<number> {
  const extra = syntheticAnalysis(COUNT + 1);
  await new SqlAnalysisStore(database).save({ ...extra, trackKey: 'next' });
  const row = await database.db.selectFrom('analyses').select('seq').where('track_key', '=', 'next').executeTakeFirstOrThrow();
  return Number(row.seq);
}

describe('copyField (COPY text format)', () => {
  it('escapes backslashes and control characters, writes \\N for none', () => {
    expect(copyField('a\tb\\c\nd\re')).toBe('a\\tb\\\\c\\nd\\re');
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField(null)).toBe('\\N');
    expect(copyField(undefined)).toBe('\\N');
    expect(copyField(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(copyField('Beyoncé')).toBe('Beyoncé');
  });
});

describe('bulk load on SQLite', () => {
  it('stores what the store writes: every row of analyses, analysis_tags, analysis_segments and analysis_embeddings, the indexes, the next seq', async () => {
    const expected = await viaStore(sqliteDatabase);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-bulk-'));
    try {
      const file = path.join(dir, 'bulk.sqlite');
      const migrating = openDatabase(file, dir);
      await migrateToLatest(migrating);
      await migrating.close();
      const times = bulkLoadSqlite(file, source);
      expect(times.indexes.length).toBe(expected.indexes.filter((ix) => ix.sql !== null).length);
      const reopened = openDatabase(file, dir);
      try {
        const loaded = await contents(reopened);
        expect(loaded.analyses.length).toBe(COUNT);
        expect(loaded.tags.length).toBe(COUNT * 50);
        expect(loaded.segments.length).toBe(Math.ceil(COUNT / 3));
        expect(loaded.embeddings.length).toBe(COUNT / 2 + Math.ceil(COUNT / 4));
      expect(loaded).toEqual({ analyses: expected.analyses, tags: expected.tags, segments: expected.segments, embeddings: expected.embeddings, indexes: expected.indexes });
        expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(reopened.db)).rows[0]).toEqual({ journal_mode: 'wal' });
        expect(await nextSeq(reopened)).toBe(expected.next);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describeWith({ postgres: true })('bulk load on Postgres (COPY)', () => {
  it('stores what the store writes: every row of analyses, analysis_tags, analysis_segments and analysis_embeddings, the indexes, the next seq', async () => {
    const expected = await viaStore(() => postgresDatabase('bulk_store'));
    const under = await postgresDatabase('bulk_copy');
    try {
      const times = await bulkLoadPostgres(POSTGRES_URL!, under.database.schema!, source);
      expect(times.indexes.length).toBe(expected.indexes.length);
      const loaded = await contents(under.database);
      expect(loaded.analyses.length).toBe(COUNT);
      expect(loaded.tags.length).toBe(COUNT * 50);
      expect(loaded.embeddings.length).toBe(COUNT / 2 + Math.ceil(COUNT / 4));
      expect(loaded).toEqual({ analyses: expected.analyses, tags: expected.tags, segments: expected.segments, embeddings: expected.embeddings, indexes: expected.indexes });
      expect(await nextSeq(under.database)).toBe(expected.next);
    } finally {
      await under.close();
    }
  });
});

describeWith({ postgres: true })('copyFrom (COPY … FROM STDIN, pg-copy-streams)', () => {
  it('copies every chunk\'s rows and says how many; a producer that fails aborts the COPY and nothing is stored', async () => {
    const client = new Client({ connectionString: POSTGRES_URL! });
    await client.connect();
    const table = `copy_from_${process.pid}`;
    try {
      await client.query(`create temporary table ${table} (n int, name text)`);
      expect(await copyFrom(client, `copy ${table} from stdin`, ['1\tone\n2\t', 'two\n3\t\\N\n'])).toBe(3);
      expect((await client.query(`select n, name from ${table} order by n`)).rows).toEqual([
        { n: 1, name: 'one' },
        { n: 2, name: 'two' },
        { n: 3, name: null },
      ]);
      async function* failing(): AsyncGenerator<string> {
        yield '4\tfour\n';
        throw new Error('the producer failed');
      }
      await expect(copyFrom(client, `copy ${table} from stdin`, failing())).rejects.toThrow();
      expect((await client.query(`select count(*)::int as c from ${table}`)).rows[0]).toEqual({ c: 3 });
      // The connection is usable after the aborted COPY.
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});
