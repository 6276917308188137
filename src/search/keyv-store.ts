import path from 'node:path';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { lazily } from '../core/lazy';
import { ThrottledWarning } from '../core/logger';
import type { CacheObserver } from '../core/observers';
import { SqliteKeyvStore } from './sqlite.keyv-store';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use (src/core/lazy.ts)
const keyvRedis = lazily(() => require('@keyv/redis') as typeof import('@keyv/redis'));

/** A Keyv storage adapter with what operations need around it: a reachability probe and a close. */
export interface CacheBackend {
  store: KeyvStoreAdapter | Map<string, unknown>;
  kind: 'memory' | 'sqlite' | 'redis';
  /** Throws when the cache cannot be reached (readiness). */
  ping(): Promise<void>;
  /**
   * Resolves once the cache is connected, or after a short wait if it cannot be: a process
   * starts either way (the cache is best-effort), but not with writes dropped for nothing.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** How long a Redis cache may take to connect before a lookup gives up and reads as a miss, ms. */
const REDIS_CONNECT_TIMEOUT_MS = 1000;
/** Longest pause between reconnection attempts to a lost Redis, ms. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2000;

/**
 * The Keyv storage named by CACHE_URL: `sqlite://<file>`, `redis://…` / `rediss://…`, or
 * `memory://`. Unset means a SQLite file under DATA_DIR (the embedded default).
 * One adapter is shared by every namespace (metadata, search responses) of a process.
 */
export function createCacheBackend(cacheUrl: string | undefined, dataDir: string): CacheBackend {
  const url = cacheUrl ?? `sqlite://${path.join(dataDir, 'cache.sqlite')}`;
  if (url.startsWith('memory://')) {
    const none = async (): Promise<void> => undefined;
    return { store: new Map<string, unknown>(), kind: 'memory', ping: none, ready: none, close: none };
  }
  if (url.startsWith('sqlite://')) {
    const store = new SqliteKeyvStore({ file: url.slice('sqlite://'.length) });
    return {
      store,
      kind: 'sqlite',
      ping: async () => {
        await store.has('__ping__');
      },
      ready: async () => undefined,
      close: () => store.disconnect(),
    };
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) return redisBackend(url);
  throw new Error(`CACHE_URL: unsupported scheme in ${url.replace(/\/\/.*@/, '//***@')}`);
}

/**
 * Redis through a client built here rather than by @keyv/redis, because its defaults hurt a
 * best-effort cache: with the offline queue on, a command sent while Redis is away waits for it
 * to come back (every search would hang); and a client that gave up reconnecting never recovers.
 * This one fails commands at once while disconnected (the cache reads as a miss), connects
 * within a second or not at all, and keeps reconnecting in the background until Redis returns.
 */
function redisBackend(url: string): CacheBackend {
  const client = keyvRedis().createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, REDIS_MAX_RECONNECT_DELAY_MS),
    },
  });
  // Connection errors are reported through the cache's own error path (and readiness); an
  // 'error' event without a listener would crash the process.
  client.on('error', () => undefined);
  const connected = client.connect().then(
    () => undefined,
    () => undefined,
  );
  const store = new (keyvRedis().default)(client, {
    connectionTimeout: REDIS_CONNECT_TIMEOUT_MS,
    throwOnConnectError: true,
    throwOnErrors: true,
  });
  return {
    store,
    kind: 'redis',
    ping: async () => {
      if (!client.isReady) throw new Error('Redis is not connected');
      await client.ping();
    },
    ready: async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([connected, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2 * REDIS_CONNECT_TIMEOUT_MS)))]);
      clearTimeout(timer);
    },
    close: async () => {
      // destroy(), not quit(): quit waits for a reply that an absent Redis never sends.
      if (client.isOpen) client.destroy();
    },
  };
}

export interface CacheLogger {
  warn(obj: object, msg: string): void;
}

export type { CacheObserver } from '../core/observers';

/**
 * A namespaced, best-effort Keyv: errors are logged and read as misses, never failing a request.
 */
export class BestEffortCache<T> {
  private readonly keyv: Keyv<T>;
  /** A failing cache fails every lookup: logged once per interval, so an outage does not flood the log. */
  private readonly warning: ThrottledWarning;

  constructor(
    store: KeyvStoreAdapter | Map<string, unknown>,
    private readonly namespace: string,
    private readonly ttlMs: number,
    logger: CacheLogger,
    private readonly observer?: CacheObserver,
  ) {
    this.keyv = new Keyv<T>({ store, namespace, ttl: ttlMs });
    this.warning = new ThrottledWarning(logger);
    this.keyv.on('error', (error: unknown) => this.failed(error, 'cache unavailable; bypassed (lookups read as misses)'));
  }

  async get(key: string): Promise<T | undefined> {
    try {
      const value = (await this.keyv.get(key)) ?? undefined;
      if (value === undefined) this.observer?.miss(this.namespace);
      else this.observer?.hit(this.namespace);
      return value;
    } catch (error) {
      this.failed(error, 'cache read failed; bypassed (treated as a miss)');
      return undefined;
    }
  }

  async getMany(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return [];
    try {
      const values = (await this.keyv.get([...keys])).map((v) => v ?? undefined);
      for (const v of values) {
        if (v === undefined) this.observer?.miss(this.namespace);
        else this.observer?.hit(this.namespace);
      }
      return values;
    } catch (error) {
      this.failed(error, 'cache read failed; bypassed (treated as a miss)');
      return keys.map(() => undefined);
    }
  }

  async set(key: string, value: T, ttlMs = this.ttlMs): Promise<void> {
    try {
      await this.keyv.set(key, value, ttlMs);
    } catch (error) {
      this.failed(error, 'cache write failed; bypassed');
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.keyv.delete(key);
    } catch (error) {
      this.failed(error, 'cache delete failed; bypassed');
    }
  }


  private failed(error: unknown, msg: string): void {
    this.observer?.error(this.namespace);
    this.warning.warn({ err: error, namespace: this.namespace }, msg);
  }
}
