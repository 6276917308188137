import { Redis, type RedisOptions } from 'ioredis';
import { ThrottledWarning, type Logger } from '../core/logger';

/**
 * ioredis options from a `redis://[user:password@]host:port[/db]` or `rediss://…` URL, as
 * BullMQ wants them (an options object, so each of its connections is its own client).
 */
export function redisOptions(url: string): RedisOptions {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error(`expected a redis:// or rediss:// URL, got ${u.protocol}//…`);
  }
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    // Keep reconnecting while Redis is away, at most 2 s apart, so recovery is automatic.
    retryStrategy: (times: number) => Math.min(100 * 2 ** times, 2000),
    connectTimeout: 2000,
  };
}

/**
 * A client for counters that must not hold a request up: no offline queue and one retry, so
 * with Redis away a command fails at once and the caller falls back to counting in memory.
 * Its connection errors are logged at most once per interval, as `unreachable`.
 */
export function failFastRedis(url: string, logger: Pick<Logger, 'warn'>, unreachable: string): Redis {
  const redis = new Redis({ ...redisOptions(url), enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const warning = new ThrottledWarning(logger);
  redis.on('error', (error: unknown) => warning.warn({ err: error }, unreachable));
  return redis;
}

export const isRedisUrl = (url: string | undefined): url is string => !!url && /^rediss?:\/\//.test(url);

/** The Redis that nodes share (counters, pub/sub): CACHE_URL's when it is Redis, else QUEUE_URL's; none otherwise. */
export function sharedRedisUrl(config: { CACHE_URL?: string | undefined; QUEUE_URL?: string | undefined }): string | undefined {
  return isRedisUrl(config.CACHE_URL) ? config.CACHE_URL : isRedisUrl(config.QUEUE_URL) ? config.QUEUE_URL : undefined;
}
