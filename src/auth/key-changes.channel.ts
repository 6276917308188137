import { Redis } from 'ioredis';
import { ThrottledWarning, type Logger } from '../core/logger';
import { redisOptions } from '../ops/redis';

/** A key made or revoked: by its id, never the key. */
export interface KeyChange {
  type: 'created' | 'revoked';
  keyId: string;
}

/**
 * Tells every process of a deployment that a key was made or revoked, so that each accepts a
 * new key, and refuses a revoked one, at once rather than at its next reading of the keys.
 */
export interface KeyChangeChannel {
  publish(change: KeyChange): Promise<void>;
  /** Calls `onChange` for every change announced from now on, by any process (this one included). */
  subscribe(onChange: (change: KeyChange) => void): Promise<void>;
  close(): Promise<void>;
}

/** How long a start waits for the subscription before going on without it (Redis away). */
const SUBSCRIBE_WAIT_MS = 2000;

/**
 * Key changes over Redis pub/sub, on the channel `<REDIS_PREFIX>:api-keys:changes`, as
 * `created:<id>` and `revoked:<id>`. A process disconnected from Redis when a key changes misses
 * the message; it reads the change from the database at its next refresh of the keys (10 s), as
 * it would without Redis.
 */
export class RedisKeyChangeChannel implements KeyChangeChannel {
  private readonly channel: string;
  private readonly publisher: Redis;
  private subscriber: Redis | undefined;

  constructor(
    private readonly url: string,
    prefix: string,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {
    this.channel = `${prefix}:api-keys:changes`;
    // No offline queue: with Redis away a publish fails at once (the database still has it).
    this.publisher = new Redis({ ...redisOptions(url), enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    const warning = new ThrottledWarning(logger);
    this.publisher.on('error', (error: unknown) => warning.warn({ err: error }, 'key changes: Redis unreachable'));
  }

  async publish(change: KeyChange): Promise<void> {
    if (this.publisher.status === 'wait') await this.publisher.connect();
    await this.publisher.publish(this.channel, `${change.type}:${change.keyId}`);
  }

  async subscribe(onChange: (change: KeyChange) => void): Promise<void> {
    // A subscribed connection can do nothing else, so it is a client of its own; ioredis
    // subscribes again by itself after a reconnection.
    const subscriber = new Redis({ ...redisOptions(this.url), maxRetriesPerRequest: null });
    const warning = new ThrottledWarning(this.logger);
    subscriber.on('error', (error: unknown) =>
      warning.warn({ err: error }, 'key changes: Redis unreachable; keys made or revoked on other nodes are seen at the next key refresh'),
    );
    subscriber.on('message', (channel: string, message: string) => {
      const m = /^(created|revoked):(.+)$/s.exec(message);
      if (channel === this.channel && m) onChange({ type: m[1] as KeyChange['type'], keyId: m[2]! });
    });
    this.subscriber = subscriber;
    // With Redis away at start, the start goes on: the subscription is made when it returns.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS);
    });
    await Promise.race([subscriber.subscribe(this.channel).catch(() => undefined), waited]);
    clearTimeout(timer);
  }

  close(): Promise<void> {
    this.subscriber?.disconnect();
    this.publisher.disconnect();
    return Promise.resolve();
  }
}
