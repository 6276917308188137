import type { RedisOptions } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import { SharedRedis, isRedisUrl, redisOptions, sharedRedisUrl } from '../ops/redis';

/** What this process is, decided once from the config and its role; every part is built from it. */
export interface Deployment {
  role: 'api' | 'worker';
  /** The api role: serves HTTP, counts usage, sends webhooks. */
  serves: boolean;
  /** QUEUE_URL: BullMQ's connection; absent, analyses run in this process. */
  queue?: { url: string; connection: RedisOptions };
  /** Several processes share the deployment's state (a queue or Postgres): per-node secrets must be configured. */
  shared: boolean;
  /** The deployment's Redis (CACHE_URL or QUEUE_URL), shared by this process's parts through two connections. */
  redis?: SharedRedis;
  /** `redis`, in the api role only: what serving requests shares with other API nodes (rate limits, usage, key changes). */
  apiRedis?: SharedRedis;
}

export function decideDeployment(config: Config, role: 'api' | 'worker', dialect: 'sqlite' | 'postgres', logger: Logger): Deployment {
  const queueUrl = isRedisUrl(config.QUEUE_URL) ? config.QUEUE_URL : undefined;
  if (config.QUEUE_URL && !queueUrl) throw new Error('QUEUE_URL: expected a redis:// or rediss:// URL');
  if (role === 'worker' && !queueUrl) throw new Error('the worker role needs QUEUE_URL=redis://…');
  const shared = queueUrl !== undefined || dialect === 'postgres';
  // Scaled out, every process shares one Redis through two connections (SharedRedis): API nodes
  // and workers count the catalogues' quotas together there and hear each other's events.
  const redisUrl = sharedRedisUrl(config);
  const redis = redisUrl ? new SharedRedis(redisUrl, logger, config.REDIS_PREFIX) : undefined;
  const serves = role === 'api';
  return {
    role,
    serves,
    ...(queueUrl ? { queue: { url: queueUrl, connection: redisOptions(queueUrl) } } : {}),
    shared,
    ...(redis ? { redis } : {}),
    ...(redis && serves ? { apiRedis: redis } : {}),
  };
}
