import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import keyvTestSuite, { keyvIteratorTests } from '@keyv/test-suite';
import Keyv from 'keyv';
import { SqliteKeyvStore } from '../../src/search/sqlite.keyv-store';

/**
 * Keyv's own compliance suite, written for Vitest's test API, run under Jest: `it` hands the
 * test its context (`t.expect`), the rest maps one to one.
 */
const jestApi = {
  it: (name: string, fn: (t: { expect: typeof expect }) => unknown) =>
    it(name, async () => {
      await fn({ expect });
    }),
  beforeEach,
  afterEach,
  describe,
} as unknown as Parameters<typeof keyvTestSuite>[0];

describe('the SQLite Keyv store passes @keyv/test-suite', () => {
  let dir: string;
  const opened: SqliteKeyvStore[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-keyv-'));
  });
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.disconnect()));
    await rm(dir, { recursive: true, force: true });
  });
  // A new adapter per Keyv (as the suite expects), all on one file.
  const store = (): SqliteKeyvStore => {
    const created = new SqliteKeyvStore({ file: path.join(dir, 'cache.sqlite'), sweepIntervalMs: 0 });
    opened.push(created);
    return created;
  };
  keyvTestSuite(jestApi, Keyv, store);
  keyvIteratorTests(jestApi, Keyv, store);
});

describe('expiry in the SQLite Keyv store', () => {
  let now = 1_000_000;
  let store: SqliteKeyvStore;
  beforeEach(() => {
    now = 1_000_000;
    store = new SqliteKeyvStore({ file: ':memory:', sweepIntervalMs: 0, now: () => now });
  });
  afterEach(() => store.disconnect());

  const count = (): number => Number((store as unknown as { db: { prepare(s: string): { pluck(): { get(): unknown } } } }).db.prepare('SELECT count(*) FROM cache_entries').pluck().get());

  it('when an entry has expired, then it reads as absent before any sweep', async () => {
    await store.set('meta:a', 'x', 1000);
    expect(await store.get('meta:a')).toBe('x');
    now += 1001;
    expect(await store.get('meta:a')).toBeUndefined();
    expect(await store.getMany(['meta:a'])).toEqual([undefined]);
    expect(await store.has('meta:a')).toBe(false);
  });

  it('when the sweep runs, then expired rows leave the file and the others stay', async () => {
    for (let i = 0; i < 12_000; i++) await store.set(`meta:old${i}`, 'x', 1000);
    await store.set('meta:forever', 'y');
    await store.set('meta:later', 'z', 60_000);
    now += 5000;
    expect(count()).toBe(12_002);
    expect(store.sweep()).toBe(12_000);
    expect(count()).toBe(2);
    expect(await store.get('meta:forever')).toBe('y');
    expect(await store.get('meta:later')).toBe('z');
  });

  it('clears only its namespace, even when the namespace holds LIKE wildcards', async () => {
    await store.set('a_b:1', 'x');
    await store.set('axb:1', 'y');
    store.namespace = 'a_b';
    await store.clear();
    expect(await store.get('a_b:1')).toBeUndefined();
    expect(await store.get('axb:1')).toBe('y');
  });
});
