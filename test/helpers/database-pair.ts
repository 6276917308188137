import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrations';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../measure/store/infra';
import { describeWith } from './describe-with';

/** Two connections to one migrated database, standing for two processes (an API node and a worker). */
export interface DatabasePair {
  /** The connection the code under test reads through. */
  reader: Database;
  /** Another connection, writing. */
  writer: Database;
  /** Closes both and removes the database (its folder, or its Postgres schema). */
  close(): Promise<void>;
}

async function pairOn(open: () => Database, cleanup: () => Promise<void>): Promise<DatabasePair> {
  const writer = open();
  await migrateToLatest(writer);
  const reader = open();
  return {
    reader,
    writer,
    async close() {
      await reader.close();
      await writer.close();
      await cleanup();
    },
  };
}

/**
 * Runs `suite` on SQLite (a file in a new temporary folder) and on the real Postgres (a schema of
 * its own; skipped, saying so, without it); `open` makes each test's pair. `name` names the
 * folder and the schema.
 */
export function onBothDatabases(name: string, suite: (database: string, open: () => Promise<DatabasePair>) => void): void {
  suite('SQLite', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `trackgraph-${name}-`));
    return pairOn(
      () => openDatabase(path.join(dir, `${name}.sqlite`), dir),
      () => rm(dir, { recursive: true, force: true }),
    );
  });
  describeWith({ postgres: true })('on the real Postgres', () => {
    suite('Postgres', async () => {
      const schema = uniqueName(name.replace(/-/g, '_'));
      return pairOn(
        () => openDatabase(POSTGRES_URL, '/nonexistent', schema),
        () => dropSchema(schema),
      );
    });
  });
}
