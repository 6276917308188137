import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

const WINDOW_S = 60;

export interface RateLimitDecision {
  allowed: boolean;
  /** RATE_LIMIT: points per minute per key. */
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the key has `limit` points again. */
  resetS: number;
}

export interface RateLimiterOptions {
  /** RATE_LIMIT: points (REST requests) per minute per API key. */
  pointsPerMinute: number;
  /**
   * A fail-fast client (no offline queue: with Redis away a command fails at once and the
   * insurance limiter answers) shares the counters between nodes; unset keeps them in this
   * process. The caller owns it.
   */
  redis?: Redis;
  /** REDIS_PREFIX */
  prefix: string;
}

/**
 * Requests per minute per API key (by key id, never the key), fixed one-minute windows.
 *
 * Scaled out, counters live in Redis so every node counts against the same budget. When Redis
 * is unreachable each node falls back to an in-memory limiter of the same size (the
 * "insurance" limiter): requests keep being served, each node enforcing the limit on its own,
 * so a key may get up to (nodes x RATE_LIMIT) per minute until Redis returns. Refusing every
 * request, or letting all through unlimited, would both be worse.
 */
export class ApiRateLimiter {
  private readonly limiter: RateLimiterAbstract;
  private readonly redis: Redis | undefined;
  readonly limit: number;

  constructor(options: RateLimiterOptions) {
    this.limit = options.pointsPerMinute;
    const memory = new RateLimiterMemory({ points: this.limit, duration: WINDOW_S });
    if (!options.redis) {
      this.limiter = memory;
      return;
    }
    this.redis = options.redis;
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${options.prefix}:rl`,
      points: this.limit,
      duration: WINDOW_S,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  }

  async consume(keyId: string, points = 1): Promise<RateLimitDecision> {
    try {
      const r = await this.limiter.consume(keyId, points);
      return { allowed: true, limit: this.limit, remaining: r.remainingPoints, resetS: Math.ceil(r.msBeforeNext / 1000) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, limit: this.limit, remaining: 0, resetS: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      // Neither Redis nor the insurance limiter answered: serve rather than refuse.
      return { allowed: true, limit: this.limit, remaining: this.limit, resetS: WINDOW_S };
    }
  }

  async ping(): Promise<void> {
    await this.redis?.ping();
  }

}

/** The IETF draft's RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers), each given to `set`. */
export function eachRateLimitHeader(d: RateLimitDecision, set: (name: string, value: string) => void): void {
  set('RateLimit-Limit', String(d.limit));
  set('RateLimit-Remaining', String(d.remaining));
  set('RateLimit-Reset', String(d.resetS));
  if (!d.allowed) set('Retry-After', String(d.resetS));
}

/** The same headers as names and values. */
export function rateLimitHeaders(d: RateLimitDecision): [string, string][] {
  const headers: [string, string][] = [];
  eachRateLimitHeader(d, (name, value) => headers.push([name, value]));
  return headers;
}

/** The message of a RATE_LIMITED refusal. */
export function refusal(d: RateLimitDecision): string {
  return `rate limit of ${d.limit} requests per minute for this API key exceeded; retry in ${d.resetS} s`;
}

export interface GraphQLRateLimitOptions {
  /** Document cost worth one REST request (RATE_LIMIT_GRAPHQL_COST). */
  costPerPoint: number;
  /** GRAPHQL_MAX_COST: a document over it is refused by the cost limit and charged nothing. */
  maxCost: number;
  /** Told of every refusal, once per refused operation (the metrics' count). */
  onRefused?: () => void;
}

/**
 * The one place a GraphQL operation is charged to its key's rate limit, whichever way it comes:
 * Apollo's rate-limit plugin, the edge cache's answers and every subscription started on a
 * WebSocket. ceil(cost / costPerPoint) points, at least one; a refusal is counted here, once.
 */
export class GraphQLCharges {
  constructor(
    private readonly limiter: ApiRateLimiter,
    private readonly options: GraphQLRateLimitOptions,
  ) {}

  /** Undefined (nothing charged) for a document over the cost limit: that limit refuses it. */
  async charge(keyId: string, cost: number): Promise<RateLimitDecision | undefined> {
    if (cost > this.options.maxCost) return undefined;
    const decision = await this.limiter.consume(keyId, Math.max(1, Math.ceil(cost / this.options.costPerPoint)));
    if (!decision.allowed) this.options.onRefused?.();
    return decision;
  }
}
