import request from 'supertest';
import { loadConfig } from '../../../src/config';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

/** A browser's preflight before a GraphQL POST or a REST GET carrying a Bearer key. */
const preflight = (t: TestApp, path: string, origin: string, headers = 'authorization,content-type,apollo-require-preflight') =>
  request(t.app).options(path).set('Origin', origin).set('Access-Control-Request-Method', path === '/graphql' ? 'POST' : 'GET').set('Access-Control-Request-Headers', headers);

describe('CORS', () => {
  describe('with CORS_ORIGINS naming one origin', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ engine: new FakeEngine(), env: { CORS_ORIGINS: `${APP}, http://localhost:5173` } });
    });
    afterAll(() => t.close());

    it.each(['/graphql', '/api/audio/search?track=Money', '/api/audio/analysis/bc24aaa5a97c70ed', '/api/audio/analyses?keys=bc24aaa5a97c70ed'])(
      'answers the preflight of %s with 204 and the CORS headers, before authentication',
      async (path) => {
        const res = await preflight(t, path, APP).expect(204);
        expect(res.headers['access-control-allow-origin']).toBe(APP);
        expect(res.headers['vary']).toMatch(/Origin/);
        const allowed = (res.headers['access-control-allow-headers'] as string).toLowerCase().split(/\s*,\s*/);
        expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'apollo-require-preflight']));
        expect(res.headers['access-control-allow-methods']).toMatch(/GET/);
        expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        expect(res.text).toBe('');
      },
    );

    it('echoes the allowed origin on the actual answers, and lets the page read the request id and rate-limit headers', async () => {
      const rest = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).set('Origin', APP).expect(200);
      expect(rest.headers['access-control-allow-origin']).toBe(APP);
      const exposed = (rest.headers['access-control-expose-headers'] as string).toLowerCase();
      for (const name of ['x-request-id', 'ratelimit-remaining', 'retry-after', 'etag']) expect(exposed).toContain(name);
      const gql = await request(t.app).post('/graphql').set(t.auth).set('Origin', 'http://localhost:5173').send({ query: '{ trackKey(artist: "a", track: "b") }' }).expect(200);
      expect(gql.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    });

    it('puts the CORS headers on error answers too, so the page can read the error', async () => {
      const res = await request(t.app).get('/api/audio/search?track=Money').set('Origin', APP).expect(401);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    });

    it('gives another origin no CORS headers: its preflight goes on to authentication', async () => {
      const pre = await preflight(t, '/graphql', OTHER);
      expect(pre.status).toBe(401);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).set('Origin', OTHER).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['vary']).toMatch(/Origin/);
    });

    it('gives a request without Origin (not from a browser page) no CORS headers', async () => {
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('with CORS_ORIGINS=*', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ engine: new FakeEngine(), env: { CORS_ORIGINS: '*' } });
    });
    afterAll(() => t.close());

    it('answers any origin, echoing it', async () => {
      const res = await preflight(t, '/graphql', OTHER).expect(204);
      expect(res.headers['access-control-allow-origin']).toBe(OTHER);
      const get = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).set('Origin', OTHER).expect(200);
      expect(get.headers['access-control-allow-origin']).toBe(OTHER);
    });
  });

  describe('without CORS_ORIGINS (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ engine: new FakeEngine() });
    });
    afterAll(() => t.close());

    it('allows no origin: no CORS headers, and a preflight is an unauthenticated request', async () => {
      const pre = await preflight(t, '/graphql', APP).expect(401);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).set('Origin', APP).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});

describe('CORS_ORIGINS', () => {
  const parse = (value: string) => loadConfig({ CORS_ORIGINS: value }).CORS_ORIGINS;

  it('reads origins as browsers send them: host lowercased, default port and trailing slash dropped', () => {
    expect(parse('https://App.Example.com/, http://localhost:5173,https://x.test:443')).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'https://x.test',
    ]);
    expect(parse('*')).toEqual(['*']);
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
  });

  it.each(['app.example.com', 'https://app.example.com/path', 'https://app.example.com?x=1', 'ftp://files.test', 'https://user@app.test', 'null'])(
    'refuses %s at start, naming the variable',
    (value) => {
      expect(() => parse(value)).toThrow(/CORS_ORIGINS/);
    },
  );
});
