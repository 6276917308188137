import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { MetadataSource, MonitoredSource } from '../../../src/sources/source';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { startApi, type LoggedApi } from './scale.helpers';

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
}

/** The value of one sample in Prometheus' text format, whatever the order of its labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const ANALYSIS_QUERY = `query($k: String!) { analysis(trackKey: $k) { artist trackKey trackName tempo key mode energy mood { happy sad } meta { artist track } } }`;

describe('operations endpoints (embedded)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('/healthz answers while alive; /readyz checks the store and the cache', async () => {
    t = await createTestApp({ engine: new FakeEngine() });
    await request(t.app).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(t.app).get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { store: 'ok', cache: 'ok', sources: 'ok' } });
  });

  it('while a source\'s circuit is open, then /readyz says degraded naming it and why, and ready again once it closes', async () => {
    let outage: string | undefined = 'circuit open since 2030-01-01T00:00:00.000Z: could not be reached';
    const deezer: MonitoredSource & MetadataSource = { name: 'deezer', search: async () => [], health: () => outage };
    t = await createTestApp({ engine: new FakeEngine(), sources: () => [deezer] });
    const res = await request(t.app).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'degraded', checks: { store: 'ok', cache: 'ok', sources: `degraded: deezer: ${outage}` } });
    outage = undefined;
    expect((await request(t.app).get('/readyz').expect(200)).body).toEqual({ status: 'ready', checks: { store: 'ok', cache: 'ok', sources: 'ok' } });
  });

  it('when the store is gone, then /readyz answers 503 naming it', async () => {
    t = await createTestApp({ engine: new FakeEngine() });
    await t.container.store.close();
    const res = await request(t.app).get('/readyz').expect(503);
    expect(res.body).toEqual({ status: 'not ready', checks: { store: expect.stringMatching(/^unreachable: /), cache: 'ok', sources: 'ok' } });
  });

  it('/metrics counts requests by route template and status, cache lookups, analyses and source errors', async () => {
    const engine = new FakeEngine();
    t = await createTestApp({ engine, prepareLibrary: library });
    await request(t.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(t.auth).expect(200);
    await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(t.auth).expect(200);
    await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(t.auth).expect(200);
    await request(t.app).get('/api/audio/analysis/0000000000000000').set(t.auth).expect(404);
    const res = await request(t.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const value = (name: string, labels: Record<string, string>) => sample(res.text, name, { ...labels, role: 'api' });
    const requests = 'trackgraph_http_request_duration_seconds_count';
    expect(value(requests, { method: 'GET', route: '/api/audio/analysis/:trackKey', status: '200' })).toBe(2);
    expect(value(requests, { method: 'GET', route: '/api/audio/analysis/:trackKey', status: '404' })).toBe(1);
    expect(value(requests, { method: 'GET', route: '/api/audio/search', status: '200' })).toBe(1);
    // No raw key ever becomes a label.
    expect(res.text).not.toMatch(/bc24aaa5a97c70ed/);
    expect(value('trackgraph_analysis_duration_seconds_count', { outcome: 'stored' })).toBe(1);
    expect(value('trackgraph_cache_lookups_total', { namespace: 'meta', result: 'hit' })).toBe(1);
    expect(value('trackgraph_analysis_queue_jobs', { state: 'waiting' })).toBe(0);
    expect(res.text).toMatch(/^trackgraph_process_cpu_seconds_total/m);
  });

  it('counts a failing source in trackgraph_source_errors_total', async () => {
    t = await createTestApp({
      engine: new FakeEngine(),
      sources: () => [{ name: 'broken', search: async () => Promise.reject(new Error('catalogue down')) } as never],
    });
    await request(t.app).get('/api/audio/search?track=Money').set(t.auth);
    const res = await request(t.app).get('/metrics').expect(200);
    expect(sample(res.text, 'trackgraph_source_errors_total', { source: 'broken', operation: 'search', role: 'api' })).toBe(1);
  });

  it('with METRICS_TOKEN, /metrics wants it', async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
    await request(t.app).get('/metrics').expect(401);
    await request(t.app).get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789').expect(401);
    await request(t.app).get('/metrics').set('Authorization', 'Bearer metrics-token-0123456789').expect(200);
  });
});

describe('rate limits per API key (embedded: in memory)', () => {
  let t: TestApp;
  afterEach(() => t.close());
  const OTHER_KEY = 'other-key-0123456789';

  it('REST: RATE_LIMIT requests a minute per key, then 429 RATE_LIMITED with Retry-After and RateLimit-* headers', async () => {
    t = await createTestApp({ engine: new FakeEngine(), prepareLibrary: library, env: { RATE_LIMIT: '2', API_KEYS: `${TEST_API_KEY},${OTHER_KEY}` } });
    const search = (key: string) => request(t.app).get('/api/audio/search?track=Money').set('Authorization', `Bearer ${key}`);
    const first = await search(TEST_API_KEY).expect(200);
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1' });
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    await search(TEST_API_KEY).expect(200);
    const refused = await search(TEST_API_KEY).expect(429);
    expect(refused.body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.stringMatching(/2 requests per minute/) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // Another key has its own budget; requests without a valid key are refused as before, not counted.
    await search(OTHER_KEY).expect(200);
    await request(t.app).get('/api/audio/search?track=Money').expect(401);
    await request(t.app).get('/api/audio/search?track=Money').set('Authorization', 'Bearer not-a-key-0123456789').expect(401);
    const metrics = await request(t.app).get('/metrics');
    expect(sample(metrics.text, 'trackgraph_rate_limited_total', { edge: 'rest', role: 'api' })).toBe(1);
  });

  it('GraphQL: an operation costs ceil(cost / RATE_LIMIT_GRAPHQL_COST) of the same budget, then 429 RATE_LIMITED', async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { RATE_LIMIT: '40', RATE_LIMIT_GRAPHQL_COST: '1' } });
    const gql = () =>
      request(t.app).post('/graphql').set(t.auth).send({ query: ANALYSIS_QUERY, variables: { k: 'bc24aaa5a97c70ed' } });
    const first = await gql().expect(200);
    const spent = 40 - Number(first.headers['ratelimit-remaining']);
    // A document of a dozen fields and an analysis costs more than one plain request.
    expect(spent).toBeGreaterThan(5);
    const rest = await request(t.app).get('/api/audio/search?track=Money').set(t.auth);
    expect(Number(rest.headers['ratelimit-remaining'])).toBe(40 - spent - 1);
    let last = first;
    for (let i = 0; i < 40 && last.status !== 429; i++) last = await gql();
    expect(last.status).toBe(429);
    expect(last.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.headers['ratelimit-limit']).toBe('40');
  });
});

describe('logs', () => {
  let dir: string;
  let api: LoggedApi;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-logs-'));
    await mkdir(path.join(dir, 'library'));
  });
  afterEach(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('carry the request id and never an API key, valid or not', async () => {
    api = await startApi(dir, {}, new FakeEngine());
    await request(api.app).get('/api/audio/search?track=Money').set(api.auth).set('X-Request-Id', 'req-123').expect(200);
    await request(api.app).get('/api/audio/search?track=Money').set('Authorization', 'Bearer wrong-key-0123456789').expect(401);
    await request(api.app).post('/graphql').set(api.auth).send({ query: '{ __typename }' }).expect(200);
    const text = JSON.stringify(api.logs);
    expect(text).not.toContain(TEST_API_KEY);
    expect(text).not.toContain('wrong-key-0123456789');
    const completed = api.logs.filter((l) => l.msg === 'request completed');
    expect(completed.length).toBeGreaterThanOrEqual(3);
    expect(completed.some((l) => (l.req as { id?: string }).id === 'req-123')).toBe(true);
    // Probes are not logged (they come every few seconds).
    await request(api.app).get('/healthz').expect(200);
    expect(api.logs.filter((l) => l.msg === 'request completed')).toHaveLength(completed.length);
  });
});
