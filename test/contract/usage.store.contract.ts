import type { UsageCount, UsageStore } from '../../src/usage/usage.store';
import type { StoreUnderTest } from './sql-database';

const count = (day: string, keyId: string, requests: number, analyses = 0, uploads = 0, uploadBytes = 0): UsageCount => ({ day, keyId, requests, analyses, uploads, uploadBytes });

/** Counts in one order, whatever order the store answers in. */
const sorted = (counts: readonly UsageCount[]): UsageCount[] =>
  [...counts].sort((a, b) => (a.day === b.day ? (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0) : a.day < b.day ? -1 : 1));

const NOW = Date.parse('2030-06-02T12:00:00.000Z');

/**
 * What every usage store promises UsageService and the Redis relay, whatever database is behind
 * it. Run against each with a factory of empty stores (sql-stores.*.contract.test.ts).
 */
export function describeUsageStoreContract(label: string, factory: () => Promise<StoreUnderTest<UsageStore>>): void {
  describe(`usage store contract: ${label}`, () => {
    let under: StoreUnderTest<UsageStore>;
    let store: UsageStore;
    beforeEach(async () => {
      under = await factory();
      store = under.store;
    });
    afterEach(() => under.close());

    it('when nothing is stored, then nothing is read', async () => {
      expect(await store.read('2000-01-01')).toEqual([]);
      expect(await store.read('2000-01-01', 'k1')).toEqual([]);
    });

    it('adds counts up per key and day, keeping days and keys apart', async () => {
      await store.add([count('2030-06-01', 'k1', 2, 1), count('2030-06-01', 'k2', 1)]);
      await store.add([count('2030-06-01', 'k1', 3, 0), count('2030-06-02', 'k1', 1, 4)]);
      await store.add([]);
      expect(sorted(await store.read('2030-06-01'))).toEqual([
        count('2030-06-01', 'k1', 5, 1),
        count('2030-06-01', 'k2', 1),
        count('2030-06-02', 'k1', 1, 4),
      ]);
    });

    it('adds uploads and their bytes up per key and day, past what 32 bits hold, in batches too', async () => {
      const GiB = 1024 ** 3;
      await store.add([count('2030-06-01', 'k1', 1, 0, 1, 3 * GiB), count('2030-06-01', 'k2', 1, 0, 2, 10)]);
      await store.add([count('2030-06-01', 'k1', 0, 0, 2, 2 * GiB + 5)]);
      expect(await store.addBatch('batch-u', [count('2030-06-01', 'k2', 0, 1, 1, 7)], NOW)).toBe(true);
      expect(sorted(await store.read('2030-06-01'))).toEqual([count('2030-06-01', 'k1', 1, 0, 3, 5 * GiB + 5), count('2030-06-01', 'k2', 1, 1, 3, 17)]);
    });

    it('reads from a day on, that day included, for every key or for one', async () => {
      await store.add([count('2030-05-31', 'k1', 1), count('2030-06-01', 'k1', 2), count('2030-06-01', 'k2', 3), count('2030-06-02', 'k2', 4)]);
      expect(sorted(await store.read('2030-06-01'))).toEqual([count('2030-06-01', 'k1', 2), count('2030-06-01', 'k2', 3), count('2030-06-02', 'k2', 4)]);
      expect(sorted(await store.read('2030-06-01', 'k2'))).toEqual([count('2030-06-01', 'k2', 3), count('2030-06-02', 'k2', 4)]);
      expect(await store.read('2030-06-03')).toEqual([]);
      expect(await store.read('2030-05-01', 'k3')).toEqual([]);
    });

    it('adds more counts than one statement takes, every one of them', async () => {
      const many = Array.from({ length: 600 }, (_, i) => count('2030-06-01', `key-${String(i).padStart(3, '0')}`, i + 1, i % 3));
      await store.add(many);
      await store.add(many);
      const read = sorted(await store.read('2030-06-01'));
      expect(read).toHaveLength(600);
      expect(read).toEqual(many.map((c) => ({ ...c, requests: 2 * c.requests, analyses: 2 * c.analyses })));
    });

    it('adds a batch once: the same batch id again adds nothing, another one adds', async () => {
      expect(await store.addBatch('batch-1', [count('2030-06-01', 'k1', 2)], NOW)).toBe(true);
      expect(await store.addBatch('batch-1', [count('2030-06-01', 'k1', 2)], NOW)).toBe(false);
      expect(await store.addBatch('batch-2', [count('2030-06-01', 'k1', 1, 1)], NOW)).toBe(true);
      expect(await store.read('2030-06-01')).toEqual([count('2030-06-01', 'k1', 3, 1)]);
    });

    it('when two nodes drain one batch at once, then it is added once', async () => {
      const results = await Promise.all([1, 2, 3, 4].map(() => store.addBatch('batch-race', [count('2030-06-01', 'k1', 5)], NOW)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.read('2030-06-01')).toEqual([count('2030-06-01', 'k1', 5)]);
    });

    it('forgets batch ids recorded before a time, and only those', async () => {
      await store.addBatch('old', [count('2030-06-01', 'k1', 1)], NOW - 8 * 86_400_000);
      await store.addBatch('recent', [count('2030-06-01', 'k1', 1)], NOW);
      await store.pruneBatches(NOW - 7 * 86_400_000);
      // A forgotten id is a new batch again; a remembered one is still recognised.
      expect(await store.addBatch('old', [count('2030-06-01', 'k1', 1)], NOW)).toBe(true);
      expect(await store.addBatch('recent', [count('2030-06-01', 'k1', 1)], NOW)).toBe(false);
      expect(await store.read('2030-06-01')).toEqual([count('2030-06-01', 'k1', 3)]);
    });
  });
}
