import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { parse, print, validate } from 'graphql';
import request from 'supertest';
import { graphQLSchema } from '../../../src/http/graphql/graphql.schema';
import { DropKeyDocument, KeyUsageDocument, ListKeysDocument, MakeKeyDocument, WhoAmIDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError, post } from '../graphql/graphql.helpers';

const ADMIN_KEY = 'admin-key-0123456789';
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

describe('keys and usage over GraphQL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { ADMIN_API_KEYS: ADMIN_KEY } });
  });
  afterAll(() => t.close());

  it('viewer: any key learns its own id, name, scope and expiry', async () => {
    expect((await graphql(t, WhoAmIDocument, {}, admin)).body.data?.viewer).toEqual({ id: 'env-admin:1', name: 'ADMIN_API_KEYS #1', scope: 'ADMIN', expiresAt: null });
    expect((await graphql(t, WhoAmIDocument)).body.data?.viewer).toEqual({ id: 'env:1', name: 'API_KEYS #1', scope: 'READ', expiresAt: null });
  });

  it('createApiKey, apiKeys, revokeApiKey: an admin key makes a key that works at once and stops working at once when revoked', async () => {
    const made = await graphql(t, MakeKeyDocument, { name: 'dashboard', scope: 'ADMIN', expiresAt: '2999-06-01T12:00:00+02:00' }, admin);
    expect(made.body.errors).toBeUndefined();
    const created = made.body.data!.createApiKey;
    expect(created.key).toMatch(/^tg_[\w-]{40,}$/);
    expect(created.apiKey).toMatchObject({ name: 'dashboard', scope: 'ADMIN', source: 'api', expiresAt: '2999-06-01T10:00:00.000Z', revokedAt: null, lastUsedAt: null });
    const auth = { Authorization: `Bearer ${created.key}` };

    // The new key is an admin key: it sees every key, and itself among them, never a key itself.
    const listed = await graphql(t, ListKeysDocument, {}, auth);
    expect(listed.body.data!.apiKeys.map((k) => k.id)).toEqual(expect.arrayContaining(['env-admin:1', 'env:1', created.apiKey.id]));
    expect(JSON.stringify(listed.body)).not.toContain(created.key);
    expect(listed.body.data!.apiKeys.find((k) => k.id === created.apiKey.id)?.lastUsedAt).toEqual(expect.any(String));

    const revoked = await graphql(t, DropKeyDocument, { id: created.apiKey.id }, admin);
    expect(revoked.body.data!.revokeApiKey).toMatchObject({ id: created.apiKey.id, revokedAt: expect.any(String) as string });
    const refused = await graphql(t, WhoAmIDocument, {}, auth);
    expect(refused.status).toBe(401);
    expect(onlyError(refused)).toMatchObject({ code: 'UNAUTHENTICATED', message: 'unknown or revoked API key' });
  });

  it.each([
    ['apiKeys', () => graphql(t, ListKeysDocument), 'listing keys'],
    ['createApiKey', () => graphql(t, MakeKeyDocument, { name: 'sneaky', scope: 'ADMIN' }), 'creating keys'],
    ['revokeApiKey', () => graphql(t, DropKeyDocument, { id: 'env-admin:1' }), 'revoking keys'],
  ])('%s with a read key: a FORBIDDEN error, nothing done', async (_field, send, what) => {
    const res = await send();
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(onlyError(res)).toEqual({ code: 'FORBIDDEN', message: `${what} needs an admin key; this key's scope is read`, path: [expect.any(String)] });
    expect((await t.container.apiKeys.list()).map((k) => k.name)).not.toContain('sneaky');
  });

  it.each([
    ['an empty name', { name: ' ' }, 'INVALID_ARGUMENT', /name must not be empty/],
    ['an expiry in the past', { name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, 'INVALID_ARGUMENT', /expiresAt must be in the future/],
  ])('createApiKey with %s is refused', async (_case, variables, code, message) => {
    const res = await graphql(t, MakeKeyDocument, variables, admin);
    expect(onlyError(res).code).toBe(code);
    expect(onlyError(res).message).toMatch(message);
  });

  it('createApiKey with an expiry that is not a DateTimeISO, or an unknown scope: 400 BAD_USER_INPUT', async () => {
    for (const variables of [{ name: 'x', expiresAt: 'soon' }, { name: 'x', scope: 'ROOT' }]) {
      const res = await post(t, { query: print(MakeKeyDocument), variables }, admin);
      expect(res.status).toBe(400);
      expect(onlyError(res).code).toBe('BAD_USER_INPUT');
    }
  });

  it('revokeApiKey of a key of the configuration: INVALID_ARGUMENT saying where it is set; of an unknown id: NOT_FOUND', async () => {
    expect(onlyError(await graphql(t, DropKeyDocument, { id: 'env:1' }, admin))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'key env:1 is set in API_KEYS; remove it from that variable and restart to revoke it',
    });
    expect(onlyError(await graphql(t, DropKeyDocument, { id: 'nobody' }, admin)).code).toBe('NOT_FOUND');
  });

  it('usage(days): every key’s rows for an admin, its own for a read key; days outside 1–366 are INVALID_ARGUMENT', async () => {
    await graphql(t, WhoAmIDocument);
    const all = (await graphql(t, KeyUsageDocument, {}, admin)).body.data!.usage;
    expect(all.map((r) => r.keyId)).toEqual(expect.arrayContaining(['env:1', 'env-admin:1']));
    const own = (await graphql(t, KeyUsageDocument, { days: 1 })).body.data!.usage;
    expect(own.map((r) => [r.keyId, r.name, r.day])).toEqual([['env:1', 'API_KEYS #1', new Date().toISOString().slice(0, 10)]]);
    expect(own[0]!.requests).toBeGreaterThan(1);
    expect(onlyError(await graphql(t, KeyUsageDocument, { days: 0 }))).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'days must be a whole number from 1 to 366' });
  });

  it('the dashboard’s documents for keys, usage and the viewer are valid against the schema', async () => {
    const schema = graphQLSchema();
    const root = path.resolve(__dirname, '../../../web/src');
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.graphql')).map((f) => path.join(root, f));
    const texts = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    // The webhook documents wait for the webhook types.
    const admin = texts.filter((text) => /\b(apiKeys|createApiKey|revokeApiKey|usage|viewer)\b/.test(text) && !/webhook/i.test(text));
    expect(admin.length).toBeGreaterThanOrEqual(3);
    for (const text of admin) expect(validate(schema, parse(text)).map((e) => e.message)).toEqual([]);
  });
});

