import type { SharedRedis } from '../ops/redis';

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

/**
 * Key changes over Redis pub/sub, on the channel `<REDIS_PREFIX>:api-keys:changes`, as
 * `created:<id>` and `revoked:<id>`. A process disconnected from Redis when a key changes misses
 * the message; it reads the change from the database at its next refresh of the keys (10 s), as
 * it would without Redis. With Redis away at start, the start goes on after 2 s and the
 * subscription is made when Redis returns.
 */
export class RedisKeyChangeChannel implements KeyChangeChannel {
  private readonly channel: string;

  /** `redis` is the process's shared connections (its owner closes them). */
  constructor(
    private readonly redis: SharedRedis,
    prefix: string,
  ) {
    this.channel = `${prefix}:api-keys:changes`;
  }

  async publish(change: KeyChange): Promise<void> {
    await this.redis.connected();
    await this.redis.commands.publish(this.channel, `${change.type}:${change.keyId}`);
  }

  subscribe(onChange: (change: KeyChange) => void): Promise<void> {
    return this.redis.subscribe(this.channel, (message) => {
      const m = /^(created|revoked):(.+)$/s.exec(message);
      if (m) onChange({ type: m[1] as KeyChange['type'], keyId: m[2]! });
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
