import { AppError } from '../core/errors';
import type { UploadTally, UploadUsage } from '../core/observers';

export interface UploadQuotaLimits {
  /** Uploads per key per UTC day; 0: no limit. */
  filesPerDay: number;
  /** Bytes received per key per UTC day; 0: no limit. */
  bytesPerDay: number;
}

/** Told of each chunk of an upload as it is received: an error returned stops the upload with it. */
export type ChunkMeter = (bytes: number) => AppError | undefined;

const DAY_MS = 86_400_000;

/**
 * The per-key upload quota: uploads and bytes per UTC day, counted in usage (so the usage
 * routes show them) as the bytes arrive. A key over either limit is refused with
 * UPLOAD_QUOTA_EXCEEDED and a Retry-After to the next UTC midnight: before the body is read
 * when the key has no uploads left or its Content-Length already exceeds the bytes left, else
 * at the chunk that passes the limit (what is received counts, whatever Content-Length said).
 *
 * What usage has counted is read once per upload (the store and this node's counts not flushed
 * yet); what this node counts afterwards is added from a tally that flushing does not reset,
 * so uploads of one key running side by side on a node see each other's bytes. Other nodes'
 * counts are seen once flushed (within USAGE_FLUSH_MS, scaled out through Redis).
 */
export class UploadQuota {
  /** Uploads and bytes this node counted today, per key (never reset by flushing). */
  private counted = new Map<string, UploadTally>();
  private day = -1;

  constructor(
    private readonly usage: UploadUsage,
    private readonly limits: UploadQuotaLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.limits.filesPerDay > 0 || this.limits.bytesPerDay > 0;
  }

  /**
   * Refuses an upload before its body is read: the key has used its uploads of the day, or
   * `declaredBytes` (Content-Length, less `allowance` for a form's own bytes) exceeds its bytes left.
   */
  async check(keyId: string | undefined, declaredBytes?: number, allowance = 0): Promise<void> {
    if (keyId === undefined || !this.enabled) return;
    const mark = { ...this.local(keyId) };
    const used = this.sum(await this.usage.uploadsToday(keyId), mark, this.local(keyId));
    this.refuseIfOver(used, declaredBytes === undefined ? 0 : Math.max(0, declaredBytes - allowance));
  }

  /**
   * Admits one upload (counted from here on) and returns the meter its bytes go through as they
   * are received; undefined when the requester is anonymous (no key: nothing to count).
   */
  async begin(keyId: string | undefined): Promise<ChunkMeter | undefined> {
    if (keyId === undefined) return undefined;
    if (!this.enabled) {
      this.usage.uploadStarted(keyId);
      return (bytes) => {
        this.usage.uploadReceived(keyId, bytes);
        return undefined;
      };
    }
    const mark = { ...this.local(keyId) };
    const stored = await this.usage.uploadsToday(keyId);
    this.refuseIfOver(this.sum(stored, mark, this.local(keyId)), 0);
    const tally = this.local(keyId);
    tally.uploads++;
    this.usage.uploadStarted(keyId);
    return (bytes) => {
      const current = this.local(keyId);
      current.bytes += bytes;
      this.usage.uploadReceived(keyId, bytes);
      const used = this.sum(stored, mark, current);
      return this.limits.bytesPerDay > 0 && used.bytes > this.limits.bytesPerDay ? this.exceeded('bytes') : undefined;
    };
  }

  /** What usage said at `mark`, plus what this node counted since. */
  private sum(stored: UploadTally, mark: UploadTally, current: UploadTally): UploadTally {
    return { uploads: stored.uploads + current.uploads - mark.uploads, bytes: stored.bytes + current.bytes - mark.bytes };
  }

  private refuseIfOver(used: UploadTally, comingBytes: number): void {
    if (this.limits.filesPerDay > 0 && used.uploads >= this.limits.filesPerDay) throw this.exceeded('files');
    if (this.limits.bytesPerDay > 0 && used.bytes + comingBytes > this.limits.bytesPerDay) throw this.exceeded('bytes');
  }

  private exceeded(what: 'files' | 'bytes'): AppError {
    const now = this.now();
    const retryAfterS = Math.max(1, Math.ceil(((Math.floor(now / DAY_MS) + 1) * DAY_MS - now) / 1000));
    const limit =
      what === 'files'
        ? `${this.limits.filesPerDay} uploads per day (UPLOAD_QUOTA_FILES_PER_DAY)`
        : `${this.limits.bytesPerDay} bytes of uploads per day (UPLOAD_QUOTA_BYTES_PER_DAY)`;
    return new AppError('UPLOAD_QUOTA_EXCEEDED', `this key has used its upload quota of ${limit}; it renews at 00:00 UTC`, { retryAfterS });
  }

  /** This node's tally of the key for today (the map starts afresh each UTC day). */
  private local(keyId: string): UploadTally {
    const day = Math.floor(this.now() / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.counted = new Map();
    }
    let tally = this.counted.get(keyId);
    if (tally === undefined) {
      tally = { uploads: 0, bytes: 0 };
      this.counted.set(keyId, tally);
    }
    return tally;
  }
}
