import type { ApiKeyStore, StoredApiKey } from '../../src/auth/api-key.store';
import type { StoreUnderTest } from './sql-database';

const key = (n: number, fields: Partial<StoredApiKey> = {}): StoredApiKey => ({
  id: `key${n}`,
  name: `app ${n}`,
  keyHash: n.toString(16).padStart(64, '0'),
  scope: 'read',
  source: 'api',
  createdAt: `2030-06-0${n}T12:00:00.000Z`,
  expiresAt: null,
  revokedAt: null,
  ...fields,
});

const listed = ({ keyHash: _hash, ...rest }: StoredApiKey, lastUsedAt: string | null = null) => ({ ...rest, lastUsedAt });

/**
 * What every API key store promises ApiKeyService, whatever database is behind it. Run against
 * each with a factory of empty stores (sql-stores.sqlite.contract.test.ts, sql-stores.postgres.contract.test.ts).
 */
export function describeApiKeyStoreContract(label: string, factory: () => Promise<StoreUnderTest<ApiKeyStore>>): void {
  describe(`API key store contract: ${label}`, () => {
    let under: StoreUnderTest<ApiKeyStore>;
    let store: ApiKeyStore;
    beforeEach(async () => {
      under = await factory();
      store = under.store;
    });
    afterEach(() => under.close());

    it('when nothing is stored, then there is no key, active or listed, and no last use', async () => {
      expect(await store.active()).toEqual([]);
      expect(await store.list()).toEqual([]);
      expect(await store.lastUses(['key1', 'env:1'])).toEqual(new Map());
      expect(await store.lastUses([])).toEqual(new Map());
    });

    it('gives back every field it was given, the hash only to the check, and lists by creation time then id', async () => {
      const later = key(3, { scope: 'admin', source: 'cli', expiresAt: '2031-01-01T00:00:00.000Z' });
      const first = key(1);
      const sameTime = key(2, { id: 'key0', createdAt: first.createdAt, source: 'first-run' });
      for (const k of [later, first, sameTime]) await store.insert(k);
      expect(await store.list()).toEqual([listed(sameTime), listed(first), listed(later)]);
      const active = await store.active();
      expect(active.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [sameTime, first, later].map((k) => ({ id: k.id, name: k.name, keyHash: k.keyHash, scope: k.scope, expiresAt: k.expiresAt })),
      );
    });

    it('refuses a second key with an id or a hash already stored', async () => {
      await store.insert(key(1));
      await expect(store.insert(key(2, { keyHash: key(1).keyHash }))).rejects.toBeDefined();
      await expect(store.insert(key(2, { id: 'key1' }))).rejects.toBeDefined();
      expect((await store.list()).map((k) => k.id)).toEqual(['key1']);
    });

    it('when a key is revoked, then it leaves the active keys, is listed with its time, and a second revocation keeps the first time', async () => {
      await store.insert(key(1));
      await store.insert(key(2));
      expect(await store.revoke('key1', '2030-06-05T00:00:00.000Z')).toBe(true);
      expect((await store.active()).map((k) => k.id)).toEqual(['key2']);
      expect(await store.revoke('key1', '2030-06-06T00:00:00.000Z')).toBe(false);
      expect(await store.revoke('nope', '2030-06-06T00:00:00.000Z')).toBe(false);
      expect((await store.list()).map((k) => [k.id, k.revokedAt])).toEqual([
        ['key1', '2030-06-05T00:00:00.000Z'],
        ['key2', null],
      ]);
    });

    it('revokes by id or by name every active key that has it, and says which', async () => {
      await store.insert(key(1, { name: 'shared' }));
      await store.insert(key(2, { name: 'shared' }));
      await store.insert(key(3, { name: 'other' }));
      await store.insert(key(4, { name: 'shared', revokedAt: '2030-06-01T00:00:00.000Z' }));
      expect((await store.revokeByIdOrName('shared', '2030-06-05T00:00:00.000Z')).sort()).toEqual(['key1', 'key2']);
      expect(await store.revokeByIdOrName('key3', '2030-06-05T00:00:00.000Z')).toEqual(['key3']);
      expect(await store.revokeByIdOrName('shared', '2030-06-06T00:00:00.000Z')).toEqual([]);
      expect(await store.active()).toEqual([]);
      expect((await store.list()).find((k) => k.id === 'key4')?.revokedAt).toBe('2030-06-01T00:00:00.000Z');
    });

    it('stores a first key only while none at all is stored, revoked ones included', async () => {
      expect(await store.insertIfNone(key(1, { scope: 'admin', source: 'first-run' }))).toBe(true);
      expect(await store.list()).toEqual([listed(key(1, { scope: 'admin', source: 'first-run' }))]);
      expect(await store.insertIfNone(key(2))).toBe(false);
      await store.revoke('key1', '2030-06-05T00:00:00.000Z');
      expect(await store.insertIfNone(key(3))).toBe(false);
      expect((await store.list()).map((k) => k.id)).toEqual(['key1']);
    });

    it('when many first keys race, then exactly one is stored', async () => {
      const made = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => store.insertIfNone(key(n))));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await store.list()).toHaveLength(1);
    });

    it('records last uses of stored and unstored ids, keeps the later of two times, and lists them with the keys', async () => {
      await store.insert(key(1));
      await store.insert(key(2));
      await store.recordLastUses(new Map([['key1', '2030-06-05T10:00:00.000Z'], ['env:1', '2030-06-05T11:00:00.000Z']]));
      // Another node's earlier time does not move a use back; a later one moves it on.
      await store.recordLastUses(new Map([['key1', '2030-06-05T09:00:00.000Z'], ['env:1', '2030-06-05T12:00:00.000Z']]));
      await store.recordLastUses(new Map());
      expect(await store.lastUses(['env:1', 'env:2', 'key1'])).toEqual(new Map([['env:1', '2030-06-05T12:00:00.000Z'], ['key1', '2030-06-05T10:00:00.000Z']]));
      expect((await store.list()).map((k) => [k.id, k.lastUsedAt])).toEqual([
        ['key1', '2030-06-05T10:00:00.000Z'],
        ['key2', null],
      ]);
    });
  });
}
