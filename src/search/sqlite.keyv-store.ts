import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { KeyvStoreAdapter, StoredData } from 'keyv';

export interface SqliteKeyvStoreOptions {
  /** The database file (`:memory:` for a private in-memory one). */
  file: string;
  /** How often expired entries are deleted, ms (0: only when the store opens). */
  sweepIntervalMs?: number;
  /** How long a write waits for another process's lock, ms. */
  busyTimeoutMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Row {
  key: string;
  value: string;
}

const DEFAULT_SWEEP_INTERVAL_MS = 10 * 60_000;
/** Rows deleted per sweep statement: a big sweep never holds the write lock for long. */
const SWEEP_BATCH = 5000;

/**
 * A Keyv storage adapter on better-sqlite3, the binding the analysis store already uses, so the
 * service needs one SQLite build. Each entry keeps its expiry in a column of its own: expired
 * entries read as absent at once and are deleted by a periodic sweep, so the file does not grow
 * with entries nobody reads again.
 */
export class SqliteKeyvStore extends EventEmitter implements KeyvStoreAdapter {
  readonly opts: { dialect: 'sqlite'; file: string };
  namespace?: string;
  private readonly db: SQLite.Database;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly statements: {
    get: SQLite.Statement<[string, number], Row>;
    getMany: SQLite.Statement<[string, number], Row>;
    set: SQLite.Statement<[string, string, number | null]>;
    delete: SQLite.Statement<[string]>;
    deleteMany: SQLite.Statement<[string]>;
    clear: SQLite.Statement<[string, string]>;
    sweep: SQLite.Statement<[number, number]>;
    page: SQLite.Statement<[string, string, number, number], Row>;
  };

  constructor(options: SqliteKeyvStoreOptions) {
    super();
    this.opts = { dialect: 'sqlite', file: options.file };
    this.now = options.now ?? (() => Date.now());
    if (options.file !== ':memory:') mkdirSync(path.dirname(options.file), { recursive: true });
    this.db = new SQLite(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS cache_entries (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS cache_entries_expires ON cache_entries (expires) WHERE expires IS NOT NULL;
      DROP TABLE IF EXISTS keyv;
    `);
    const live = '(expires IS NULL OR expires > ?)';
    this.statements = {
      get: this.db.prepare(`SELECT key, value FROM cache_entries WHERE key = ? AND ${live}`),
      getMany: this.db.prepare(`SELECT key, value FROM cache_entries WHERE key IN (SELECT value FROM json_each(?)) AND ${live}`),
      set: this.db.prepare(
        'INSERT INTO cache_entries (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires',
      ),
      delete: this.db.prepare('DELETE FROM cache_entries WHERE key = ?'),
      deleteMany: this.db.prepare('DELETE FROM cache_entries WHERE key IN (SELECT value FROM json_each(?))'),
      // Keys are compared as ranges, not with LIKE: a namespace may hold % or _.
      clear: this.db.prepare("DELETE FROM cache_entries WHERE key >= ? || ':' AND key < ? || ';'"),
      sweep: this.db.prepare(
        'DELETE FROM cache_entries WHERE key IN (SELECT key FROM cache_entries WHERE expires IS NOT NULL AND expires <= ? LIMIT ?)',
      ),
      page: this.db.prepare(
        `SELECT key, value FROM cache_entries WHERE key > ? AND key LIKE ? ESCAPE '\\' AND ${live} ORDER BY key LIMIT ?`,
      ),
    };
    this.sweep();
    const every = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    if (every > 0) {
      this.sweeper = setInterval(() => {
        try {
          this.sweep();
        } catch (error) {
          this.emit('error', error);
        }
      }, every);
      this.sweeper.unref();
    }
  }

  /** Deletes every expired entry; returns how many. */
  sweep(): number {
    let removed = 0;
    for (;;) {
      const { changes } = this.statements.sweep.run(this.now(), SWEEP_BATCH);
      removed += changes;
      if (changes < SWEEP_BATCH) return removed;
    }
  }

  async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
    return this.statements.get.get(key, this.now())?.value as StoredData<Value> | undefined;
  }

  async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
    const rows = this.statements.getMany.all(JSON.stringify(keys), this.now());
    const byKey = new Map(rows.map((row) => [row.key, row.value]));
    return keys.map((key) => byKey.get(key) as StoredData<Value | undefined>);
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    const expires = typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? this.now() + ttl : null;
    this.statements.set.run(key, typeof value === 'string' ? value : JSON.stringify(value), expires);
    return true;
  }

  async setMany(entries: Array<{ key: string; value: unknown; ttl?: number }>): Promise<void> {
    this.db.transaction(() => {
      for (const entry of entries) void this.set(entry.key, entry.value, entry.ttl);
    })();
  }

  async delete(key: string): Promise<boolean> {
    return this.statements.delete.run(key).changes > 0;
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    return this.statements.deleteMany.run(JSON.stringify(keys)).changes > 0;
  }

  async has(key: string): Promise<boolean> {
    return this.statements.get.get(key, this.now()) !== undefined;
  }

  async clear(): Promise<void> {
    if (this.namespace) this.statements.clear.run(this.namespace, this.namespace);
    else this.db.exec('DELETE FROM cache_entries');
  }

  async *iterator<Value>(namespace?: string): AsyncGenerator<Array<string | Awaited<Value> | undefined>, void> {
    const prefix = namespace ? `${namespace.replace(/[\\%_]/g, (c) => `\\${c}`)}:%` : '%';
    let after = '';
    for (;;) {
      const rows = this.statements.page.all(after, prefix, this.now(), 100);
      for (const row of rows) yield [row.key, row.value];
      if (rows.length < 100) return;
      after = rows[rows.length - 1]!.key;
    }
  }

  async disconnect(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.db.open) {
      this.db.pragma('optimize');
      this.db.close();
    }
  }
}
