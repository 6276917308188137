import { LRUCache } from 'lru-cache';
import type { StoredAnalysis } from '../../core/types';
import type { AnalysisStore } from './store';

/**
 * A process-local LRU in front of the store. Safe without invalidation because a stored analysis
 * never changes (the first save of a key wins, on every node), so a hit is always the truth; only
 * found analyses are cached, so a key analysed elsewhere is seen as soon as it is stored.
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

  async getMany(trackKeys: readonly string[]): Promise<Map<string, StoredAnalysis>> {
    const found = new Map<string, StoredAnalysis>();
    const missing: string[] = [];
    for (const key of trackKeys) {
      const hit = this.hot.get(key);
      if (hit) found.set(key, hit);
      else missing.push(key);
    }
    if (missing.length > 0) {
      for (const [key, analysis] of await this.inner.getMany(missing)) {
        this.hot.set(key, analysis);
        found.set(key, analysis);
      }
    }
    return found;
  }

  async save(analysis: StoredAnalysis): Promise<boolean> {
    return this.inner.save(analysis);
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
