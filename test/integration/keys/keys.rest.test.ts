import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const ADMIN_KEY = 'admin-key-0123456789';
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

interface CreatedKey {
  id: string;
  name: string;
  scope: string;
  key: string;
  createdAt: string;
  expiresAt: string | null;
}

interface ListedKey {
  id: string;
  name: string;
  scope: string;
  source: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface ErrorBody {
  success: false;
  error: { code: string; message: string };
}

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, { content: Record<string, { schema: unknown }> }> };
};

describe('keys and usage over REST', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    t = await createTestApp({
      engine: new FakeEngine(),
      env: { ADMIN_API_KEYS: ADMIN_KEY },
      prepareLibrary: async (dir) => {
        await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of Money');
      },
    });
    doc = (await request(t.app).get('/api/openapi.json').expect(200)).body as Doc;
  });
  afterAll(() => t.close());

  /** A response checked against what /api/openapi.json says of its path, method and status. */
  const conforms = (p: string, method: string, res: request.Response): void => {
    const inlined = (schema: unknown): unknown => {
      if (Array.isArray(schema)) return schema.map(inlined);
      if (schema === null || typeof schema !== 'object') return schema;
      const ref = (schema as { $ref?: string }).$ref;
      if (ref) return inlined(doc.components.schemas[ref.split('/').pop()!]);
      return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlined(v)]));
    };
    let response = doc.paths[p]![method]!.responses[String(res.status)];
    expect({ p, method, status: res.status, documented: response !== undefined }).toEqual({ p, method, status: res.status, documented: true });
    if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()!];
    const schema = z.fromJSONSchema(inlined(response!.content!['application/json']!.schema) as z.core.JSONSchema.JSONSchema);
    const result = schema.safeParse(res.body);
    expect({ p, status: res.status, issues: result.success ? [] : result.error.issues }).toEqual({ p, status: res.status, issues: [] });
  };

  const create = (body: object, auth: Record<string, string> = admin) => request(t.app).post('/api/keys').set(auth).send(body);

  it('makes a key with an admin key: 201 with the key shown once, which then works; the list never shows it', async () => {
    const res = await create({ name: 'mobile app', expiresAt: '2999-01-01' }).expect(201);
    conforms('/api/keys', 'post', res);
    const made = (res.body as { data: CreatedKey }).data;
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{12}$/) as string,
      name: 'mobile app',
      scope: 'read',
      key: expect.stringMatching(/^tg_[\w-]{40,}$/) as string,
      createdAt: expect.any(String) as string,
      expiresAt: '2999-01-01T00:00:00.000Z',
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.location).toBe(`/api/keys/${made.id}`);

    await request(t.app).get('/api/audio/search?track=Money').set('Authorization', `Bearer ${made.key}`).expect(200);

    const list = await request(t.app).get('/api/keys').set(admin).expect(200);
    conforms('/api/keys', 'get', list);
    expect(list.text).not.toContain(made.key);
    const keys = (list.body as { data: ListedKey[] }).data;
    expect(keys.slice(0, 2).map((k) => [k.id, k.scope, k.source])).toEqual([
      ['env-admin:1', 'admin', 'ADMIN_API_KEYS'],
      ['env:1', 'read', 'API_KEYS'],
    ]);
    expect(keys.find((k) => k.id === made.id)).toEqual({
      id: made.id,
      name: 'mobile app',
      scope: 'read',
      source: 'api',
      createdAt: made.createdAt,
      expiresAt: '2999-01-01T00:00:00.000Z',
      // Used a moment ago: this node's last uses are shown before they are written.
      lastUsedAt: expect.any(String) as string,
      revokedAt: null,
    });
  });

  it('revokes a key: the next request with it is refused, whatever the refresh interval', async () => {
    const made = ((await create({ name: 'to revoke', scope: 'admin' }).expect(201)).body as { data: CreatedKey }).data;
    const auth = { Authorization: `Bearer ${made.key}` };
    await request(t.app).get('/api/keys').set(auth).expect(200);
    const res = await request(t.app).delete(`/api/keys/${made.id}`).set(admin).expect(200);
    conforms('/api/keys/{id}', 'delete', res);
    expect((res.body as { data: ListedKey }).data).toMatchObject({ id: made.id, revokedAt: expect.any(String) as string });
    const refused = await request(t.app).get('/api/audio/search?track=Money').set(auth).expect(401);
    expect((refused.body as ErrorBody).error).toEqual({ code: 'UNAUTHENTICATED', message: 'unknown or revoked API key' });
    // Revoking again changes nothing.
    const again = await request(t.app).delete(`/api/keys/${made.id}`).set(admin).expect(200);
    expect((again.body as { data: ListedKey }).data.revokedAt).toBe((res.body as { data: ListedKey }).data.revokedAt);
  });

  it('refuses a key past its expiry with 401 saying it expired', async () => {
    const expiresAt = new Date(Date.now() + 1000).toISOString();
    const made = ((await create({ name: 'short-lived', expiresAt }).expect(201)).body as { data: CreatedKey }).data;
    const auth = { Authorization: `Bearer ${made.key}` };
    await request(t.app).get('/api/audio/search?track=Money').set(auth).expect(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 10));
    const res = await request(t.app).get('/api/audio/search?track=Money').set(auth).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((res.body as ErrorBody).error).toEqual({ code: 'UNAUTHENTICATED', message: `this API key expired at ${expiresAt}; ask an admin for a new one` });
  });

  it.each([
    ['POST', () => create({ name: 'x' }, t.auth)],
    ['GET', () => request(t.app).get('/api/keys').set(t.auth)],
    ['DELETE', () => request(t.app).delete('/api/keys/env:1').set(t.auth)],
  ])('answers a read key 403 FORBIDDEN on %s /api/keys', async (_method, send) => {
    const res = await send().expect(403);
    expect((res.body as ErrorBody).error).toEqual({ code: 'FORBIDDEN', message: expect.stringMatching(/needs an admin key; this key's scope is read$/) as string });
  });

  it('answers 401 before 403: without a key nothing is said of scopes', async () => {
    await request(t.app).get('/api/keys').expect(401);
  });

  it('refuses to revoke a key of the configuration (400) or an unknown id (404)', async () => {
    const env = await request(t.app).delete('/api/keys/env:1').set(admin).expect(400);
    conforms('/api/keys/{id}', 'delete', env);
    expect((env.body as ErrorBody).error.message).toBe('key env:1 is set in API_KEYS; remove it from that variable and restart to revoke it');
    const unknown = await request(t.app).delete('/api/keys/nope').set(admin).expect(404);
    conforms('/api/keys/{id}', 'delete', unknown);
    expect((unknown.body as ErrorBody).error).toEqual({ code: 'NOT_FOUND', message: 'no API key has id nope' });
    await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
  });

  it.each([
    ['no body', undefined, /must be a JSON object/],
    ['a body that is not JSON', '{name', /not valid JSON/],
    ['an array', [], /must be a JSON object/],
    ['no name', {}, /^name is required$/],
    ['an empty name', { name: '  ' }, /^name must not be empty$/],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, /at most 100 characters/],
    ['an unknown scope', { name: 'x', scope: 'root' }, /^scope must be read or admin$/],
    ['an expiry that is not a date', { name: 'x', expiresAt: 'tomorrow' }, /^expiresAt must be a date/],
    ['an expiry in the past', { name: 'x', expiresAt: '2001-01-01' }, /^expiresAt must be in the future$/],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_case, body, message) => {
    let req = request(t.app).post('/api/keys').set(admin);
    if (typeof body === 'string') req = req.set('Content-Type', 'application/json');
    const res = await (body === undefined ? req : req.send(body)).expect(400);
    expect((res.body as ErrorBody).error.code).toBe('INVALID_ARGUMENT');
    expect((res.body as ErrorBody).error.message).toMatch(message);
  });

  it('allows DELETE to a browser app on an allowed origin (CORS preflight)', async () => {
    const cors = await createTestApp({ engine: new FakeEngine(), env: { CORS_ORIGINS: 'https://app.example.com' } });
    try {
      const res = await request(cors.app)
        .options('/api/keys/abc')
        .set('Origin', 'https://app.example.com')
        .set('Access-Control-Request-Method', 'DELETE')
        .set('Access-Control-Request-Headers', 'Authorization')
        .expect(204);
      expect(res.headers['access-control-allow-methods']).toMatch(/DELETE/);
    } finally {
      await cors.close();
    }
  });

  describe('GET /api/usage', () => {
    let reader: { key: string; id: string };

    beforeAll(async () => {
      const made = ((await create({ name: 'usage reader' }).expect(201)).body as { data: CreatedKey }).data;
      reader = { key: made.key, id: made.id };
    });

    const usage = async (auth: Record<string, string>, query = '') => {
      const res = await request(t.app).get(`/api/usage${query}`).set(auth).expect(200);
      conforms('/api/usage', 'get', res);
      return (res.body as { data: { keyId: string; name: string; day: string; requests: number; analyses: number }[] }).data;
    };

    it('counts each request a key makes, and the analyses its requests needed, per UTC day', async () => {
      const auth = { Authorization: `Bearer ${reader.key}` };
      const money = trackKey('Pink Floyd', 'Money');
      await request(t.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(auth).expect(200);
      // The first needs an analysis; the second finds it stored.
      await request(t.app).get(`/api/audio/analysis/${money}`).set(auth).expect(200);
      await request(t.app).get(`/api/audio/analysis/${money}`).set(auth).expect(200);
      const today = new Date().toISOString().slice(0, 10);
      // Counted in memory and shown before the flush, the usage request itself included…
      expect(await usage(auth)).toEqual([{ keyId: reader.id, name: 'usage reader', day: today, requests: 4, analyses: 1, uploads: 0, uploadBytes: 0 }]);
      // …and the same once written.
      await t.container.flush();
      expect(await usage(auth, '?days=1')).toEqual([{ keyId: reader.id, name: 'usage reader', day: today, requests: 5, analyses: 1, uploads: 0, uploadBytes: 0 }]);
      const stored = await t.container.database.db.selectFrom('api_key_usage').selectAll().where('key_id', '=', reader.id).execute();
      // The store has the four flushed; the fifth waits in memory for the next flush.
      expect(stored.map((r) => [r.day, Number(r.requests), Number(r.analyses)])).toEqual([[today, 4, 1]]);
    });

    it('shows an admin every key’s rows and a read key its own', async () => {
      await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
      const all = await usage(admin);
      expect(all.map((r) => r.keyId)).toEqual(expect.arrayContaining(['env:1', 'env-admin:1', reader.id]));
      expect((await usage(t.auth)).map((r) => r.keyId)).toEqual(['env:1']);
    });

    it.each(['0', '367', '2.5', 'x'])('refuses days=%s with 400 INVALID_ARGUMENT', async (days) => {
      const res = await request(t.app).get(`/api/usage?days=${days}`).set(admin).expect(400);
      conforms('/api/usage', 'get', res);
      expect((res.body as ErrorBody).error.message).toMatch(/days must be/);
    });
  });
});
