import request from 'supertest';
import { SearchDocument, TrackKeyDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError, post } from './graphql.helpers';

const KEY_QUERY = '{ trackKey(artist: "Pink Floyd", track: "Money") }';

describe('GraphQL authentication', () => {
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
  ])('when the key is %s, then HTTP 401 with WWW-Authenticate: Bearer and a GraphQL-shaped UNAUTHENTICATED error', async (_case, header, message) => {
    const search = jest.spyOn(t.container.search, 'search');
    const res = await graphql(t, SearchDocument, { track: 'Money' }, header ? { Authorization: header } : {});
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toEqual({ errors: [{ message: expect.stringMatching(message) as unknown, extensions: { code: 'UNAUTHENTICATED' } }] });
    expect(search).not.toHaveBeenCalled();
    search.mockRestore();
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('accepts the scheme written %s (scheme names are case-insensitive), on GraphQL and REST', async (scheme) => {
    const auth = { Authorization: `${scheme} ${t.auth.Authorization.slice('Bearer '.length)}` };
    const res = await graphql(t, TrackKeyDocument, { artist: 'Pink Floyd', track: 'Money' }, auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ trackKey: 'bc24aaa5a97c70ed' });
    const rest = await request(t.app).get('/api/audio/search').query({ track: 'Money' }).set(auth);
    expect(rest.status).toBe(200);
  });

  it('accepts more than one space after the scheme, and nothing but spaces and the key', async () => {
    const key = t.auth.Authorization.slice('Bearer '.length);
    expect((await graphql(t, TrackKeyDocument, { artist: 'a', track: 'b' }, { Authorization: `Bearer   ${key}` })).status).toBe(200);
    expect((await graphql(t, TrackKeyDocument, { artist: 'a', track: 'b' }, { Authorization: `Bearerx ${key}` })).status).toBe(401);
    expect((await graphql(t, TrackKeyDocument, { artist: 'a', track: 'b' }, { Authorization: `Bearer ${key} extra` })).status).toBe(401);
  });

  it('answers a 401 as application/graphql-response+json to a client that prefers it (Apollo Client 4), with the code', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Accept', 'application/graphql-response+json,application/json;q=0.9')
      .send({ query: KEY_QUERY });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(res.text)).toEqual({ errors: [{ message: expect.stringMatching(/missing Authorization/) as unknown, extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it.each([
    ['no Accept header', undefined],
    ['application/json', 'application/json'],
    ['*/*', '*/*'],
    ['application/json first', 'application/json, application/graphql-response+json;q=0.5'],
  ])('answers a 401 as application/json to a client sending %s', async (_case, accept) => {
    const req = request(t.app).post('/graphql');
    if (accept) req.set('Accept', accept);
    const res = await req.send({ query: KEY_QUERY });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((res.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('accepts a key created with the key service, and refuses it once revoked', async () => {
    const { key } = await t.container.apiKeys.create({ name: 'graphql-client' });
    const auth = { Authorization: `Bearer ${key}` };
    expect((await graphql(t, TrackKeyDocument, { artist: 'Pink Floyd', track: 'Money' }, auth)).status).toBe(200);
    await t.container.apiKeys.revokeByIdOrName('graphql-client');
    expect((await graphql(t, TrackKeyDocument, { artist: 'Pink Floyd', track: 'Money' }, auth)).status).toBe(401);
  });

  it('serves a browser without a key the landing page, which links to GraphiQL (this server’s) and Apollo Sandbox', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<a href="graphiql">GraphiQL</a>');
    expect(res.text).toContain('<a href="graphql?sandbox">Apollo Sandbox</a>');
    // It loads nothing from anywhere: no script, no remote stylesheet or font.
    expect(res.text).not.toMatch(/<script|https?:\/\//);
  });

  it('serves Apollo Sandbox at /graphql?sandbox to a browser without a key', async () => {
    const res = await request(t.app).get('/graphql?sandbox').set('Accept', 'text/html').expect(200);
    expect(res.text).toMatch(/embeddable-sandbox\.cdn\.apollographql\.com/);
  });

  it('never runs an operation for a browser without a key: a query in the page URL gets the page', async () => {
    const query = '{ trackKey(artist: "Brian Adams", track: "Forgive") }';
    const res = await request(t.app).get('/graphql').query({ query }).set('Accept', 'text/html').set('apollo-require-preflight', 'true');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).not.toContain('43134f5237c98ee9');
  });

  it('refuses a GET query without a CSRF preflight header, and answers it with one', async () => {
    const plain = await request(t.app).get('/graphql').query({ query: KEY_QUERY }).set(t.auth);
    expect(plain.status).toBe(400);
    const preflighted = await request(t.app).get('/graphql').query({ query: KEY_QUERY }).set(t.auth).set('apollo-require-preflight', 'true');
    expect(preflighted.status).toBe(200);
    expect(preflighted.body).toEqual({ data: { trackKey: 'bc24aaa5a97c70ed' } });
  });

  it('when the body is not JSON, then 400 INVALID_ARGUMENT in the GraphQL shape', async () => {
    const res = await request(t.app).post('/graphql').set(t.auth).set('Content-Type', 'application/json').send('{"query": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'the request body is not valid JSON', extensions: { code: 'INVALID_ARGUMENT' } }] });
  });

  it('refuses a body over 100 kB unread, and a document of too many tokens unparsed', async () => {
    const huge = await post(t, { query: `{ trackKey(artist: "${'a'.repeat(120_000)}", track: "b") }` });
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual({ errors: [{ message: 'the request body is too large', extensions: { code: 'INVALID_ARGUMENT' } }] });
    const tokens = await post(t, { query: `{ ${'a '.repeat(3001)}}` });
    expect(tokens.status).toBe(400);
    expect(onlyError(tokens)).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', message: expect.stringMatching(/3000 tokens/) as unknown });
  });

  it('keeps Apollo’s codes for documents GraphQL itself refuses', async () => {
    const parse = await post(t, { query: '{ search(track: ' });
    expect(parse.status).toBe(400);
    expect(onlyError(parse).code).toBe('GRAPHQL_PARSE_FAILED');
    const unknownField = await post(t, { query: '{ search(track: "x") { bpm } }' });
    expect(unknownField.status).toBe(400);
    expect(onlyError(unknownField).code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(unknownField.body)).not.toMatch(/stacktrace/);
  });
});

describe('GraphQL with the Sandbox turned off (GRAPHQL_SANDBOX=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { GRAPHQL_SANDBOX: 'false' } });
  });
  afterAll(() => t.close());

  it('serves a browser the landing page with GraphiQL alone, and no Sandbox even when asked', async () => {
    for (const url of ['/graphql', '/graphql?sandbox']) {
      const res = await request(t.app).get(url).set('Accept', 'text/html').expect(200);
      expect(res.text).toContain('<a href="graphiql">GraphiQL</a>');
      expect(res.text).not.toMatch(/sandbox/i);
    }
  });

  it('asks a client that is not a browser for a key', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'application/json');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });
});
