import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { POSTGRES_URL, REDIS_URL, deleteRedisKeys, dropSchema, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const ADMIN_KEY = 'admin-key-0123456789';
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** Two API nodes of one deployment: one Postgres schema, one Redis (CACHE_URL) and prefix. */
describeWith({ redis: true, postgres: true })('keys and usage on two API nodes sharing Redis and Postgres', () => {
  const schema = uniqueName('keys');
  const nodes: TestApp[] = [];

  beforeAll(async () => {
    const env = {
      DATABASE_URL: POSTGRES_URL!,
      DATABASE_SCHEMA: schema,
      CACHE_URL: REDIS_URL,
      REDIS_PREFIX: schema,
      ADMIN_API_KEYS: ADMIN_KEY,
      ARTWORK_SECRET: 'a-secret-shared-by-both-nodes',
      // Nothing is flushed by the clock during the test: only by the flushes it asks for.
      USAGE_FLUSH_MS: '3600000',
    };
    // One after the other: the first migrates the schema.
    nodes.push(await createTestApp({ engine: new FakeEngine(), env }));
    nodes.push(await createTestApp({ engine: new FakeEngine(), env }));
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await dropSchema(schema);
    await deleteRedisKeys(schema);
  });

  it('a key revoked on one node is refused by the other at its next request, long before the keys are read again', async () => {
    const [a, b] = nodes as [TestApp, TestApp];
    const made = await request(a.app).post('/api/keys').set(admin).send({ name: 'roaming' }).expect(201);
    const { id, key } = (made.body as { data: { id: string; key: string } }).data;
    const auth = { Authorization: `Bearer ${key}` };
    // b reads the stored keys (the new one among them) and keeps them for 10 s.
    await request(b.app).get('/api/audio/search?track=x').set(auth).expect(200);
    expect(b.container.apiKeys.stale()).toBe(false);

    await request(a.app).delete(`/api/keys/${id}`).set(admin).expect(200);
    // The message travels through Redis; b refuses the key as soon as it has it.
    let status = 0;
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await request(b.app).get('/api/audio/search?track=x').set(auth)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
    // …while b's copy of the stored keys is still the one read before the revocation.
    expect(b.container.apiKeys.stale()).toBe(false);
  });

  it('counts each node’s requests in Redis and adds them to the store once, whichever node drains', async () => {
    const [a, b] = nodes as [TestApp, TestApp];
    const made = await request(a.app).post('/api/keys').set(admin).send({ name: 'counted' }).expect(201);
    const { id, key } = (made.body as { data: { id: string; key: string } }).data;
    const auth = { Authorization: `Bearer ${key}` };
    for (let i = 0; i < 3; i++) await request(a.app).get('/api/audio/search?track=x').set(auth).expect(200);
    for (let i = 0; i < 2; i++) await request(b.app).get('/api/audio/search?track=x').set(auth).expect(200);

    await Promise.all([a.container.flush(), b.container.flush()]);
    // Each node's counts reached Redis; a drain may have run before the other node's arrived.
    await a.container.flush();
    await b.container.flush();
    const rows = await a.container.database.db.selectFrom('api_key_usage').selectAll().where('key_id', '=', id).execute();
    expect(rows.map((r) => Number(r.requests))).toEqual([5]);
    const usage = await request(b.app).get('/api/usage?days=1').set(admin).expect(200);
    expect((usage.body as { data: { keyId: string; requests: number }[] }).data.find((r) => r.keyId === id)?.requests).toBe(5);
  });
});
