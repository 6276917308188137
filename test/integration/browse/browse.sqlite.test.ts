import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/db/database';
import { describeBrowse } from './browse.suite';

async function openSqlite() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-browse-'));
  const database = openDatabase(path.join(dir, 'browse.sqlite'), dir);
  return {
    database,
    async close() {
      await database.db.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describeBrowse('SQLite', openSqlite);
describeBrowse('SQLite', openSqlite, { index: true });
