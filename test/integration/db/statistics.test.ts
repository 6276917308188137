import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { toRow } from '../../../src/analysis/store/sql.store';
import { openDatabase, refreshStatistics, type Database } from '../../../src/db/database';
import { migrateTo, migrateToLatest } from '../../../src/db/migrations';
import { analysisOf, rowBeforeAddedDescriptors } from '../browse/browse.suite';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';

/*
 * The planners choose a page's indexes from statistics (docs/API.md, "Browse"), so the
 * statistics must exist: after a bulk load, when a database is opened with rows never analysed,
 * and when a connection that wrote many rows closes.
 */

/** Writes `n` analyses in a few statements, as a bulk load does (SQLite: seq given). */
async function bulkLoad(database: Database, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i += 250) {
    const rows = [];
    for (let j = i; j < Math.min(from + n, i + 250); j++) {
      // Loaded before or after the migrations: the columns an early schema lacks are left out.
      const row = rowBeforeAddedDescriptors(toRow(analysisOf(`Bulk ${j % 40}`, `Bulk ${j}`, {}, 100 + j)));
      rows.push(database.dialect === 'sqlite' ? { ...row, seq: j + 1 } : row);
    }
    await database.db.insertInto('analyses').values(rows).execute();
  }
}

describe('SQLite statistics', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-stats-'));
    file = path.join(dir, 'stats.sqlite');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** What SQLite has recorded about analyses, read through a connection of its own. */
  const recorded = (): { rows: number | undefined; samples: number } => {
    const raw = new SQLite(file, { readonly: true });
    try {
      const hasStat4 = raw.prepare("select count(*) as n from sqlite_master where name = 'sqlite_stat4'").get() as { n: number };
      const stat1 = raw.prepare("select stat from sqlite_stat1 where tbl = 'analyses' and idx = 'analyses_by_energy'").get() as { stat: string } | undefined;
      const samples = hasStat4.n === 0 ? 0 : (raw.prepare("select count(*) as n from sqlite_stat4 where idx = 'analyses_by_energy'").get() as { n: number }).n;
      return { rows: stat1 ? Number(stat1.stat.split(' ')[0]) : undefined, samples };
    } finally {
      raw.close();
    }
  };

  it('refreshStatistics after a bulk load records every index, with sqlite_stat4 samples for range estimates', async () => {
    const database = openDatabase(file, dir);
    await migrateToLatest(database);
    await bulkLoad(database, 1500);
    await refreshStatistics(database);
    const raw = new SQLite(file, { readonly: true });
    const indexes = raw.prepare("select idx, stat from sqlite_stat1 where tbl = 'analyses'").all() as { idx: string; stat: string }[];
    raw.close();
    expect(indexes.map((i) => i.idx)).toEqual(expect.arrayContaining(['analyses_features', 'analyses_by_tempo', 'analyses_by_energy', 'analyses_seq']));
    for (const index of indexes) expect({ idx: index.idx, rows: Number(index.stat.split(' ')[0]) }).toEqual({ idx: index.idx, rows: 1500 });
    expect(recorded().samples).toBeGreaterThan(10);
    await database.close();
  });

  it('closing a connection that wrote many rows analyses them (PRAGMA optimize)', async () => {
    const database = openDatabase(file, dir);
    await migrateToLatest(database);
    await bulkLoad(database, 1200);
    expect(recorded().rows).toBeUndefined();
    await database.close();
    expect(recorded()).toEqual({ rows: 1200, samples: expect.any(Number) as number });
    expect(recorded().samples).toBeGreaterThan(10);
  });

  it('opening a database whose analyses were never analysed, or have grown many times over, analyses them', async () => {
    const first = openDatabase(file, dir);
    await migrateToLatest(first);
    await bulkLoad(first, 100);
    await refreshStatistics(first);
    expect(recorded().rows).toBe(100);
    // Rows written by another program (no optimize of ours on its close).
    await bulkLoad(first, 3000, 100);
    await first.db.destroy();
    expect(recorded().rows).toBe(100);
    const second = openDatabase(file, dir);
    expect(recorded().rows).toBe(3100);
    // Nothing changed since: the check on the next open is a no-op (statistics unchanged).
    await second.close();
    expect(recorded().rows).toBe(3100);
  });
});

describeWith({ postgres: true })('Postgres statistics', () => {
  let schema: string;
  let database: Database;
  beforeEach(() => {
    schema = uniqueName('stats');
    database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
  });
  afterEach(async () => {
    await database.close();
    await dropSchema(schema);
  });

  const analysed = async (): Promise<{ columns: number; lastAnalyze: unknown }> => {
    const { rows } = await sql<{ columns: string; last_analyze: unknown }>`
      select (select count(*) from pg_stats where schemaname = ${schema} and tablename = 'analyses') as columns,
             (select last_analyze from pg_stat_user_tables where schemaname = ${schema} and relname = 'analyses') as last_analyze`.execute(database.db);
    return { columns: Number(rows[0]!.columns), lastAnalyze: rows[0]!.last_analyze };
  };

  it('migration 0004 analyses the table (statistics for every column, last_analyze set)', async () => {
    await migrateTo(database, '0003_folded_names');
    await bulkLoad(database, 600);
    expect((await analysed()).columns).toBe(0);
    await migrateToLatest(database);
    const after = await analysed();
    expect(after.columns).toBeGreaterThan(20);
    expect(after.lastAnalyze).not.toBeNull();
  });

  it('refreshStatistics after a bulk load gathers them at once, not when autovacuum gets to it', async () => {
    await migrateToLatest(database);
    await bulkLoad(database, 600);
    await refreshStatistics(database);
    const { rows } = await sql<{ n: number }>`
      select n_distinct as n from pg_stats where schemaname = ${schema} and tablename = 'analyses' and attname = 'track_key'`.execute(database.db);
    // Every track_key distinct: Postgres records that as -1 (a fraction of the rows).
    expect(Number(rows[0]?.n)).toBe(-1);
  });
});
