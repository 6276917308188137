import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { SqlAnalysisStore, toRow } from '../../../src/analysis/store/sql.store';
import { SqlTracksQuery } from '../../../src/analysis/store/tracks.query';
import { DESCRIPTOR_COLUMNS } from '../../../src/db/columns';
import { openDatabase, type Database } from '../../../src/db/database';
import { FEATURE_INDEX_COLUMNS, migrateTo, migrateToLatest } from '../../../src/db/migrations';
import { analysisOf, rowBeforeAddedDescriptors } from '../browse/browse.suite';

/*
 * Migration 0011 (SQLite): analyses_features holds every descriptor column similar() and the
 * recommendations rank by, acousticness included, so their candidates are read from it alone.
 */

describe('SQLite analyses_features (migration 0011)', () => {
  let dir: string;
  let database: Database;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-features-'));
    database = openDatabase(path.join(dir, 'features.sqlite'), dir);
  });
  afterEach(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  const indexColumns = async (): Promise<string[]> =>
    (await sql<{ name: string }>`select name from pragma_index_info('analyses_features') order by seqno`.execute(database.db)).rows.map((r) => r.name);

  it('holds every descriptor column, acousticness before seq, on a database migrated before it, rows and all', async () => {
    // At migration 0010, before syncDescriptorColumns ever ran: no acousticness column yet.
    await migrateTo(database, '0010_analysis_segments');
    const names = async () => (await sql<{ name: string }>`select name from pragma_table_info('analyses')`.execute(database.db)).rows.map((r) => r.name);
    expect(await names()).not.toContain('acousticness');
    expect(await indexColumns()).not.toContain('acousticness');
    for (let i = 0; i < 30; i++) {
      await database.db.insertInto('analyses').values({ ...rowBeforeAddedDescriptors(toRow(analysisOf(`Old ${i % 3}`, `Old ${i}`, {}, 300 + i))), seq: i + 1 }).execute();
    }
    await migrateToLatest(database);
    expect(await names()).toContain('acousticness');
    expect(await indexColumns()).toEqual([...FEATURE_INDEX_COLUMNS]);
    for (const column of DESCRIPTOR_COLUMNS) expect(FEATURE_INDEX_COLUMNS).toContain(column);
    expect((await indexColumns()).slice(-3)).toEqual(['acousticness', 'seq', 'track_key']);
    expect((await sql<{ n: number }>`select count(*) as n from analyses indexed by analyses_features where acousticness is null`.execute(database.db)).rows[0]!.n).toBe(30);
    // Down to 0010: the index as migration 0004 made it; up again.
    await migrateTo(database, '0010_analysis_segments');
    expect(await indexColumns()).toEqual(FEATURE_INDEX_COLUMNS.filter((c) => c !== 'acousticness'));
    await migrateToLatest(database);
    expect(await indexColumns()).toEqual([...FEATURE_INDEX_COLUMNS]);
  });

  it('similar()’s candidates are read from analyses_features alone (a covering index: no table row)', async () => {
    await migrateToLatest(database);
    const store = new SqlAnalysisStore(database);
    for (let i = 0; i < 40; i++) await store.save(analysisOf(`Near ${i % 4}`, `Near ${i}`, {}, 400 + i));
    const plans: string[] = [];
    const executor = database.db.getExecutor();
    const run = executor.executeQuery.bind(executor);
    const spy = jest.spyOn(executor, 'executeQuery').mockImplementation(async (query) => {
      if (/from "analyses"/.test(query.sql) && !/^explain/.test(query.sql)) {
        const plan = await run(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
        plans.push((plan.rows as { detail: string }[]).map((r) => r.detail).join('\n'));
      }
      return run(query);
    });
    try {
      const rows = await new SqlTracksQuery(database).candidates({ tempo: [{ min: 60, max: 200 }], keyModes: [{ key: 0, mode: 1 }, { key: 7, mode: 0 }], excludeTrackKey: 'none', limit: 100 });
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(typeof r.acousticness).toBe('number');
    } finally {
      spy.mockRestore();
    }
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatch(/USING COVERING INDEX analyses_features \(key=\? AND mode=\? AND tempo>\? AND tempo<\?\)/);
    expect(plans[0]).not.toMatch(/USING INDEX analyses_features/);
  });
});
