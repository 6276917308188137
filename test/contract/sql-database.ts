import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrations';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../measure/store/infra';

/** A store ready to test on an empty, migrated database, and how to remove that database. */
export interface StoreUnderTest<S> {
  store: S;
  close(): Promise<void>;
}

/** An empty, migrated database of its own, and how to remove it. */
export interface DatabaseUnderTest {
  database: Database;
  close(): Promise<void>;
}

/** A SQLite file in a directory of its own, removed by close(). */
export async function sqliteDatabase(): Promise<DatabaseUnderTest> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-contract-'));
  const database = openDatabase(undefined, dir);
  await migrateToLatest(database);
  return {
    database,
    async close() {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A schema of its own on the test Postgres (measure/store/infra.ts), dropped by close(). */
export async function postgresDatabase(label: string): Promise<DatabaseUnderTest> {
  const schema = uniqueName(label);
  const database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
  await migrateToLatest(database);
  return {
    database,
    async close() {
      await database.close();
      await dropSchema(schema);
    },
  };
}

/** `store` of a database made by `open`, closed with it. */
export function storeOn<S>(open: () => Promise<DatabaseUnderTest>, store: (database: Database) => S): () => Promise<StoreUnderTest<S>> {
  return async () => {
    const under = await open();
    return { store: store(under.database), close: () => under.close() };
  };
}
