import type { ApiKeyInfo, ApiKeyScope } from '../auth/api-keys';
import { invalidArgument } from '../core/errors';
import type { AnalysisRequestListener, ApiRequestListener, UploadTally, UploadUsage } from '../core/observers';
import { addCounts, zeroCount, type UsageCount, type UsageStore } from './usage.store';

/** Requests, analyses and uploads of one key on one UTC day. */
export interface UsageRow {
  keyId: string;
  /** The key's name (its id when the key is no longer known: an environment key since removed). */
  name: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  requests: number;
  analyses: number;
  /** Uploads begun (their body read, whatever their outcome). */
  uploads: number;
  /** Bytes received of those uploads. */
  uploadBytes: number;
}

/**
 * Where a node's counts go when it flushes them, when that is not straight into the store:
 * Redis, scaled out (redis.usage.ts), from which one node at a time adds them to the store.
 */
export interface UsageRelay {
  /** Adds counts to the shared ones. */
  add(counts: readonly UsageCount[]): Promise<void>;
  /** Moves the shared counts into the store, unless another node is doing it. */
  drain(store: UsageStore): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;

const DAY_MS = 86_400_000;

export interface UsageServiceOptions {
  /** Scaled out: counts go through Redis (redis.usage.ts). Without it they are added to the store directly. */
  relay?: UsageRelay;
  /** The clock (tests). */
  now?: () => number;
}

/** The keys whose names a report shows. */
export interface KeyDirectory {
  list(): Promise<ApiKeyInfo[]>;
}

/**
 * Requests and analyses per API key per UTC day. Counted in memory on the request's path (a
 * Map increment, told by the key check and by AnalysisService's request listeners) and flushed
 * periodically: into the store (one statement adding to the stored counts), or, scaled out, into
 * Redis, from which one node at a time moves them to the store. A failed flush keeps its counts
 * for the next one.
 */
export class UsageService implements ApiRequestListener, AnalysisRequestListener, UploadUsage {
  /** Counts not flushed yet, by day, then by key id (no string is built per request). */
  private counts = new Map<string, Map<string, UsageCount>>();
  /** The counts of the current day (an entry of `counts`). */
  private today: Map<string, UsageCount> | undefined;
  private readonly now: () => number;
  private day = '';
  private dayEndsAt = 0;

  constructor(
    private readonly store: UsageStore,
    private readonly keys: KeyDirectory,
    private readonly options: UsageServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  apiRequest(keyId: string): void {
    this.count(keyId).requests++;
  }

  analysisRequested(_trackKey: string, requesterId: string): void {
    this.count(requesterId).analyses++;
  }

  uploadStarted(keyId: string): void {
    this.count(keyId).uploads++;
  }

  uploadReceived(keyId: string, bytes: number): void {
    this.count(keyId).uploadBytes += bytes;
  }

  async uploadsToday(keyId: string): Promise<UploadTally> {
    const today = dayOf(this.now());
    const stored = await this.store.read(today, keyId);
    const pending = this.counts.get(today)?.get(keyId);
    const tally = { uploads: 0, bytes: 0 };
    for (const c of pending ? [...stored, pending] : stored) {
      if (c.day !== today || c.keyId !== keyId) continue;
      tally.uploads += c.uploads;
      tally.bytes += c.uploadBytes;
    }
    return tally;
  }

  /** Sends the counts made since the last flush on: to the store, or to Redis and from there (by one node) to the store. */
  async flush(): Promise<void> {
    const batch = this.pending();
    this.counts = new Map();
    this.today = undefined;
    if (batch.length > 0) {
      try {
        if (this.options.relay) await this.options.relay.add(batch);
        else await this.store.add(batch);
      } catch (error) {
        this.restore(batch);
        throw error;
      }
    }
    await this.options.relay?.drain(this.store);
  }

  /**
   * Rows of the last `days` UTC days (today included), each with the key's name: every key's for
   * an admin, the viewer's own otherwise. Stored counts plus those of this node not flushed yet.
   */
  async report(viewer: { id: string; scope: ApiKeyScope }, days: number = DEFAULT_USAGE_DAYS): Promise<UsageRow[]> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_USAGE_DAYS) {
      throw invalidArgument(`days must be a whole number from 1 to ${MAX_USAGE_DAYS}`);
    }
    const since = dayOf(this.now() - (days - 1) * DAY_MS);
    const own = viewer.scope === 'admin' ? undefined : viewer.id;
    const [stored, keys] = await Promise.all([this.store.read(since, own), this.keys.list()]);
    const merged = new Map<string, UsageCount>();
    const add = (c: UsageCount): void => {
      if (c.day < since || (own !== undefined && c.keyId !== own)) return;
      const key = `${c.day}\u0000${c.keyId}`;
      const row = merged.get(key);
      if (row) addCounts(row, c);
      else merged.set(key, { ...c });
    };
    for (const c of stored) add(c);
    for (const c of this.pending()) add(c);
    const names = new Map(keys.map((k) => [k.id, k.name]));
    const rows = [...merged.values()].map((c) => ({
      keyId: c.keyId,
      name: names.get(c.keyId) ?? c.keyId,
      day: c.day,
      requests: c.requests,
      analyses: c.analyses,
      uploads: c.uploads,
      uploadBytes: c.uploadBytes,
    }));
    // By day, then by name (then id: names need not be unique), in code-unit order on every database.
    const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    return rows.sort((a, b) => order(a.day, b.day) || order(a.name, b.name) || order(a.keyId, b.keyId));
  }

  async close(): Promise<void> {
    await this.options.relay?.close();
  }

  private count(keyId: string): UsageCount {
    const now = this.now();
    if (this.today === undefined || now >= this.dayEndsAt || now < this.dayEndsAt - DAY_MS) {
      this.day = dayOf(now);
      this.dayEndsAt = Date.parse(`${this.day}T00:00:00.000Z`) + DAY_MS;
      this.today = this.dayCounts(this.day);
    }
    let count = this.today.get(keyId);
    if (count === undefined) {
      count = zeroCount(this.day, keyId);
      this.today.set(keyId, count);
    }
    return count;
  }

  private dayCounts(day: string): Map<string, UsageCount> {
    let counts = this.counts.get(day);
    if (counts === undefined) {
      counts = new Map();
      this.counts.set(day, counts);
    }
    return counts;
  }

  private pending(): UsageCount[] {
    return [...this.counts.values()].flatMap((byKey) => [...byKey.values()]);
  }

  private restore(batch: readonly UsageCount[]): void {
    for (const c of batch) {
      const counts = this.dayCounts(c.day);
      const count = counts.get(c.keyId);
      if (count) addCounts(count, c);
      else counts.set(c.keyId, { ...c });
    }
  }
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
