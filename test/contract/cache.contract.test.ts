import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../src/core/logger';
import { BestEffortCache, REDIS_MAX_RECONNECT_DELAY_MS, createCacheBackend } from '../../src/search/keyv-store';
import { REDIS_URL, deleteRedisKeys, uniqueName } from '../../measure/store/infra';
import { describeWith } from '../helpers/describe-with';
import { describeCacheContract } from './cache.contract';

describeCacheContract('memory', async () => ({
  backend: createCacheBackend('memory://', '/nonexistent'),
  namespace: 'meta',
  close: async () => undefined,
}));

describeCacheContract('SQLite', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-cache-'));
  const backend = createCacheBackend(undefined, dir);
  return {
    backend,
    namespace: 'meta',
    async close() {
      await backend.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describeWith({ redis: true })('on the real Redis', () => {
  describeCacheContract('Redis', async () => {
    const namespace = uniqueName('cache');
    const backend = createCacheBackend(REDIS_URL, '/nonexistent');
    await backend.ready();
    return {
      backend,
      namespace,
      async close() {
        await backend.close();
        await deleteRedisKeys(namespace);
      },
    };
  });
});

describe('a Redis cache that cannot be reached', () => {
  it('reads as misses at once, counts the errors, and fails its ping (readiness)', async () => {
    // A port nothing listens on: connection refused.
    const backend = createCacheBackend('redis://127.0.0.1:1', '/nonexistent');
    // Gives up waiting rather than failing: a process starts without its cache.
    await backend.ready();
    const counts = { hit: 0, miss: 0, error: 0 };
    const observer = { hit: () => void counts.hit++, miss: () => void counts.miss++, error: () => void counts.error++ };
    const cache = new BestEffortCache<string>(backend.store, 'meta', 60_000, silentLogger, observer);
    try {
      await cache.set('k', 'v');
      expect(await cache.get('k')).toBeUndefined();
      expect(await cache.getMany(['k', 'l'])).toEqual([undefined, undefined]);
      expect(counts.hit).toBe(0);
      expect(counts.error).toBeGreaterThan(0);
      await expect(backend.ping()).rejects.toThrow();
    } finally {
      await backend.close();
    }
    // The closed client's pause before its next attempt (at most the longest reconnection delay)
    // cannot be cut short (node-redis sleeps it out, then sees it is closed): waited out here, so
    // that it does not hold Jest's worker after the file's last test.
    await new Promise((resolve) => setTimeout(resolve, REDIS_MAX_RECONNECT_DELAY_MS));
  });
});
