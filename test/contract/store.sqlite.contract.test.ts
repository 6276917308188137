import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SqlAnalysisStore } from '../../src/analysis/store/sql.store';
import { openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrations';
import { describeStoreContract } from './store.contract';

describeStoreContract('SQLite', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-store-'));
  const database = openDatabase(undefined, dir);
  await migrateToLatest(database);
  const store = new SqlAnalysisStore(database);
  return {
    store,
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
