import { ApolloServer } from '@apollo/server';
import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedAnalyses } from './graphql.helpers';

const ANALYSIS = 'query($k: String!) { analysis(trackKey: $k) { trackKey tempo } }';

/**
 * A POST body read by the GraphQL edge's own reader (plain `application/json`) and the same bytes
 * read by express.json() (a quoted charset, which only it reads): the answers must not differ.
 */
describe('GraphQL request bodies: the plain-JSON reader answers as express.json() does', () => {
  let t: TestApp;
  let keys: string[];

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { RATE_LIMIT: '1000' } });
    keys = await seedAnalyses(t, 1);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const send = (body: Buffer | string, contentType: string) => request(t.app).post('/graphql').set(t.auth).set('Content-Type', contentType).send(body);

  const bodies: [string, () => Buffer | string][] = [
    ['a query', () => JSON.stringify({ query: ANALYSIS, variables: { k: keys[0] } })],
    ['a query after whitespace', () => `\n  ${JSON.stringify({ query: '{ trackKey(artist: "a", track: "b") }' })}`],
    ['a query after a byte order mark', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ query: '{ trackKey(artist: "a", track: "b") }' }))])],
    ['a batch', () => JSON.stringify([{ query: '{ trackKey(artist: "a", track: "b") }' }, { query: '{ trackKey(artist: "c", track: "d") }' }])],
    ['JSON cut short', () => '{"query": '],
    ['JSON that is a string, not an object', () => '"{ __typename }"'],
    ['JSON that is a number', () => '42'],
    ['an empty body', () => ''],
    ['an object without a query', () => '{"variables": {}}'],
  ];

  it.each(bodies)('%s', async (_name, body) => {
    const plain = await send(body(), 'application/json');
    const parsed = await send(body(), 'application/json; charset="utf-8"');
    expect({ status: plain.status, body: plain.body as unknown }).toEqual({ status: parsed.status, body: parsed.body as unknown });
    expect(plain.status).toBeLessThan(500);
  });

  it('answers a repeat of a plain body from the edge cache without parsing it or running Apollo; a batch is never kept', async () => {
    const body = JSON.stringify({ query: ANALYSIS, variables: { k: keys[0] }, extensions: { marker: 'repeat' } });
    const first = await send(body, 'application/json').expect(200);
    const execute = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
    const parse = jest.spyOn(JSON, 'parse');
    const repeat = await send(body, 'application/json').expect(200);
    expect(repeat.text).toBe(first.text);
    expect(execute).not.toHaveBeenCalled();
    expect(parse.mock.calls.filter(([text]) => text === body)).toEqual([]);
    parse.mockRestore();
    const batch = JSON.stringify([{ query: ANALYSIS, variables: { k: keys[0] } }]);
    await send(batch, 'application/json').expect(200);
    await send(batch, 'application/json').expect(200);
    expect(execute).toHaveBeenCalledTimes(2);
  });
});
