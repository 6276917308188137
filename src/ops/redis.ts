import type { Redis, RedisOptions } from 'ioredis';
import { lazily } from '../core/lazy';
import { ThrottledWarning, type Logger } from '../core/logger';

/** ioredis, required on first use (BullMQ's connections' too). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use (src/core/lazy.ts)
export const ioredis = lazily(() => require('ioredis') as typeof import('ioredis'));

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
    // How long a disconnect waits for the socket to close before destroying it (ioredis: 2 s). A
    // connection closed while Redis is away has no socket left to close, and the wait would hold
    // the process that long after its work is done (a CLI's exit).
    disconnectTimeout: 250,
  };
}

/** How long a subscription waits for Redis before the caller goes on without it (Redis away at start). */
const SUBSCRIBE_WAIT_MS = 2000;

/**
 * A process's connections to the Redis its nodes share, two whatever uses them: `commands`, a
 * fail-fast client (no offline queue, one retry) for the counters, limits and quotas and for
 * publishing, and one subscriber connection, made at the first subscription, for every channel
 * (a subscribed connection can do nothing else). Each user handles its own commands' failures;
 * the connections' errors are logged here, at most once per interval each.
 */
export class SharedRedis {
  readonly commands: Redis;
  private subscriber: { connection: Redis; ready: Promise<void> } | undefined;
  private readonly listeners = new Map<string, (message: string) => void>();
  private readonly warning: ThrottledWarning;

  /** The connections are named `<name>:commands` and `<name>:subscriber` (Redis's CLIENT LIST shows them). */
  constructor(
    private readonly url: string,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly name = 'trackgraph',
  ) {
    this.warning = new ThrottledWarning(logger);
    this.commands = new (ioredis().Redis)({ ...redisOptions(url), enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName: `${name}:commands` });
    this.commands.on('error', (error: unknown) =>
      this.warning.warn({ err: error }, 'Redis unreachable: rate limits, quotas and usage are counted per node, and other nodes miss what this one publishes, until it returns'),
    );
  }

  /**
   * Resolves once `commands` is connected, or after `ms` (then a command fails at once, as it
   * would anyway with Redis away). For a short-lived process that publishes right after start.
   */
  async connected(ms = SUBSCRIBE_WAIT_MS): Promise<void> {
    if (this.commands.status === 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    await new Promise<void>((resolve) => {
      onReady = resolve;
      timer = setTimeout(resolve, ms);
      this.commands.once('ready', resolve);
    });
    clearTimeout(timer);
    this.commands.off('ready', onReady!);
  }

  /**
   * Calls `onMessage` with every message on `channel` from now on. Waits at most 2 s for Redis:
   * with Redis away the caller goes on, and the channel is subscribed once the connection is
   * first ready (ioredis subscribes again after every reconnection).
   */
  async subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    if (this.listeners.has(channel)) throw new Error(`already subscribed to ${channel}`);
    this.listeners.set(channel, onMessage);
    const subscriber = this.subscriber ?? this.connectSubscriber();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS);
    });
    const subscribed = subscriber.ready.then(() => subscriber.connection.subscribe(channel)).then(
      () => undefined,
      () => undefined,
    );
    await Promise.race([subscribed, waited]);
    clearTimeout(timer);
  }

  /**
   * The subscriber connection and its first readiness: channels are subscribed once it is ready,
   * since a SUBSCRIBE queued before the connection's ready check makes the check fail.
   */
  private connectSubscriber(): { connection: Redis; ready: Promise<void> } {
    const connection = new (ioredis().Redis)({ ...redisOptions(this.url), maxRetriesPerRequest: null, connectionName: `${this.name}:subscriber` });
    const ready = new Promise<void>((resolve) => connection.once('ready', () => resolve()));
    const warning = new ThrottledWarning(this.logger);
    connection.on('error', (error: unknown) =>
      warning.warn({ err: error }, 'Redis unreachable: events and key changes of other nodes are missed until it returns'),
    );
    connection.on('message', (channel: string, message: string) => this.listeners.get(channel)?.(message));
    this.subscriber = { connection, ready };
    return this.subscriber;
  }

  close(): void {
    this.subscriber?.connection.disconnect();
    this.commands.disconnect();
  }
}

export const isRedisUrl = (url: string | undefined): url is string => !!url && /^rediss?:\/\//.test(url);

/** The Redis that nodes share (counters, pub/sub): CACHE_URL's when it is Redis, else QUEUE_URL's; none otherwise. */
export function sharedRedisUrl(config: { CACHE_URL?: string | undefined; QUEUE_URL?: string | undefined }): string | undefined {
  return isRedisUrl(config.CACHE_URL) ? config.CACHE_URL : isRedisUrl(config.QUEUE_URL) ? config.QUEUE_URL : undefined;
}
