import { sql } from 'kysely';
import { toRow } from '../../../src/analysis/store/sql.store';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateToLatest, syncDescriptorColumns } from '../../../src/db/migrations';
import { analysisOf } from '../browse/browse.suite';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';

/*
 * Every start syncs the analyses table with the descriptor registry. When nothing is missing it
 * must not touch the table: on Postgres even CREATE INDEX IF NOT EXISTS waits for a lock that
 * conflicts with every writing transaction, so a node starting beside busy workers would hang.
 */
describeWith({ postgres: true })('Postgres: syncing the descriptor columns at start', () => {
  let schema: string;
  let database: Database;
  let writer: Database;
  beforeEach(async () => {
    schema = uniqueName('sync');
    database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
    await migrateToLatest(database);
    writer = openDatabase(POSTGRES_URL, '/nonexistent', schema);
  });
  afterEach(async () => {
    await writer.close();
    await database.close();
    await dropSchema(schema);
  });

  it('when every column and index exists and another connection is writing analyses, then the sync returns without waiting for it', async () => {
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const writing = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = writer.db.transaction().execute(async (tx) => {
      await tx.insertInto('analyses').values(toRow(analysisOf('Writer', 'Busy', {}, 120))).execute();
      inserted();
      await held;
    });
    await writing;
    let timer: NodeJS.Timeout | undefined;
    try {
      const outcome = await Promise.race([
        syncDescriptorColumns(database).then(() => 'synced'),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve('waited'), 3000))),
      ]);
      expect(outcome).toBe('synced');
    } finally {
      // Left running, the timer would hold Jest's worker after the last test for up to 3 s.
      clearTimeout(timer);
      commit();
      await transaction;
    }
  });
});

/*
 * Several schemas in one database (DATABASE_SCHEMA; every test run has its own): the sync reads
 * this schema's table, never another's that happens to have the column already.
 */
describeWith({ postgres: true })('Postgres: syncing the descriptor columns beside another schema', () => {
  const schemas: string[] = [];
  const opened: Database[] = [];
  const open = async (label: string): Promise<Database> => {
    const schema = uniqueName(label);
    schemas.push(schema);
    const database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
    opened.push(database);
    await migrateToLatest(database);
    return database;
  };
  afterEach(async () => {
    for (const d of opened.splice(0)) await d.close();
    for (const s of schemas.splice(0)) await dropSchema(s);
  });

  // Named so that the complete schema sorts first, where a lookup by table name alone finds it.
  it('when this schema lacks a descriptor column that another schema has, then the sync adds it here and analyses can be stored', async () => {
    await open('acomplete');
    const behind = await open('zbehind');
    await behind.db.schema.alterTable('analyses').dropColumn('acousticness').execute();
    await syncDescriptorColumns(behind);
    const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = 'analyses' and column_name = 'acousticness'`.execute(behind.db);
    expect(rows).toHaveLength(1);
    await behind.db.insertInto('analyses').values(toRow(analysisOf('Schema', 'Behind', {}, 100))).execute();
  });
  it("lists this schema's tables alone, the migrator's own only when asked: another schema is never read", async () => {
    const other = await open('aother');
    await other.db.schema.createTable('only_there').addColumn('x', 'integer').execute();
    const here = await open('zhere');
    const names = (await here.db.introspection.getTables()).map((t) => t.name);
    expect(names).toContain('analyses');
    expect(names).not.toContain('only_there');
    expect(names).not.toContain('kysely_migration');
    const withKysely = await here.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(withKysely.map((t) => t.name)).toContain('kysely_migration');
    expect(new Set(withKysely.map((t) => t.schema))).toEqual(new Set([schemas.at(-1)]));
    expect(withKysely.find((t) => t.name === 'analyses')!.columns.map((c) => c.name)).toContain('track_key');
  });
});
