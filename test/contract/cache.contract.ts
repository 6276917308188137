import { BestEffortCache, type CacheBackend, type CacheObserver } from '../../src/search/keyv-store';
import { silentLogger } from '../../src/core/logger';

/** A cache backend ready to test, empty for the namespace it is given. */
export interface CacheUnderTest {
  backend: CacheBackend;
  /** A namespace nobody else uses on a shared server. */
  namespace: string;
  close(): Promise<void>;
}

interface Counted extends CacheObserver {
  counts: Record<'hit' | 'miss' | 'error', number>;
}

function counting(): Counted {
  const counts = { hit: 0, miss: 0, error: 0 };
  return { counts, hit: () => void counts.hit++, miss: () => void counts.miss++, error: () => void counts.error++ };
}

/**
 * What every metadata-cache backend promises search and analysis (memory, SQLite, Redis): a
 * namespaced key-value store with expiry, whose failures never reach the caller.
 */
export function describeCacheContract(label: string, factory: () => Promise<CacheUnderTest>): void {
  describe(`metadata cache contract: ${label}`, () => {
    let under: CacheUnderTest;
    beforeEach(async () => {
      under = await factory();
    });
    afterEach(() => under.close());

    const cache = <T>(ttlMs = 60_000, observer?: CacheObserver, namespace = under.namespace) =>
      new BestEffortCache<T>(under.backend.store, namespace, ttlMs, silentLogger, observer);

    it('gives back what was set, as it was, and counts hits and misses', async () => {
      const observer = counting();
      const c = cache<{ artist: string; n: number[] }>(60_000, observer);
      expect(await c.get('k1')).toBeUndefined();
      await c.set('k1', { artist: 'Pink Floyd', n: [1, 2] });
      expect(await c.get('k1')).toEqual({ artist: 'Pink Floyd', n: [1, 2] });
      expect(observer.counts).toEqual({ hit: 1, miss: 1, error: 0 });
    });

    it('reads many keys positionally, undefined where absent', async () => {
      const c = cache<string>();
      await c.set('a', 'A');
      await c.set('c', 'C');
      expect(await c.getMany(['a', 'b', 'c'])).toEqual(['A', undefined, 'C']);
      expect(await c.getMany([])).toEqual([]);
    });

    it('forgets a value after its lifetime and after delete', async () => {
      const c = cache<string>();
      await c.set('short', 'gone soon', 1);
      await c.set('deleted', 'x');
      await c.delete('deleted');
      await new Promise((r) => setTimeout(r, 20));
      expect(await c.get('short')).toBeUndefined();
      expect(await c.get('deleted')).toBeUndefined();
    });

    it('keeps namespaces apart', async () => {
      const one = cache<string>(60_000, undefined, `${under.namespace}-one`);
      const two = cache<string>(60_000, undefined, `${under.namespace}-two`);
      await one.set('k', 'one');
      expect(await two.get('k')).toBeUndefined();
      expect(await one.get('k')).toBe('one');
    });

    it('answers a ping while reachable', async () => {
      await expect(under.backend.ping()).resolves.toBeUndefined();
    });
  });
}
