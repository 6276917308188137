import { CachedAnalysisStore } from '../../../src/analysis/store/cached.store';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import type { StoredAnalysis } from '../../../src/core/types';
import { syntheticAnalysis } from '../../../measure/store/synthetic-analyses';

class CountingStore implements AnalysisStore {
  readonly rows = new Map<string, StoredAnalysis>();
  gets = 0;
  getManys: string[][] = [];
  async get(key: string) {
    this.gets++;
    return this.rows.get(key);
  }
  async getMany(keys: readonly string[]) {
    this.getManys.push([...keys]);
    return new Map(keys.flatMap((k) => (this.rows.has(k) ? [[k, this.rows.get(k)!] as const] : [])));
  }
  async save(a: StoredAnalysis) {
    if (this.rows.has(a.trackKey)) return false;
    this.rows.set(a.trackKey, a);
    return true;
  }
  async replace(a: StoredAnalysis) {
    if (!this.rows.has(a.trackKey)) return false;
    this.rows.set(a.trackKey, a);
    return true;
  }
  async listOtherEngines() {
    return [];
  }
  async count() {
    return this.rows.size;
  }
  async ping() {}
  async close() {}
}

describe('CachedAnalysisStore', () => {
  const a = syntheticAnalysis(1);
  const b = syntheticAnalysis(2);

  it('reads a stored analysis from the store once, then from memory', async () => {
    const inner = new CountingStore();
    await inner.save(a);
    const store = new CachedAnalysisStore(inner, 10);
    expect(await store.get(a.trackKey)).toEqual(a);
    expect(await store.get(a.trackKey)).toEqual(a);
    expect(inner.gets).toBe(1);
  });

  it('does not remember absence: a key stored later (by another node) is found', async () => {
    const inner = new CountingStore();
    const store = new CachedAnalysisStore(inner, 10);
    expect(await store.get(a.trackKey)).toBeUndefined();
    await inner.save(a);
    expect(await store.get(a.trackKey)).toEqual(a);
  });

  it('asks the store only for the keys it does not hold, in one read', async () => {
    const inner = new CountingStore();
    await inner.save(a);
    await inner.save(b);
    const store = new CachedAnalysisStore(inner, 10);
    await store.get(a.trackKey);
    const found = await store.getMany([a.trackKey, b.trackKey, 'ffffffffffffffff']);
    expect([...found.keys()].sort()).toEqual([a.trackKey, b.trackKey].sort());
    expect(inner.getManys).toEqual([[b.trackKey, 'ffffffffffffffff']]);
  });

  it('keeps at most maxEntries analyses', async () => {
    const inner = new CountingStore();
    await inner.save(a);
    await inner.save(b);
    const store = new CachedAnalysisStore(inner, 1);
    await store.get(a.trackKey);
    await store.get(b.trackKey);
    await store.get(a.trackKey);
    expect(inner.gets).toBe(3);
  });
});
