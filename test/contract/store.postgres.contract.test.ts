import { SqlAnalysisStore } from '../../src/analysis/store/sql.store';
import { openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrations';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../measure/store/infra';
import { describeWith } from '../helpers/describe-with';
import { describeStoreContract } from './store.contract';

describeWith({ postgres: true })('on the real Postgres', () => {
  describeStoreContract('Postgres (a schema of its own per test)', async () => {
    const schema = uniqueName('store');
    const database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
    await migrateToLatest(database);
    const store = new SqlAnalysisStore(database);
    return {
      store,
      async close() {
        await store.close();
        await dropSchema(schema);
      },
    };
  });

  it('when several nodes migrate one schema at once, then it is migrated once and works', async () => {
    const schema = uniqueName('migrate');
    const nodes = [0, 1, 2].map(() => openDatabase(POSTGRES_URL, '/nonexistent', schema));
    try {
      await Promise.all(nodes.map((d) => migrateToLatest(d)));
      const store = new SqlAnalysisStore(nodes[0]!);
      expect(await store.count()).toBe(0);
    } finally {
      await Promise.all(nodes.map((d) => d.db.destroy()));
      await dropSchema(schema);
    }
  });
});
