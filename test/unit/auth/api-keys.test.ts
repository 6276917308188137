import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { SqlApiKeyStore } from '../../../src/auth/api-key.store';
import { ApiKeyService, expiryOf, type ApiKeyServiceOptions } from '../../../src/auth/api-keys';
import type { KeyChange, KeyChangeChannel } from '../../../src/auth/key-changes.channel';
import { AppError } from '../../../src/core/errors';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateTo, migrateToLatest } from '../../../src/db/migrations';

/** A clock the test moves. */
class Clock {
  constructor(public ms = Date.parse('2030-06-01T12:00:00.000Z')) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** The code and message an AppError rejection carries. */
async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

const codeOf = (run: () => unknown): { code: string; message: string } | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
};

describe('ApiKeyService', () => {
  let dir: string;
  let database: Database;
  let clock: Clock;
  const services: ApiKeyService[] = [];

  const service = (options: ApiKeyServiceOptions = {}): ApiKeyService => {
    const s = new ApiKeyService(new SqlApiKeyStore(database), { refreshMs: 60_000, now: clock.now, ...options });
    services.push(s);
    return s;
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-keys-'));
    database = openDatabase(undefined, dir);
    await migrateToLatest(database);
    clock = new Clock();
  });
  afterEach(async () => {
    services.length = 0;
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('scopes and sources', () => {
    it('gives keys of API_KEYS the read scope and keys of ADMIN_API_KEYS the admin scope, with stable ids', async () => {
      const keys = service({ envKeys: { read: ['r-one', 'r-two'], admin: ['a-one'] } });
      await keys.ensureFresh();
      expect(keys.authenticate('r-two')).toEqual({ id: 'env:2', name: 'API_KEYS #2', scope: 'read', expiresAt: null });
      expect(keys.authenticate('a-one')).toEqual({ id: 'env-admin:1', name: 'ADMIN_API_KEYS #1', scope: 'admin', expiresAt: null });
      const listed = await keys.list();
      expect(listed.map((k) => [k.id, k.scope, k.source])).toEqual([
        ['env-admin:1', 'admin', 'ADMIN_API_KEYS'],
        ['env:1', 'read', 'API_KEYS'],
        ['env:2', 'read', 'API_KEYS'],
      ]);
    });

    it('creates read keys by default and admin keys when asked, each usable at once, listed without the key or its hash', async () => {
      const keys = service();
      const read = await keys.create({ name: '  mobile   app ' });
      const admin = await keys.create({ name: 'ops', scope: 'admin', source: 'cli' });
      expect(read.info).toMatchObject({ name: 'mobile app', scope: 'read', source: 'api', expiresAt: null, revokedAt: null, lastUsedAt: null });
      expect(admin.info).toMatchObject({ scope: 'admin', source: 'cli' });
      await keys.ensureFresh();
      expect(keys.authenticate(read.key).scope).toBe('read');
      expect(keys.authenticate(admin.key).scope).toBe('admin');
      const listed = JSON.stringify(await keys.list());
      const rows = await database.db.selectFrom('api_keys').select('key_hash').execute();
      expect(listed).not.toContain(read.key);
      expect(listed).not.toContain(rows[0]!.key_hash);
    });

    it('tells each of many stored keys apart, a key in both environment lists being admin, and refuses a near miss', async () => {
      const keys = service({ envKeys: { read: ['shared', 'r-only'], admin: ['shared'] } });
      const made: Awaited<ReturnType<ApiKeyService['create']>>[] = [];
      for (let i = 0; i < 300; i++) made.push(await keys.create({ name: `k${i}` }));
      // A row written by another implementation with its hash in capitals is the same key.
      const upper = await keys.create({ name: 'upper' });
      await database.db.updateTable('api_keys').set({ key_hash: sql<string>`upper(key_hash)` }).where('id', '=', upper.info.id).execute();
      clock.advance(60_001);
      await keys.ensureFresh();
      for (const m of [made[0]!, made[150]!, made[299]!, upper]) expect(keys.authenticate(m.key).id).toBe(m.info.id);
      expect(keys.authenticate('shared').scope).toBe('admin');
      expect(keys.authenticate('r-only').scope).toBe('read');
      expect(codeOf(() => keys.authenticate(`${made[7]!.key.slice(0, -1)}x`))?.code).toBe('UNAUTHENTICATED');
      await keys.revoke(made[150]!.info.id);
      expect(codeOf(() => keys.authenticate(made[150]!.key))?.code).toBe('UNAUTHENTICATED');
      expect(keys.authenticate(made[151]!.key).id).toBe(made[151]!.info.id);
    });

    it.each([
      [{ name: '' }, /name must not be empty/],
      [{ name: 'x'.repeat(101) }, /at most 100/],
      [{ name: 'bell\u0007' }, /control characters/],
      [{ name: 'n', scope: 'root' as 'read' }, /scope must be read or admin/],
      [{ name: 'n', expiresAt: 'tomorrow' }, /expiresAt must be a date/],
      [{ name: 'n', expiresAt: '2031-02-30' }, /expiresAt must be a date/],
      [{ name: 'n', expiresAt: '2031-01-01T10:00:00' }, /with its offset/],
      [{ name: 'n', expiresAt: '2030-06-01T11:59:59Z' }, /must be in the future/],
    ])('refuses %j with INVALID_ARGUMENT', async (input, message) => {
      const { code, message: said } = await rejection(service().create(input));
      expect(code).toBe('INVALID_ARGUMENT');
      expect(said).toMatch(message);
    });

    it('reads an expiry given as a day as the start of that day, UTC, and a date-time with its offset', () => {
      expect(new Date(expiryOf('2031-01-01')).toISOString()).toBe('2031-01-01T00:00:00.000Z');
      expect(new Date(expiryOf('2031-01-01T02:00:00+02:00')).toISOString()).toBe('2031-01-01T00:00:00.000Z');
      expect(expiryOf('2031-13-01')).toBeNaN();
    });

    it('keeps the keys made before the life cycle as read keys made by the CLI', async () => {
      await database.close();
      database = openDatabase(undefined, path.join(dir, 'old'));
      await migrateTo(database, '0004_covering_features');
      // The columns of migration 0001 only.
      await sql`insert into api_keys (id, name, key_hash, created_at) values ('old1', 'old', ${'ab'.repeat(32)}, '2025-01-01T00:00:00.000Z')`.execute(database.db);
      await migrateToLatest(database);
      expect(await service().list()).toEqual([expect.objectContaining({ id: 'old1', scope: 'read', source: 'cli', expiresAt: null, lastUsedAt: null })]);
    });
  });

  describe('expiry', () => {
    it('accepts a key until its expiry and then refuses it with 401 saying it expired', async () => {
      const keys = service();
      const { key } = await keys.create({ name: 'temp', expiresAt: '2030-06-02T00:00:00Z' });
      await keys.ensureFresh();
      expect(keys.authenticate(key).expiresAt).toBe('2030-06-02T00:00:00.000Z');
      clock.advance(12 * 3600_000);
      expect(codeOf(() => keys.authenticate(key))).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'this API key expired at 2030-06-02T00:00:00.000Z; ask an admin for a new one',
      });
      await keys.ensureFresh();
      expect(keys.recheck(key)).toBeUndefined();
    });
  });

  describe('revocation', () => {
    it('refuses a revoked key at once in the process that revoked it, and says so in the list', async () => {
      const keys = service();
      const { key, info } = await keys.create({ name: 'gone' });
      await keys.ensureFresh();
      keys.authenticate(key);
      const revoked = await keys.revoke(info.id);
      expect(revoked).toMatchObject({ id: info.id, revokedAt: '2030-06-01T12:00:00.000Z' });
      // No reload in between: the keys were loaded a moment ago and are fresh for a minute.
      expect(keys.stale()).toBe(false);
      expect(codeOf(() => keys.authenticate(key))).toMatchObject({ code: 'UNAUTHENTICATED', message: 'unknown or revoked API key' });
      // Revoking again changes nothing.
      clock.advance(1000);
      expect(await keys.revoke(info.id)).toMatchObject({ revokedAt: '2030-06-01T12:00:00.000Z' });
    });

    it('another process learns of a key made or revoked at once through the channel, and without one at its next refresh', async () => {
      const subscribers: ((change: KeyChange) => void)[] = [];
      const channel: KeyChangeChannel = {
        publish: (change) => Promise.resolve(subscribers.forEach((s) => s(change))),
        subscribe: (on) => Promise.resolve(void subscribers.push(on)),
        close: () => Promise.resolve(),
      };
      const here = service({ changes: channel });
      const there = service({ changes: channel });
      const unlinked = service({ refreshMs: 10_000 });
      await Promise.all([here.start(), there.start()]);
      // Both have read the keys (none yet), and keep them for a minute.
      await Promise.all([there.ensureFresh(), unlinked.ensureFresh()]);
      const { key, info } = await here.create({ name: 'shared' });
      // there is told, and reads the keys again with its next request: the new key works at once.
      expect(there.stale()).toBe(true);
      await there.ensureFresh();
      expect(there.authenticate(key).id).toBe(info.id);
      // unlinked knows nothing of it until its refresh.
      expect(unlinked.stale()).toBe(false);
      expect(codeOf(() => unlinked.authenticate(key))?.code).toBe('UNAUTHENTICATED');
      clock.advance(10_001);
      await unlinked.ensureFresh();
      expect(unlinked.authenticate(key).id).toBe(info.id);

      await here.revoke(info.id);
      expect(codeOf(() => there.authenticate(key))?.code).toBe('UNAUTHENTICATED');
      expect(unlinked.authenticate(key).id).toBe(info.id);
      clock.advance(10_001);
      await unlinked.ensureFresh();
      expect(codeOf(() => unlinked.authenticate(key))?.code).toBe('UNAUTHENTICATED');
    });

    it('refuses to revoke a key of the environment (400) and an unknown id (404)', async () => {
      const keys = service({ envKeys: { read: ['r'], admin: ['a'] } });
      expect(await rejection(keys.revoke('env:1'))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'key env:1 is set in API_KEYS; remove it from that variable and restart to revoke it',
      });
      expect((await rejection(keys.revoke('env-admin:1'))).message).toMatch(/is set in ADMIN_API_KEYS/);
      expect(await rejection(keys.revoke('nope'))).toEqual({ code: 'NOT_FOUND', message: 'no API key has id nope' });
      await keys.ensureFresh();
      expect(keys.authenticate('r').id).toBe('env:1');
    });

    it('keeps refusing a key revoked here even when a reload that began before the revocation ends after it', async () => {
      const keys = service({ refreshMs: 0 });
      const { key, info } = await keys.create({ name: 'race' });
      const reloading = keys.ensureFresh();
      await keys.revoke(info.id);
      await reloading;
      expect(codeOf(() => keys.authenticate(key))?.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('last use', () => {
    it('remembers uses in memory, shows them in the list at once, and writes them in one batch when flushed', async () => {
      const keys = service({ envKeys: { read: ['env-key'] } });
      const { key, info } = await keys.create({ name: 'busy' });
      await keys.ensureFresh();
      for (let i = 0; i < 50; i++) {
        keys.authenticate(key);
        clock.advance(1000);
      }
      keys.authenticate('env-key');
      const lastUse = '2030-06-01T12:00:49.000Z';
      expect(await database.db.selectFrom('api_key_last_used').selectAll().execute()).toEqual([]);
      expect((await keys.get(info.id))?.lastUsedAt).toBe(lastUse);

      await keys.flushLastUsed();
      const rows = await database.db.selectFrom('api_key_last_used').selectAll().execute();
      expect(rows).toHaveLength(2);
      expect(rows).toEqual(
        expect.arrayContaining([
          { key_id: info.id, last_used_at: lastUse },
          { key_id: 'env:1', last_used_at: '2030-06-01T12:00:50.000Z' },
        ]),
      );
      // Another node's process, which last saw the key earlier, does not move the time back.
      const other = service({ now: () => Date.parse('2030-06-01T11:00:00.000Z') });
      await other.ensureFresh();
      other.authenticate(key);
      await other.flushLastUsed();
      expect((await service().get(info.id))?.lastUsedAt).toBe(lastUse);
    });

    it('keeps the uses of a failed flush for the next one', async () => {
      const keys = service();
      const { key, info } = await keys.create({ name: 'k' });
      await keys.ensureFresh();
      keys.authenticate(key);
      await database.db.schema.alterTable('api_key_last_used').renameTo('elsewhere').execute();
      // Rejected (better-sqlite3's errors are not always Error instances to the test's realm).
      expect(await keys.flushLastUsed().then(() => 'written', () => 'failed')).toBe('failed');
      await database.db.schema.alterTable('elsewhere').renameTo('api_key_last_used').execute();
      await keys.flushLastUsed();
      expect((await service().get(info.id))?.lastUsedAt).toBe('2030-06-01T12:00:00.000Z');
    });

    it('tells request listeners of each accepted request, and of none refused', async () => {
      const seen: string[] = [];
      const keys = service({ envKeys: { read: ['k'] }, requestListeners: [{ apiRequest: (id) => seen.push(id) }] });
      await keys.ensureFresh();
      keys.authenticate('k');
      keys.authenticate('k');
      expect(codeOf(() => keys.authenticate('wrong'))?.code).toBe('UNAUTHENTICATED');
      expect(seen).toEqual(['env:1', 'env:1']);
    });
  });

  describe('first key', () => {
    it('makes one admin key when none is configured or stored, and never again', async () => {
      const keys = service();
      const first = await keys.createFirstKey();
      expect(first?.info).toMatchObject({ name: 'first admin key', scope: 'admin', source: 'first-run' });
      await keys.ensureFresh();
      expect(keys.authenticate(first!.key).scope).toBe('admin');
      expect(await keys.createFirstKey()).toBeUndefined();
      await keys.revoke(first!.info.id);
      expect(await keys.createFirstKey()).toBeUndefined();
      expect(await database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
    });

    it('makes none when a key is configured', async () => {
      expect(await service({ envKeys: { read: ['k'] } }).createFirstKey()).toBeUndefined();
      expect(await database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(0);
    });
  });
});
