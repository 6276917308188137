import { SqlApiKeyStore } from '../auth/api-key.store';
import { ApiKeyService } from '../auth/api-keys';
import { RedisKeyChangeChannel } from '../auth/key-changes.channel';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { Database } from '../db/database';
import { ApiRateLimiter } from '../ops/rate-limit';
import { FlushSchedule } from '../usage/flush.schedule';
import { RedisUsageRelay } from '../usage/redis.usage';
import { UsageService } from '../usage/usage.service';
import { SqlUsageStore } from '../usage/usage.store';
import type { Deployment } from './deployment';

export interface Accounts {
  apiKeys: ApiKeyService;
  /** Requests and analyses per key per day. */
  usage: UsageService;
  /** Requests per minute per API key; shared through Redis between API nodes. */
  rateLimiter: ApiRateLimiter;
  /** Writes the usage counts and keys' last uses held in memory, every USAGE_FLUSH_MS and on demand. */
  flushes: FlushSchedule;
}

/**
 * API keys, the usage counted against them and their rate limit. Scaled out, API nodes tell each
 * other of keys made and revoked and relay usage through Redis; workers serve no requests (their
 * limiter stays in memory, unused).
 */
export function composeAccounts(config: Config, deployment: Deployment, deps: { database: Database; logger: Logger }): Accounts {
  const { apiRedis } = deployment;
  const apiKeys = new ApiKeyService(new SqlApiKeyStore(deps.database), {
    envKeys: { read: config.API_KEYS, admin: config.ADMIN_API_KEYS },
    logger: deps.logger,
    ...(apiRedis ? { changes: new RedisKeyChangeChannel(apiRedis, config.REDIS_PREFIX) } : {}),
  });
  // Usage lists the keys it counts; it counts the requests the keys authenticate.
  const usage = new UsageService(new SqlUsageStore(deps.database), apiKeys, {
    ...(apiRedis ? { relay: new RedisUsageRelay(apiRedis.commands, config.REDIS_PREFIX) } : {}),
  });
  apiKeys.observeRequests(usage);
  const flushes = new FlushSchedule(
    [
      { name: 'usage counts', run: () => usage.flush() },
      { name: "API keys' last uses", run: () => apiKeys.flushLastUsed() },
    ],
    config.USAGE_FLUSH_MS,
    deps.logger,
  );
  const rateLimiter = new ApiRateLimiter({ pointsPerMinute: config.RATE_LIMIT, prefix: config.REDIS_PREFIX, ...(apiRedis ? { redis: apiRedis.commands } : {}) });
  return { apiKeys, usage, rateLimiter, flushes };
}