describe('admin answers are never served from the GraphQL caches, and mutations are held to every limit', () => {
  let t: TestApp;
  let execute: jest.SpyInstance;

  beforeEach(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { ADMIN_API_KEYS: ADMIN_KEY, RATE_LIMIT: '3', RATE_LIMIT_GRAPHQL_COST: '1000', GRAPHQL_MAX_ALIASES: '2' } });
    execute = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  const raw = (body: string, auth: Record<string, string>) => request(t.app).post('/graphql').set(auth).set('Content-Type', 'application/json').send(body);

  it('runs a byte-identical mutation every time: each makes its own key', async () => {
    const body = JSON.stringify({ query: 'mutation { createApiKey(name: "twice") { key apiKey { id } } }' });
    const first = await raw(body, admin).expect(200);
    const second = await raw(body, admin).expect(200);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(first.text).not.toBe(second.text);
    expect((await t.container.apiKeys.list()).filter((k) => k.name === 'twice')).toHaveLength(2);
  });

  it('answers a byte-identical viewer and apiKeys query from each key’s own execution', async () => {
    const body = JSON.stringify({ query: '{ viewer { id scope } }' });
    const asAdmin = await raw(body, admin).expect(200);
    const asReader = await raw(body, t.auth).expect(200);
    expect(JSON.parse(asAdmin.text)).toEqual({ data: { viewer: { id: 'env-admin:1', scope: 'ADMIN' } } });
    expect(JSON.parse(asReader.text)).toEqual({ data: { viewer: { id: 'env:1', scope: 'READ' } } });
    const list = JSON.stringify({ query: '{ apiKeys { name } }' });
    const before = (JSON.parse((await raw(list, admin)).text) as { data: { apiKeys: { name: string }[] } }).data.apiKeys;
    await t.container.apiKeys.create({ name: 'new one' });
    const after = (JSON.parse((await raw(list, admin)).text) as { data: { apiKeys: { name: string }[] } }).data.apiKeys;
    expect(after).toHaveLength(before.length + 1);
    expect(execute).toHaveBeenCalledTimes(4);
  });

  it('refuses a mutation over the document limits with 400 before it runs', async () => {
    const res = await raw(JSON.stringify({ query: 'mutation { a: createApiKey(name: "a") { key } b: createApiKey(name: "b") { key } c: createApiKey(name: "c") { key } }' }), admin);
    expect(res.status).toBe(400);
    expect(onlyError({ status: res.status, headers: {}, body: res.body as never }).code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await t.container.apiKeys.list()).map((k) => k.name)).not.toContain('a');
  });

  it('charges mutations to the key’s rate limit: past it, 429 and nothing done', async () => {
    for (let i = 0; i < 3; i++) await raw(JSON.stringify({ query: `mutation { createApiKey(name: "k${i}") { key } }` }), admin).expect(200);
    const refused = await raw(JSON.stringify({ query: 'mutation { createApiKey(name: "one too many") { key } }' }), admin);
    expect(refused.status).toBe(429);
    expect((await t.container.apiKeys.list()).map((k) => k.name)).not.toContain('one too many');
  });
});
