import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** A source's request quota as every node of a deployment shares it. */
export interface SharedQuota {
  /** Resolves when one more request fits the quota; rejects with the signal's reason if aborted first. */
  take(signal: AbortSignal): Promise<void>;
}

/** How a quota is stated: `max` requests per `intervalMs` (the sources' RateLimit). */
export interface QuotaSize {
  max: number;
  intervalMs: number;
}

/**
 * The catalogues' quotas counted in Redis, so that N API nodes together stay within what one
 * client may send (MusicBrainz: 1 request per second), instead of N times it. Fixed windows of
 * `intervalMs` (rate-limiter-flexible's RateLimiterRedis); a request that does not fit waits
 * for the next window. When Redis is unreachable each node counts in memory instead (its
 * insurance limiter): the node's own pace, as without Redis, rather than no search at all.
 */
export class SharedQuotas {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  quota(source: string, size: QuotaSize): SharedQuota {
    const duration = size.intervalMs / 1000;
    const limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${this.prefix}:quota`,
      points: size.max,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points: size.max, duration }),
    });
    return { take: (signal) => takeWhenFree(limiter, source, signal) };
  }
}

async function takeWhenFree(limiter: RateLimiterAbstract, key: string, signal: AbortSignal): Promise<void> {
  for (;;) {
    if (signal.aborted) throw signal.reason;
    try {
      await limiter.consume(key, 1);
      return;
    } catch (refusal) {
      // Neither Redis nor the insurance limiter answered: go, paced by the node's own limiter.
      if (!(refusal instanceof RateLimiterRes)) return;
      // The caller's own reason, not the timer's AbortError, as for an abort before the wait.
      await sleep(Math.max(1, refusal.msBeforeNext), undefined, { signal }).catch(() => {
        throw signal.reason;
      });
    }
  }
}
