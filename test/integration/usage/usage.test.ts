import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { SqlApiKeyStore } from '../../../src/auth/api-key.store';
import { ApiKeyService } from '../../../src/auth/api-keys';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateToLatest } from '../../../src/db/migrations';
import { RedisUsageRelay } from '../../../src/usage/redis.usage';
import { UsageService, type UsageRelay } from '../../../src/usage/usage.service';
import { SqlUsageStore } from '../../../src/usage/usage.store';
import { POSTGRES_URL, REDIS_URL, deleteRedisKeys, dropSchema, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';

/** A clock the test moves. */
class Clock {
  constructor(public ms = Date.parse('2030-06-01T23:59:58.000Z')) {}
  now = (): number => this.ms;
}

interface Store {
  database: Database;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Store> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-usage-'));
  const database = openDatabase(undefined, dir);
  await migrateToLatest(database);
  return {
    database,
    async close() {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(): Promise<Store> {
  const schema = uniqueName('usage');
  const database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
  await migrateToLatest(database);
  return {
    database,
    async close() {
      await database.close();
      await dropSchema(schema);
    },
  };
}

const STORES: [string, () => Promise<Store>, jest.Describe][] = [
  ['SQLite', sqliteStore, describe],
  ['Postgres', postgresStore, describeWith({ postgres: true })],
];

describe.each(STORES)('usage on %s', (_name, open, describeIf) => {
  describeIf('counted in memory, flushed into the store', () => {
    let store: Store;
    let clock: Clock;
    let keys: ApiKeyService;
    let admin: string;
    let reader: string;

    beforeEach(async () => {
      store = await open();
      clock = new Clock();
      keys = new ApiKeyService(new SqlApiKeyStore(store.database), { envKeys: { read: ['r'] }, now: clock.now });
      admin = (await keys.create({ name: 'ops', scope: 'admin' })).info.id;
      reader = 'env:1';
    });
    afterEach(() => store.close());

    const service = (relay?: UsageRelay) => new UsageService(new SqlUsageStore(store.database), keys, { now: clock.now, ...(relay ? { relay } : {}) });

    it('counts requests and analyses per key and UTC day, writes them only when flushed, and adds flushes up', async () => {
      const usage = service();
      usage.apiRequest(reader);
      usage.apiRequest(reader);
      usage.analysisRequested('bc24aaa5a97c70ed', reader);
      usage.apiRequest(admin);
      clock.ms += 3000; // past midnight, UTC
      usage.apiRequest(reader);
      expect(await store.database.db.selectFrom('api_key_usage').selectAll().execute()).toEqual([]);

      await usage.flush();
      usage.apiRequest(reader);
      usage.analysisRequested('bc24aaa5a97c70ed', reader);
      await usage.flush();
      const rows = await store.database.db.selectFrom('api_key_usage').selectAll().execute();
      const line = (r: { key_id: string; day: string; requests: number; analyses: number }) => `${r.day} ${r.key_id === admin ? 'admin' : r.key_id} ${r.requests} ${r.analyses}`;
      expect(rows.map((r) => line({ ...r, requests: Number(r.requests), analyses: Number(r.analyses) })).sort()).toEqual([
        '2030-06-01 admin 1 0',
        '2030-06-01 env:1 2 1',
        '2030-06-02 env:1 2 1',
      ]);
    });

    it('reports every key to an admin and its own rows to a read key, with names, within the days asked, counts not flushed yet included', async () => {
      const usage = service();
      clock.ms = Date.parse('2030-05-01T10:00:00Z');
      usage.apiRequest(reader);
      await usage.flush();
      clock.ms = Date.parse('2030-06-01T10:00:00Z');
      usage.apiRequest(reader);
      usage.apiRequest(admin);
      await usage.flush();
      usage.apiRequest(admin);

      expect(await usage.report({ id: admin, scope: 'admin' }, 1)).toEqual([
        { keyId: 'env:1', name: 'API_KEYS #1', day: '2030-06-01', requests: 1, analyses: 0, uploads: 0, uploadBytes: 0 },
        { keyId: admin, name: 'ops', day: '2030-06-01', requests: 2, analyses: 0, uploads: 0, uploadBytes: 0 },
      ]);
      expect(await usage.report({ id: reader, scope: 'read' }, 32)).toEqual([
        { keyId: 'env:1', name: 'API_KEYS #1', day: '2030-05-01', requests: 1, analyses: 0, uploads: 0, uploadBytes: 0 },
        { keyId: 'env:1', name: 'API_KEYS #1', day: '2030-06-01', requests: 1, analyses: 0, uploads: 0, uploadBytes: 0 },
      ]);
      // 31 days back from 1 June is 2 May: May 1 falls outside.
      expect((await usage.report({ id: reader, scope: 'read' }, 31)).map((r) => r.day)).toEqual(['2030-06-01']);
    });

    it.each([0, 367, 1.5, Number.NaN])('refuses days = %p with INVALID_ARGUMENT', async (days) => {
      await expect(service().report({ id: admin, scope: 'admin' }, days)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'days must be a whole number from 1 to 366',
      });
    });

    it('keeps the counts of a failed flush for the next one', async () => {
      const usage = service();
      usage.apiRequest(reader);
      await store.database.db.schema.alterTable('api_key_usage').renameTo('elsewhere').execute();
      expect(await usage.flush().then(() => 'written', () => 'failed')).toBe('failed');
      usage.apiRequest(reader);
      await store.database.db.schema.alterTable('elsewhere').renameTo('api_key_usage').execute();
      await usage.flush();
      expect(await usage.report({ id: reader, scope: 'read' }, 1)).toEqual([expect.objectContaining({ requests: 2 })]);
      const stored = await store.database.db.selectFrom('api_key_usage').select('requests').execute();
      expect(stored.map((r) => Number(r.requests))).toEqual([2]);
    });
  });

  describeWith({ redis: true, ...(_name === 'Postgres' ? { postgres: true } : {}) })('scaled out: counted in Redis, drained by one node at a time', () => {
    let store: Store;
    let prefix: string;
    const clients: Redis[] = [];
    const clock = new Clock(Date.parse('2030-06-01T10:00:00Z'));

    const relay = (): RedisUsageRelay => {
      const redis = new Redis(REDIS_URL);
      clients.push(redis);
      return new RedisUsageRelay(redis, prefix, clock.now);
    };
    const node = (r: UsageRelay = relay()) =>
      new UsageService(new SqlUsageStore(store.database), { list: () => Promise.resolve([]) }, { relay: r, now: clock.now });
    const stored = async () =>
      (await store.database.db.selectFrom('api_key_usage').selectAll().orderBy('key_id').execute()).map((r) => [r.key_id, Number(r.requests), Number(r.analyses)]);

    beforeEach(async () => {
      store = await open();
      prefix = uniqueName('usage');
    });
    afterEach(async () => {
      await deleteRedisKeys(prefix);
      for (const c of clients.splice(0)) c.disconnect();
      await store.close();
    });

    it('adds every node\'s counts to the store once, with REDIS_PREFIX-prefixed keys that expire', async () => {
      const [a, b] = [node(), node()];
      for (let i = 0; i < 3; i++) a.apiRequest('k1');
      b.apiRequest('k1');
      b.analysisRequested('bc24aaa5a97c70ed', 'env:2');

      // a sends its counts to Redis and drains them; b's are still in its memory.
      await a.flush();
      expect(await stored()).toEqual([['k1', 3, 0]]);
      const peek = new Redis(REDIS_URL);
      clients.push(peek);
      await b.flush();
      expect(await stored()).toEqual([['env:2', 0, 1], ['k1', 4, 0]]);

      // Nothing is left to add twice.
      await a.flush();
      await b.flush();
      expect(await stored()).toEqual([['env:2', 0, 1], ['k1', 4, 0]]);

      // Counts waiting in Redis for the next drain.
      await relay().add([{ day: '2030-06-01', keyId: 'k2', requests: 1, analyses: 0, uploads: 0, uploadBytes: 0 }]);
      const keys = await peek.keys(`${prefix}:*`);
      expect(keys).toEqual([`${prefix}:usage:pending`]);
      expect(await peek.pttl(`${prefix}:usage:pending`)).toBeGreaterThan(86_400_000);
    });

    it('carries uploads and their bytes through Redis to the store, and a node reads today\'s uploads of a key from it', async () => {
      const [a, b] = [node(), node()];
      a.uploadStarted('k1');
      a.uploadReceived('k1', 3 * 1024 ** 3);
      b.uploadStarted('k1');
      b.uploadReceived('k1', 10);
      await a.flush();
      await b.flush();
      const rows = await store.database.db.selectFrom('api_key_usage').selectAll().execute();
      expect(rows.map((r) => [r.key_id, Number(r.uploads), Number(r.upload_bytes)])).toEqual([['k1', 2, 3 * 1024 ** 3 + 10]]);
      b.uploadStarted('k1');
      expect(await b.uploadsToday('k1')).toEqual({ uploads: 3, bytes: 3 * 1024 ** 3 + 10 });
      expect(await b.uploadsToday('k2')).toEqual({ uploads: 0, bytes: 0 });
    });

    it('adds a batch once when a drain stopped after the store had it, and drains nothing while another node holds the lock', async () => {
      const r = relay();
      const a = node(r);
      a.apiRequest('k1');
      a.apiRequest('k1');
      // The counts reach Redis; a drain takes them as a batch and adds them to the store, then
      // stops before deleting the batch from Redis (the process was killed).
      await r.add([{ day: '2030-06-01', keyId: 'k1', requests: 2, analyses: 0, uploads: 0, uploadBytes: 0 }]);
      const redis = clients[0]!;
      await redis.rename(`${prefix}:usage:pending`, `${prefix}:usage:draining`);
      await redis.hset(`${prefix}:usage:draining`, '#batch', 'batch-1');
      await new SqlUsageStore(store.database).addBatch('batch-1', [{ day: '2030-06-01', keyId: 'k1', requests: 2, analyses: 0, uploads: 0, uploadBytes: 0 }], clock.now());
      expect(await stored()).toEqual([['k1', 2, 0]]);

      // Another node holds the lock: nothing is drained.
      await redis.set(`${prefix}:usage:lock`, 'someone-else', 'PX', 60_000);
      await r.drain(new SqlUsageStore(store.database));
      expect(await redis.exists(`${prefix}:usage:draining`)).toBe(1);
      await redis.del(`${prefix}:usage:lock`);

      // The next drain finds the batch recorded: it is not added again, and is removed.
      await r.drain(new SqlUsageStore(store.database));
      expect(await stored()).toEqual([['k1', 2, 0]]);
      expect(await redis.exists(`${prefix}:usage:draining`)).toBe(0);

      // a's own counts (still in memory) go through the next batch.
      await a.flush();
      expect(await stored()).toEqual([['k1', 4, 0]]);
    });

    it('keeps counting in memory while Redis is away, and sends the counts when it returns', async () => {
      // Redis is away (a relay whose every command fails), then back.
      const away: UsageRelay = {
        add: async () => Promise.reject(new Error('Stream isn\'t writeable and enableOfflineQueue options is false')),
        drain: async () => Promise.reject(new Error('Redis away')),
        close: () => Promise.resolve(),
      };
      let target = away;
      const a = node({ add: (c) => target.add(c), drain: (s) => target.drain(s), close: () => Promise.resolve() });
      a.apiRequest('k1');
      expect(await a.flush().then(() => 'written', () => 'failed')).toBe('failed');
      a.apiRequest('k1');
      target = relay();
      await a.flush();
      expect(await stored()).toEqual([['k1', 2, 0]]);
    });
  });
});

describeWith({ postgres: true })('the first key on Postgres', () => {
  it('is made once when several nodes start together on an empty database', async () => {
    const schema = uniqueName('firstkey');
    const nodes = [0, 1, 2].map(() => openDatabase(POSTGRES_URL, '/nonexistent', schema));
    try {
      await migrateToLatest(nodes[0]!);
      const made = await Promise.all(nodes.map((d) => new ApiKeyService(new SqlApiKeyStore(d)).createFirstKey()));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await nodes[0]!.db.selectFrom('api_keys').select('scope').execute()).toEqual([{ scope: 'admin' }]);
    } finally {
      await Promise.all(nodes.map((d) => d.close()));
      await dropSchema(schema);
    }
  });
});
