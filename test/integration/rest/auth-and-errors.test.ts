import request from 'supertest';
import { AppError } from '../../../src/core/errors';
import type { MetadataSource } from '../../../src/sources/source';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

describe('authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
  });
  afterAll(() => t.close());

  it.each([
    ['missing', undefined, /missing Authorization/],
    ['not Bearer', 'Basic dXNlcjpwYXNz', /malformed/],
    ['empty Bearer', 'Bearer ', /malformed/],
    ['unknown key', 'Bearer not-a-key', /unknown or revoked/],
  ])('when the key is %s, then 401 UNAUTHENTICATED with WWW-Authenticate: Bearer', async (_case, header, message) => {
    const req = request(t.app).get('/api/audio/search?track=Money');
    const res = await (header ? req.set('Authorization', header) : req).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(message) } });
  });

  it('protects analysis as well as search', async () => {
    await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed').expect(401);
  });

  it('accepts a key created with the key service, and refuses it once revoked', async () => {
    const { key, info: { id } } = await t.container.apiKeys.create({ name: 'mobile app' });
    await request(t.app).get('/api/audio/search?track=Money').set('Authorization', `Bearer ${key}`).expect(200);
    const listed = await t.container.apiKeys.list();
    expect(listed.find((k) => k.id === id)).toMatchObject({ name: 'mobile app', revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(await t.container.apiKeys.revoke(id)).toMatchObject({ id, revokedAt: expect.any(String) });
    await request(t.app).get('/api/audio/search?track=Money').set('Authorization', `Bearer ${key}`).expect(401);
  });

  it('stores only a hash of a created key', async () => {
    const { key } = await t.container.apiKeys.create({ name: 'hash check' });
    const rows = await t.container.database.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('when the /api route does not exist, then 404 NOT_FOUND in the contract shape', async () => {
    const res = await request(t.app).get('/api/audio/nothing-here').set(t.auth).expect(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('answers an unknown /api route without a key with 401, revealing nothing', async () => {
    await request(t.app).get('/api/admin').expect(401);
  });

  it('echoes a request id for tracing', async () => {
    const res = await request(t.app).get('/api/audio/search?track=x').set(t.auth).set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('failing sources', () => {
  const failing = (name: string, error: unknown): MetadataSource => ({
    name,
    search: async () => {
      throw error;
    },
  });
  const hanging = (name: string): MetadataSource => ({ name, search: () => new Promise(() => undefined) });

  it('when every source fails, then 502 UPSTREAM_UNAVAILABLE', async () => {
    const t = await createTestApp({ engine: new FakeEngine(), sources: () => [failing('deezer', new Error('HTTP 500'))] });
    try {
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(502);
      expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(res.body.error.message).not.toMatch(/HTTP 500/);
    } finally {
      await t.close();
    }
  });

  it('when every source times out, then 504 UPSTREAM_TIMEOUT', async () => {
    const t = await createTestApp({
      engine: new FakeEngine(),
      sources: () => [hanging('deezer')],
      env: { SOURCE_TIMEOUT_MS: '100' },
    });
    try {
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(504);
      expect(res.body.error.code).toBe('UPSTREAM_TIMEOUT');
    } finally {
      await t.close();
    }
  });

  it('when one source fails and another answers, then its partial results', async () => {
    const ok: MetadataSource = {
      name: 'library',
      search: async () => [{ artist: 'Pink Floyd', trackName: 'Money', source: 'library' }],
    };
    const t = await createTestApp({
      engine: new FakeEngine(),
      sources: () => [failing('deezer', new AppError('UPSTREAM_UNAVAILABLE', 'down')), ok],
    });
    try {
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
      expect(res.body.data).toHaveLength(1);
      // Said, not hidden: the source that failed and why, in an additive field and a header.
      expect(res.body.failedSources).toEqual([{ source: 'deezer', code: 'UPSTREAM_UNAVAILABLE', message: 'down' }]);
      expect(res.headers['trackgraph-failed-sources']).toBe('deezer');
    } finally {
      await t.close();
    }
  });

  it('when a source fails unexpectedly, then it is named without its error message', async () => {
    const empty: MetadataSource = { name: 'library', search: async () => [] };
    const t = await createTestApp({
      engine: new FakeEngine(),
      sources: () => [failing('deezer', new Error('secret-token-123 leaked in a message')), empty],
    });
    try {
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.failedSources).toEqual([{ source: 'deezer', code: 'INTERNAL', message: 'source deezer failed unexpectedly' }]);
      expect(JSON.stringify(res.body)).not.toContain('secret-token-123');
    } finally {
      await t.close();
    }
  });

  it('when every source answers, then the body is the contract\'s alone', async () => {
    const empty: MetadataSource = { name: 'library', search: async () => [] };
    const t = await createTestApp({ engine: new FakeEngine(), sources: () => [empty] });
    try {
      const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
      expect(res.body).toEqual({ success: true, data: [] });
      expect(res.headers['trackgraph-failed-sources']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
