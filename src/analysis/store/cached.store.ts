import { LRUCache } from 'lru-cache';
import type { StoredAnalysis } from '../../core/types';
import type { AnalysisStore, ReadOptions, StoredSummary } from './store';

/**
 * A process-local LRU in front of the store. A stored analysis changes only by replace() (an
 * operator's re-analysis), which is announced to every process as an `analysis.replaced` event;
 * each process's listener calls forget() (container.ts), so a hit is the truth again once the
 * event is heard. Only found analyses are cached, so a key analysed elsewhere is seen as soon
 * as it is stored.
 */
export class CachedAnalysisStore implements AnalysisStore {
  private readonly hot: LRUCache<string, StoredAnalysis>;

  constructor(
    private readonly inner: AnalysisStore,
    maxEntries: number,
  ) {
    this.hot = new LRUCache({ max: maxEntries });
  }

  async get(trackKey: string): Promise<StoredAnalysis | undefined> {
    const hit = this.hot.get(trackKey);
    if (hit) return hit;
    const found = await this.inner.get(trackKey);
    if (found) this.hot.set(trackKey, found);
    return found;
  }

  /** Without segments (options.segments false), the analyses read are not kept: only whole ones are. */
  async getMany(trackKeys: readonly string[], options?: ReadOptions): Promise<Map<string, StoredAnalysis>> {
    const found = new Map<string, StoredAnalysis>();
    const missing: string[] = [];
    for (const key of trackKeys) {
      const hit = this.hot.get(key);
      if (hit) found.set(key, hit);
      else missing.push(key);
    }
    if (missing.length > 0) {
      const whole = options?.segments !== false;
      for (const [key, analysis] of await this.inner.getMany(missing, options)) {
        if (whole) this.hot.set(key, analysis);
        found.set(key, analysis);
      }
    }
    return found;
  }

  async save(analysis: StoredAnalysis): Promise<boolean> {
    return this.inner.save(analysis);
  }

  async replace(analysis: StoredAnalysis): Promise<boolean> {
    const replaced = await this.inner.replace(analysis);
    this.hot.delete(analysis.trackKey);
    return replaced;
  }

  listOtherEngines(currentEngine: string, page: { after?: string; limit: number }): Promise<StoredSummary[]> {
    return this.inner.listOtherEngines(currentEngine, page);
  }

  /** Drops what this process holds of a key (its analysis was replaced, here or elsewhere). */
  forget(trackKey: string): void {
    this.hot.delete(trackKey);
  }

  count(): Promise<number> {
    return this.inner.count();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
