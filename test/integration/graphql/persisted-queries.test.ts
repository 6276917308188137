import { createHash } from 'node:crypto';
import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { trackKey } from '../../../src/core/track-key';

const QUERY = 'query Key($artist: String!, $track: String!) { trackKey(artist: $artist, track: $track) }';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Apollo's automatic persisted queries, as Apollo Client's persisted-query link and urql's persistedExchange speak them. */
describe('GraphQL persisted queries (APQ)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
  });
  afterAll(() => t.close());

  const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

  it('answers a hash it has not seen PERSISTED_QUERY_NOT_FOUND, keeps the document sent with it, and answers the hash alone after, by POST and GET', async () => {
    const hash = sha256(QUERY);
    const variables = { artist: 'Pink Floyd', track: 'Money' };
    const unknown = await request(t.app).post('/graphql').set(t.auth).send({ variables, extensions: persisted(hash) });
    expect(unknown.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_NOT_FOUND' }) })]);
    expect(unknown.body.data).toBeUndefined();

    const registered = await request(t.app).post('/graphql').set(t.auth).send({ query: QUERY, variables, extensions: persisted(hash) });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ data: { trackKey: trackKey('Pink Floyd', 'Money') } });

    const other = { artist: 'Pink Floyd', track: 'Time' };
    const byHash = await request(t.app).post('/graphql').set(t.auth).send({ variables: other, extensions: persisted(hash) });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual({ data: { trackKey: trackKey('Pink Floyd', 'Time') } });

    const byGet = await request(t.app)
      .get('/graphql')
      .query({ variables: JSON.stringify(variables), extensions: JSON.stringify(persisted(hash)) })
      .set(t.auth)
      .set('apollo-require-preflight', 'true');
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual({ data: { trackKey: trackKey('Pink Floyd', 'Money') } });
  });

  it('refuses a hashed request without a key, as it refuses the document', async () => {
    const hash = sha256(QUERY);
    await request(t.app).post('/graphql').set(t.auth).send({ query: QUERY, variables: { artist: 'a', track: 'b' }, extensions: persisted(hash) });
    const anonymous = await request(t.app).post('/graphql').send({ variables: { artist: 'a', track: 'b' }, extensions: persisted(hash) });
    expect(anonymous.status).toBe(401);
  });
});
