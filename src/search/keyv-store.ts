import path from 'node:path';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import KeyvSqlite from '@keyv/sqlite';
import KeyvRedis from '@keyv/redis';

/**
 * The Keyv storage adapter named by CACHE_URL: `sqlite://<file>`, `redis://…` / `rediss://…`,
 * or `memory://`. Unset means a SQLite file under DATA_DIR (the embedded default).
 * One adapter is shared by every namespace (metadata, search responses) of a process.
 */
export function createKeyvStore(cacheUrl: string | undefined, dataDir: string): KeyvStoreAdapter | Map<string, unknown> {
  const url = cacheUrl ?? `sqlite://${path.join(dataDir, 'cache.sqlite')}`;
  if (url.startsWith('memory://')) return new Map<string, unknown>();
  if (url.startsWith('sqlite://')) return new KeyvSqlite({ uri: url, busyTimeout: 5000 });
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    // A short connection timeout keeps a dead Redis from stalling requests: the cache is
    // best-effort and a failed lookup is treated as a miss.
    return new KeyvRedis(url, { connectionTimeout: 1000, throwOnConnectError: false, throwOnErrors: false });
  }
  throw new Error(`CACHE_URL: unsupported scheme in ${url.replace(/\/\/.*@/, '//***@')}`);
}

export interface CacheLogger {
  warn(obj: object, msg: string): void;
}

/**
 * A namespaced, best-effort Keyv: errors are logged and read as misses, never failing a request.
 */
export class BestEffortCache<T> {
  private readonly keyv: Keyv<T>;

  constructor(
    store: KeyvStoreAdapter | Map<string, unknown>,
    namespace: string,
    private readonly ttlMs: number,
    private readonly logger: CacheLogger,
  ) {
    this.keyv = new Keyv<T>({ store, namespace, ttl: ttlMs });
    this.keyv.on('error', (error: unknown) => this.logger.warn({ err: error, namespace }, 'cache error'));
  }

  async get(key: string): Promise<T | undefined> {
    try {
      return (await this.keyv.get(key)) ?? undefined;
    } catch (error) {
      this.logger.warn({ err: error }, 'cache read failed; treated as a miss');
      return undefined;
    }
  }

  async getMany(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return [];
    try {
      const values = await this.keyv.get([...keys]);
      return values.map((v) => v ?? undefined);
    } catch (error) {
      this.logger.warn({ err: error }, 'cache read failed; treated as a miss');
      return keys.map(() => undefined);
    }
  }

  async set(key: string, value: T, ttlMs = this.ttlMs): Promise<void> {
    try {
      await this.keyv.set(key, value, ttlMs);
    } catch (error) {
      this.logger.warn({ err: error }, 'cache write failed');
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.keyv.delete(key);
    } catch (error) {
      this.logger.warn({ err: error }, 'cache delete failed');
    }
  }

  async disconnect(): Promise<void> {
    await this.keyv.disconnect().catch(() => undefined);
  }
}
