import { ApolloServer } from '@apollo/server';
import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedAnalyses, storedAnalysis } from './graphql.helpers';

const ANALYSIS = 'query($k: String!) { analysis(trackKey: $k) { trackKey tempo keyString mood { happy } } }';

/** POSTs a body exactly as given (the edge cache keys by the bytes). */
function postRaw(t: TestApp, body: string, headers: Record<string, string> = {}) {
  return request(t.app).post('/graphql').set(t.auth).set('Content-Type', 'application/json').set(headers).send(body);
}

describe('GraphQL edge cache: byte-identical repeats of complete, immutable answers', () => {
  let t: TestApp;
  let keys: string[];
  let execute: jest.SpyInstance;

  beforeEach(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { RATE_LIMIT: '1000', RATE_LIMIT_GRAPHQL_COST: '1' } });
    keys = await seedAnalyses(t, 2);
    execute = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('answers a repeat without Apollo, byte for byte, and still charges the rate limit every time', async () => {
    const body = JSON.stringify({ query: ANALYSIS, variables: { k: keys[0] } });
    const first = await postRaw(t, body).expect(200);
    const second = await postRaw(t, body).expect(200);
    const third = await postRaw(t, body).expect(200);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(JSON.parse(first.text).data.analysis.trackKey).toBe(keys[0]);
    const remaining = [first, second, third].map((r) => Number(r.headers['ratelimit-remaining']));
    const spent = 1000 - remaining[0]!;
    expect(spent).toBeGreaterThan(1);
    expect(remaining).toEqual([1000 - spent, 1000 - 2 * spent, 1000 - 3 * spent]);
    // The key check runs before the cache.
    await postRaw(t, body, { Authorization: 'Bearer wrong-key-0123456789' }).expect(401);
  });

  it('keys by the exact bytes and the Accept header: anything else goes through Apollo, with its own content type', async () => {
    const body = JSON.stringify({ query: ANALYSIS, variables: { k: keys[1] } });
    const json = await postRaw(t, body).expect(200);
    const spaced = await postRaw(t, body.replace('{ analysis', '{  analysis')).expect(200);
    expect(spaced.text).toBe(json.text);
    const accept = { Accept: 'application/graphql-response+json' };
    const typed = await postRaw(t, body, accept).expect(200);
    expect(typed.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect(execute).toHaveBeenCalledTimes(3);
    // Each of the three is a repeat now.
    expect((await postRaw(t, body, accept).expect(200)).headers['content-type']).toBe(typed.headers['content-type']);
    expect((await postRaw(t, body).expect(200)).headers['content-type']).toBe(json.headers['content-type']);
    await postRaw(t, body.replace('{ analysis', '{  analysis')).expect(200);
    expect(execute).toHaveBeenCalledTimes(3);
  });

  it('keeps no answer with an error, a missing analysis or a changing field', async () => {
    const later = storedAnalysis('Seed Artist', 'Later');
    const missing = JSON.stringify({ query: ANALYSIS, variables: { k: later.trackKey } });
    expect(JSON.parse((await postRaw(t, missing)).text).errors[0].extensions.code).toBe('TRACK_NOT_FOUND');
    await t.container.store.save(later);
    const found = await postRaw(t, missing).expect(200);
    expect(JSON.parse(found.text).data.analysis.trackKey).toBe(later.trackKey);

    const status = JSON.stringify({ query: `{ analysisStatus(trackKey: "${keys[0]}") { status } }` });
    await postRaw(t, status).expect(200);
    await postRaw(t, status).expect(200);
    expect(execute).toHaveBeenCalledTimes(4);
  });
});

describe('GraphQL edge cache and the rate limit', () => {
  let t: TestApp;
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('when a repeat runs out of budget, it gets the 429 Apollo gives, charged once', async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { RATE_LIMIT: '1000', RATE_LIMIT_GRAPHQL_COST: '1' } });
    const [key] = await seedAnalyses(t, 1);
    const body = JSON.stringify({ query: ANALYSIS, variables: { k: key } });
    const first = await postRaw(t, body).expect(200);
    const spent = 1000 - Number(first.headers['ratelimit-remaining']);
    await t.close();

    // A budget of two answers: the first through Apollo, the second from the edge, the third refused.
    t = await createTestApp({ engine: new FakeEngine(), env: { RATE_LIMIT: String(2 * spent), RATE_LIMIT_GRAPHQL_COST: '1' } });
    await seedAnalyses(t, 1);
    await postRaw(t, body).expect(200);
    const execute = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
    const second = await postRaw(t, body).expect(200);
    expect(second.headers['ratelimit-remaining']).toBe('0');
    expect(execute).not.toHaveBeenCalled();

    const consume = jest.spyOn(t.container.rateLimiter, 'consume');
    const refused = await postRaw(t, body).expect(429);
    expect(consume).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0]).toEqual({
      message: expect.stringMatching(new RegExp(`rate limit of ${2 * spent} requests per minute`)),
      extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
