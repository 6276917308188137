import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request, { type Response } from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const INDEX = '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'document.getElementById("root").textContent = "ok";';
const GRAPHIQL = '<!doctype html><html><head><script type="module" crossorigin src="/assets/graphiql-def456.js"></script></head><body><div id="root"></div></body></html>';

/** The error of a body in the contract's error shape. */
const errorOf = (res: Response): { code: string; message: string } => (res.body as { error: { code: string; message: string } }).error;

/** A Content-Security-Policy header as directive name → its sources. */
function policy(res: Response): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The built dashboard as Vite lays it out: index.html, hashed assets, files of public/. */
async function fakeBuild(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), INDEX);
  await writeFile(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await mkdir(path.join(dir, 'graphiql'));
  await writeFile(path.join(dir, 'graphiql', 'index.html'), GRAPHIQL);
}

describe('the web dashboard at /', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-dist-'));
    await fakeBuild(dist);
    t = await createTestApp({ engine: new FakeEngine(), dashboardDir: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves its page without a key: the page holds no data', async () => {
    const res = await request(t.app).get('/').set('Accept', 'text/html').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    // It names the current asset hashes: revalidated on every navigation.
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/track/bc24aaa5a97c70ed?artist=Pink+Floyd&track=Money', '/browse?mood=happy&moodMin=0.6', '/admin/keys', '/apix'])(
    'answers the client route %s with the same page',
    async (url) => {
      const res = await request(t.app).get(url).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
      expect(res.text).toBe(INDEX);
    },
  );

  it('serves hashed assets as immutable, and files of public/ as they are', async () => {
    const script = await request(t.app).get('/assets/index-abc123.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toMatch(/immutable/);
    expect(script.headers['cache-control']).toMatch(/max-age=31536000/);
    const icon = await request(t.app).get('/favicon.svg').expect(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('answers a missing asset 404 NOT_FOUND, not with the page', async () => {
    for (const [url, accept] of [
      ['/assets/index-old.js', '*/*'],
      ['/nowhere.png', 'image/avif,image/webp,*/*;q=0.8'],
      ['/nowhere', 'application/json'],
    ]) {
      const res = await request(t.app).get(url!).set('Accept', accept!).expect(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(typeof errorOf(res).message).toBe('string');
    }
    const post = await request(t.app).post('/').send({}).expect(404);
    expect(errorOf(post).code).toBe('NOT_FOUND');
  });

  it('gives its page and assets a policy of their own: own scripts, styles and API only, artwork from anywhere', async () => {
    for (const url of ['/', '/track/bc24aaa5a97c70ed', '/assets/index-abc123.js']) {
      const csp = policy(await request(t.app).get(url).set('Accept', 'text/html'));
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'http:', 'https:']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'none'"]);
    }
  });

  it('serves GraphiQL’s page at /graphiql without a key, under a policy of this origin only that lets its editor run', async () => {
    for (const url of ['/graphiql', '/graphiql/']) {
      const res = await request(t.app).get(url).set('Accept', 'text/html').expect(200);
      expect(res.text).toBe(GRAPHIQL);
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = policy(res);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      // Monaco's workers are files of this server.
      expect(csp.get('worker-src')).toEqual(["'self'"]);
      // Monaco writes style elements at run time; GraphiQL's stylesheet carries its fonts and icons as data: URLs.
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('font-src')).toEqual(["'self'", 'data:']);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['content-security-policy']).not.toMatch(/https?:|\*/);
    }
  });

  it('leaves the API as it was: 401 before the 404 JSON of an unknown /api route, probes, the GraphQL landing page', async () => {
    const noKey = await request(t.app).get('/api/nowhere').set('Accept', 'text/html').expect(401);
    expect(errorOf(noKey).code).toBe('UNAUTHENTICATED');
    const unknown = await request(t.app).get('/api/nowhere').set('Accept', 'text/html').set(t.auth).expect(404);
    expect(unknown.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'no such route: GET /api/nowhere' } });
    expect(policy(unknown).get('script-src')).toBeUndefined();

    const health = await request(t.app).get('/healthz').set('Accept', 'text/html').expect(200);
    expect(health.headers['content-type']).toMatch(/^application\/json/);
    expect(policy(health).get('default-src')).toEqual(["'none'"]);
    expect(policy(health).get('script-src')).toBeUndefined();

    const landing = await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
    expect(landing.text).not.toBe(INDEX);
    expect(landing.text).toContain('<h1>trackgraph GraphQL API</h1>');

    const gql = await request(t.app).post('/graphql').set(t.auth).send({ query: '{ trackKey(artist: "Pink Floyd", track: "Money") }' }).expect(200);
    expect(gql.body).toEqual({ data: { trackKey: 'bc24aaa5a97c70ed' } });
  });

  it('answers a path that is not valid percent-encoding without a 5xx', async () => {
    const res = await request(t.app).get('/%zz').set('Accept', 'text/html');
    expect(res.status).toBeLessThan(500);
  });
});

describe('a server whose dashboard is not built', () => {
  let t: TestApp;
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-dist-'));
    t = await createTestApp({ engine: new FakeEngine(), dashboardDir: empty });
  });
  afterAll(async () => {
    await t.close();
    await rm(empty, { recursive: true, force: true });
  });

  it('answers / with 404 NOT_FOUND saying how to build it, and serves the API', async () => {
    const res = await request(t.app).get('/').set('Accept', 'text/html').expect(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'the web dashboard is not built: run `npm run build`' } });
    expect(res.headers['cache-control']).toBeUndefined();
    await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
  });

  it('answers /graphiql with 404 NOT_FOUND saying how to build it', async () => {
    const res = await request(t.app).get('/graphiql').set('Accept', 'text/html').expect(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'GraphiQL is not built: run `npm run build`' } });
  });
});
