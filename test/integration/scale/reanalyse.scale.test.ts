import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine, featuresFromBytes } from '../../../measure/http/fake-engine';
import { describeWith } from '../../helpers/describe-with';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { storedAnalysis } from '../graphql/graphql.helpers';
import { eventually, scaledSetup } from './scale.helpers';

const ADMIN_KEY = 'admin-key-0123456789';
const MONEY = trackKey('Pink Floyd', 'Money');
const MONEY_BYTES = 'bytes of money';
const GRAPHQL = JSON.stringify({ query: 'query($k: String!) { analysis(trackKey: $k) { tempo } }', variables: { k: MONEY } });

/*
 * Two API nodes on the real Redis and Postgres: a re-analysis started on node A replaces the
 * stored analysis, and node B, which held it in its LRU, its REST bodies and its GraphQL caches,
 * hears analysis.replaced on Redis and answers the new one.
 */
describeWith({ redis: true, postgres: true })('re-analysis across nodes (two API nodes on Redis and Postgres)', () => {
  const setup = scaledSetup('reanalyse');
  const env = { ...setup.env, ADMIN_API_KEYS: ADMIN_KEY };
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const library = (dir: string) => writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), MONEY_BYTES);
    a = await createTestApp({ env, engine: new FakeEngine(), prepareLibrary: library });
    b = await createTestApp({ env, engine: new FakeEngine(), prepareLibrary: library });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await setup.cleanup();
  });

  it('node B drops what it held of the key when node A replaces it', async () => {
    // An analysis an older engine stored (its tempo, 1, is one the fake engine never gives).
    const older = storedAnalysis('Pink Floyd', 'Money');
    older.source = 'library';
    older.features = { ...older.features, tempo: 1, engine: 'trackgraph-engine/1' };
    expect(await a.container.store.save(older)).toBe(true);
    const expected = featuresFromBytes(Buffer.from(MONEY_BYTES)).tempo;
    const old = await request(b.app).get(`/api/audio/analysis/${MONEY}`).set(b.auth).expect(200);
    expect(old.body.data.tempo).toBe(1);
    const graphql = () => request(b.app).post('/graphql').set(b.auth).set('Content-Type', 'application/json').send(GRAPHQL).expect(200);
    expect((await graphql()).body.data.analysis.tempo).toBe(1);
    expect((await graphql()).body.data.analysis.tempo).toBe(1);

    await request(a.app).post('/api/admin/reanalyse').set({ Authorization: `Bearer ${ADMIN_KEY}` }).send({}).expect(202);
    await a.container.reanalyse.idle();
    // Redis pub/sub reaches node B shortly after.
    expect(await eventually(async () => (await request(b.app).get(`/api/audio/analysis/${MONEY}`).set(b.auth)).body.data.tempo === expected)).toBe(true);
    const now = await request(b.app).get(`/api/audio/analysis/${MONEY}`).set(b.auth).set('If-None-Match', old.headers.etag as string).expect(200);
    expect(now.headers.etag).not.toBe(old.headers.etag);
    expect(now.headers['trackgraph-engine']).toBe('fake-engine');
    expect((await graphql()).body.data.analysis.tempo).toBe(expected);
  });
});
