import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { UsageRelay } from './usage.service';
import { zeroCount, type UsageCount, type UsageStore } from './usage.store';

/** Pending counts not drained for this long are dropped by Redis (every node drains every few seconds). */
const PENDING_TTL_MS = 7 * 86_400_000;
/** A drain holds the lock at most this long; a node that stopped mid-drain leaves it to expire. */
const LOCK_MS = 60_000;
/** Batch ids are kept in the store this long to recognise a batch added twice. */
const BATCH_MEMORY_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The kinds of count: requests, analyses, uploads, upload bytes. */
const KINDS = { r: 'requests', a: 'analyses', u: 'uploads', b: 'uploadBytes' } as const;
type Kind = keyof typeof KINDS;

/** The field of one count in the pending hash: kind `:` day `:` key id (ids may hold colons, days do not). */
const field = (kind: Kind, c: UsageCount): string => `${kind}:${c.day}:${c.keyId}`;
const BATCH_FIELD = '#batch';

/**
 * Renames the pending hash to the draining one (unless a drain left one behind: that one goes
 * first), stamps it with a batch id, and returns it.
 */
const TAKE = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
  redis.call('RENAME', KEYS[1], KEYS[2])
  redis.call('HSET', KEYS[2], '${BATCH_FIELD}', ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return redis.call('HGETALL', KEYS[2])`;

/** Deletes the draining hash only if it is still the batch this drain added. */
const DONE = `
if redis.call('HGET', KEYS[1], '${BATCH_FIELD}') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Releases the lock only if this drain still holds it. */
const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Usage counts of every node of a deployment, in Redis until one node adds them to the store.
 *
 * Each node adds its counts (HINCRBY, with an expiry) to one hash, `<prefix>:usage:pending`.
 * Draining, under a lock (`SET NX PX`) so one node at a time does it, renames that hash to
 * `<prefix>:usage:draining` (new counts start a new pending hash meanwhile), adds its counts to
 * the store in a transaction that records the batch's id, then deletes it. A drain that fails
 * or stops leaves the draining hash for the next drain, which adds it unless the store has
 * recorded its batch id already: each count reaches the store once.
 */
export class RedisUsageRelay implements UsageRelay {
  private readonly pending: string;
  private readonly draining: string;
  private readonly lock: string;
  private prunedAt = 0;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.pending = `${prefix}:usage:pending`;
    this.draining = `${prefix}:usage:draining`;
    this.lock = `${prefix}:usage:lock`;
  }

  async add(counts: readonly UsageCount[]): Promise<void> {
    const pipeline = this.redis.multi();
    for (const c of counts) {
      for (const [kind, name] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) {
        if (c[name] > 0) pipeline.hincrby(this.pending, field(kind, c), c[name]);
      }
    }
    pipeline.pexpire(this.pending, PENDING_TTL_MS);
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('usage counts not added to Redis');
  }

  async drain(store: UsageStore): Promise<void> {
    const token = randomUUID();
    const locked = await this.redis.set(this.lock, token, 'PX', LOCK_MS, 'NX');
    if (locked !== 'OK') return;
    try {
      const flat = (await this.redis.eval(TAKE, 2, this.pending, this.draining, randomUUID(), PENDING_TTL_MS)) as string[];
      if (flat.length === 0) return;
      const { batchId, counts } = parse(flat);
      if (batchId === undefined) return;
      await store.addBatch(batchId, counts, this.now());
      await this.redis.eval(DONE, 1, this.draining, batchId);
      if (this.now() - this.prunedAt > PRUNE_EVERY_MS) {
        this.prunedAt = this.now();
        await store.pruneBatches(this.now() - BATCH_MEMORY_MS);
      }
    } finally {
      await this.redis.eval(UNLOCK, 1, this.lock, token).catch(() => undefined);
    }
  }

  /** The connection is the caller's (the process's shared one), closed by it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The counts and batch id of a draining hash, from HGETALL's flat [field, value, …] list. */
function parse(flat: readonly string[]): { batchId: string | undefined; counts: UsageCount[] } {
  let batchId: string | undefined;
  const counts = new Map<string, UsageCount>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!;
    const value = Number(flat[i + 1]);
    if (name === BATCH_FIELD) {
      batchId = flat[i + 1];
      continue;
    }
    const m = /^([raub]):(\d{4}-\d{2}-\d{2}):(.+)$/s.exec(name);
    if (!m || !Number.isFinite(value)) continue;
    const [, kind, day, keyId] = m as unknown as [string, Kind, string, string];
    const key = `${day}\u0000${keyId}`;
    const count = counts.get(key) ?? zeroCount(day, keyId);
    count[KINDS[kind]] += value;
    counts.set(key, count);
  }
  return { batchId, counts: [...counts.values()] };
}
