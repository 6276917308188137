import { toRow } from '../../../src/analysis/store/sql.store';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateToLatest, syncDescriptorColumns } from '../../../src/db/migrations';
import { analysisOf } from '../browse/browse.suite';
import { POSTGRES_URL, describeWith, dropSchema, uniqueName } from '../../helpers/infra';

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
    try {
      const outcome = await Promise.race([
        syncDescriptorColumns(database).then(() => 'synced'),
        new Promise<string>((resolve) => setTimeout(() => resolve('waited'), 3000)),
      ]);
      expect(outcome).toBe('synced');
    } finally {
      commit();
      await transaction;
    }
  });
});
