import request, { type Response } from 'supertest';
import { syntheticAnalysis } from '../../../measure/store/synthetic-analyses';
import { captureLogs, LEVEL, type LogLine } from '../../helpers/log-capture';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** A sample of /metrics' text by name and labels (role included). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** Headers whose values differ from one request to the next. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);

function steadyHeaders(res: Response): Record<string, string> {
  return Object.fromEntries(Object.entries(res.headers as Record<string, string>).filter(([name]) => !PER_REQUEST.has(name)));
}

const QUERY = `query($k: String!) { analysis(trackKey: $k) { trackKey trackName tempo mood { happy } } }`;

describe('the hot path (the stored-analysis read and GraphQL POSTs, dispatched before the Express stack)', () => {
  let t: TestApp;
  let log: ReturnType<typeof captureLogs>;
  const stored = syntheticAnalysis(1);

  beforeAll(async () => {
    log = captureLogs('info');
    t = await createTestApp({ logger: log.logger, env: { RATE_LIMIT: '1000' } });
    await t.container.store.save(stored);
  });
  afterAll(() => t.close());

  const completed = (): LogLine[] => log.lines.filter((l) => l.msg === 'request completed');

  it('answers the read exactly as the router does for the same route (a trailing slash goes through the router)', async () => {
    const hot = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).expect(200);
    const routed = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}/`).set(t.auth).expect(200);
    expect(hot.text).toBe(routed.text);
    expect(steadyHeaders(hot)).toEqual(steadyHeaders(routed));
    expect(hot.body.data.trackKey).toBe(stored.trackKey);
    // Every hardening header, the request id, the rate limit and the entity tag are there.
    expect(hot.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-resource-policy': 'same-origin',
      'ratelimit-limit': '1000',
      'trackgraph-engine': String(stored.features.engine),
    });
    expect(hot.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(hot.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(hot.headers['ratelimit-remaining'])).toBeLessThan(1000);
    expect(hot.headers.etag).toMatch(/^"[\w-]{20,}"$/);
  });

  it('keeps the If-None-Match answer, the key check and the rate limit on the read', async () => {
    const first = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).expect(200);
    const again = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).set('If-None-Match', first.headers.etag as string).expect(304);
    expect(again.text).toBe('');
    const refused = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).expect(401);
    expect(refused.body).toEqual({ success: false, error: { code: 'UNAUTHENTICATED', message: expect.any(String) } });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="trackgraph"');
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    const wrong = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set('Authorization', 'Bearer not-a-key-0123456789').expect(401);
    expect(wrong.body.error.code).toBe('UNAUTHENTICATED');
    const invalid = await request(t.app).get('/api/audio/analysis/not-a-key').set(t.auth).expect(400);
    expect(invalid.body.error.code).toBe('INVALID_ARGUMENT');
  });

  it('logs each request with every field and counts it under its route template', async () => {
    const count = async (route: string, method: string): Promise<number> => {
      const metrics = (await request(t.app).get('/metrics').expect(200)).text;
      expect(metrics).not.toContain(stored.trackKey);
      return sample(metrics, 'trackgraph_http_request_duration_seconds_count', { method, route, status: '200', role: 'api' }) ?? 0;
    };
    const reads = await count('/api/audio/analysis/:trackKey', 'GET');
    const posts = await count('/graphql', 'POST');
    const before = completed().length;
    await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).set('X-Request-Id', 'hot-read-1').set('User-Agent', 'hot-test').expect(200);
    await request(t.app).post('/graphql').set(t.auth).set('X-Request-Id', 'hot-gql-1').send({ query: QUERY, variables: { k: stored.trackKey } }).expect(200);
    const lines = completed().slice(before);
    expect(lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        reqId: 'hot-read-1',
        req: { id: 'hot-read-1', method: 'GET', url: `/api/audio/analysis/${stored.trackKey}`, userAgent: 'hot-test' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({ reqId: 'hot-gql-1', req: expect.objectContaining({ method: 'POST', url: '/graphql' }), res: { statusCode: 200 } }),
    ]);
    expect(await count('/api/audio/analysis/:trackKey', 'GET')).toBe(reads + 1);
    expect(await count('/graphql', 'POST')).toBe(posts + 1);
  });

  it('answers a GraphQL POST with the hardening headers, no-store and the rate limit, from Apollo and then from the edge cache', async () => {
    const body = { query: QUERY, variables: { k: stored.trackKey } };
    const first = await request(t.app).post('/graphql').set(t.auth).send(body).expect(200);
    const repeat = await request(t.app).post('/graphql').set(t.auth).send(body).expect(200);
    expect(repeat.text).toBe(first.text);
    expect(first.body.data.analysis.trackKey).toBe(stored.trackKey);
    for (const res of [first, repeat]) {
      expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'ratelimit-limit': '1000' });
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(res.headers['x-request-id']).toBeDefined();
    }
    const refused = await request(t.app).post('/graphql').send(body).expect(401);
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const unreadable = await request(t.app).post('/graphql').set(t.auth).set('Content-Type', 'application/json').send('{"query":').expect(400);
    expect(unreadable.body.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
  });

  it('counts every request of the key as usage, as the router does', async () => {
    const requests = async (): Promise<number> => {
      const rows = (await t.container.usage.report({ id: 'env:1', scope: 'read' }, 1)).filter((r) => r.keyId === 'env:1');
      return rows.reduce((sum, r) => sum + r.requests, 0);
    };
    const before = await requests();
    await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).expect(200);
    await request(t.app).post('/graphql').set(t.auth).send({ query: QUERY, variables: { k: stored.trackKey } }).expect(200);
    await request(t.app).get(`/api/audio/analysis/${stored.trackKey}/`).set(t.auth).expect(200);
    expect(await requests()).toBe(before + 3);
  });
});

describe('the hot path with CORS_ORIGINS', () => {
  const ORIGIN = 'https://app.example.com';
  let t: TestApp;
  const stored = syntheticAnalysis(2);

  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: ORIGIN } });
    await t.container.store.save(stored);
  });
  afterAll(() => t.close());

  it('answers an allowed origin with the same CORS headers as the router, and another origin with none', async () => {
    const hot = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).set('Origin', ORIGIN).expect(200);
    const routed = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}/`).set(t.auth).set('Origin', ORIGIN).expect(200);
    expect(steadyHeaders(hot)).toEqual(steadyHeaders(routed));
    expect(hot.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(hot.headers.vary).toBe('Origin');
    const gql = await request(t.app).post('/graphql').set(t.auth).set('Origin', ORIGIN).send({ query: QUERY, variables: { k: stored.trackKey } }).expect(200);
    expect(gql.headers['access-control-allow-origin']).toBe(ORIGIN);
    const other = await request(t.app).get(`/api/audio/analysis/${stored.trackKey}`).set(t.auth).set('Origin', 'https://other.example.net').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toBe('Origin');
  });
});
