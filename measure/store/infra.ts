import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { Client } from 'pg';

/*
 * The real Redis and Postgres this machine runs (127.0.0.1:6379; 127.0.0.1:5432, database
 * `test`, trust auth), for the tests and benchmarks that need them. Each run isolates itself with
 * a unique Postgres schema and Redis key prefix and removes both afterwards.
 */

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Probed synchronously (in a child process) because Jest decides `describe` vs `describe.skip`
 * (test/helpers/describe-with.ts) while collecting tests, before any async hook could run.
 */
function probe(script: string): string | undefined {
  const r = spawnSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8', timeout: 10_000 });
  const out = r.stdout.trim();
  return r.status === 0 && out ? out : undefined;
}

function findPostgres(): string | undefined {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const users = [...new Set([os.userInfo().username, 'postgres'])];
  const candidates = users.map((u) => `postgres://${u}@127.0.0.1:5432/test`);
  return probe(`
    const { Client } = require('pg');
    (async () => {
      for (const url of ${JSON.stringify(candidates)}) {
        const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
        try { await c.connect(); await c.query('select 1'); await c.end(); console.log(url); return; } catch { await c.end().catch(() => {}); }
      }
      process.exit(1);
    })();`);
}

function findRedis(): string | undefined {
  return probe(`
    const { Redis } = require('ioredis');
    const r = new Redis(${JSON.stringify(REDIS_URL)}, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.connect().then(() => r.ping()).then(() => { console.log('ok'); r.disconnect(); }, () => { r.disconnect(); process.exit(1); });`)
    ? REDIS_URL
    : undefined;
}

export const POSTGRES_URL = findPostgres();
export const REDIS_AVAILABLE = findRedis() !== undefined;

/** A name unique to this test run, usable as a Postgres schema and a Redis key prefix. */
export function uniqueName(label: string): string {
  return `tg_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  if (!POSTGRES_URL) return;
  const c = new Client({ connectionString: POSTGRES_URL });
  await c.connect();
  try {
    await c.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await c.end();
  }
}

/** Deletes every Redis key starting with `prefix`. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
