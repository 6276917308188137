import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { pino } from 'pino';
import request from 'supertest';
import { knownOperationTypesRule } from '../../../src/http/graphql/graphql.operations';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const KEY_QUERY = '{ trackKey(artist: "Pink Floyd", track: "Money") }';

/** Requests a careless client sends, each answered 4xx with a GraphQL error code (GraphQL over HTTP). */
describe('GraphQL client mistakes', () => {
  let t: TestApp;
  const logged: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    t = await createTestApp({ engine: new FakeEngine(), logger });
  });
  afterAll(() => t.close());

  const postBody = (body: unknown) => request(t.app).post('/graphql').set(t.auth).send(body as object);

  it.each([
    ['an unknown operationName', 'OPERATION_RESOLUTION_FAILURE', { query: 'query A { __typename }', operationName: 'B' }, /Unknown operation named "B"/],
    ['an operationName for an anonymous operation', 'OPERATION_RESOLUTION_FAILURE', { query: KEY_QUERY, operationName: 'B' }, /Unknown operation named "B"/],
    ['two operations and no operationName', 'OPERATION_RESOLUTION_FAILURE', { query: 'query A { __typename } query B { __typename }' }, /Must provide operation name/],
    ['a mutation of a query field', 'GRAPHQL_VALIDATION_FAILED', { query: 'mutation { trackKey(artist: "a", track: "b") }' }, /Cannot query field "trackKey" on type "Mutation"/],
    ['a subscription (served over WebSocket only)', 'BAD_REQUEST', { query: 'subscription { analysisCompleted(trackKeys: ["bc24aaa5a97c70ed"]) { trackKey } }' }, /over WebSocket \(graphql-ws\) at \/graphql/],
    ['no query', 'BAD_REQUEST', { variables: {} }, /non-empty `query`/],
    ['a query that is not a string', 'BAD_REQUEST', { query: 5 }, /must be strings/],
    ['variables as a JSON string', 'BAD_REQUEST', { query: KEY_QUERY, variables: '{}' }, /`variables`/],
    ['variables as an array', 'BAD_REQUEST', { query: KEY_QUERY, variables: [1] }, /`variables`/],
    ['an operationName that is not a string', 'BAD_REQUEST', { query: KEY_QUERY, operationName: 3 }, /`operationName`/],
    ['an empty batch', 'BAD_REQUEST', [], /at least one operation/],
    ['a batch of more operations than GRAPHQL_MAX_BATCH (10)', 'BAD_REQUEST', Array.from({ length: 11 }, () => ({ query: KEY_QUERY })), /at most 10 operations/],
    ['a variable of the wrong type', 'BAD_USER_INPUT', { query: 'query($k: String!) { analysisStatus(trackKey: $k) { status } }', variables: { k: 5 } }, /String cannot represent/],
    ['a required variable missing', 'BAD_USER_INPUT', { query: 'query($k: String!) { analysisStatus(trackKey: $k) { status } }' }, /was not provided/],
  ])('when the request has %s, then 400 %s', async (_case, code, body, message) => {
    const res = await postBody(body);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code }) })]);
  });

  it('refuses, on a schema without that root type, a mutation or subscription in validation (knownOperationTypesRule)', () => {
    const schema = buildSchema('type Query { a: Int }');
    for (const operation of ['mutation', 'subscription']) {
      const errors = validate(schema, parse(`${operation} { a }`), [...specifiedRules, knownOperationTypesRule]);
      expect(errors.map((e) => e.message)).toContain(`the ${operation} operation is not supported by this schema`);
    }
  });

  it.each([
    ['an unsupported Content-Encoding', { 'Content-Encoding': 'xyz' }, JSON.stringify({ query: KEY_QUERY }), 'INVALID_ARGUMENT'],
    ['a gzip body that does not inflate', { 'Content-Encoding': 'gzip' }, 'not gzip', 'INVALID_ARGUMENT'],
    ['variables nested 40,000 deep', {}, `{"query":"{ __typename }","variables":{"a":${'['.repeat(40_000)}${']'.repeat(40_000)}}}`, 'BAD_USER_INPUT'],
    ['extensions nested 40,000 deep', {}, `{"query":"{ __typename }","extensions":{"a":${'['.repeat(40_000)}${']'.repeat(40_000)}}}`, 'BAD_REQUEST'],
    ['a persisted-query hash that is not its query’s', {}, JSON.stringify({ query: KEY_QUERY, extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }), 'BAD_REQUEST'],
    ['an unsupported persisted-query version', {}, JSON.stringify({ extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } }), 'BAD_REQUEST'],
  ])('when the request has %s, then 400 with a code', async (_case, headers, body, code) => {
    const res = await request(t.app).post('/graphql').set(t.auth).set('Content-Type', 'application/json').set(headers).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code }) })]);
  });

  it('refuses variables nested too deep in a GET too', async () => {
    const variables = `{"a":${'['.repeat(1000)}${']'.repeat(1000)}}`;
    const res = await request(t.app).get('/graphql').query({ query: '{ __typename }', variables }).set(t.auth).set('apollo-require-preflight', 'true');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it.each([
    ['a query field', 'mutation { trackKey(artist: "a", track: "b") }'],
    ['a mutation', 'mutation { createApiKey(name: "by GET") { key } }'],
  ])('answers a mutation of %s sent by GET 4xx with a code, and runs nothing', async (_case, query) => {
    // An admin key, which may make keys by POST.
    const { key } = await t.container.apiKeys.create({ name: 'admin', scope: 'admin' });
    const res = await request(t.app).get('/graphql').query({ query }).set('Authorization', `Bearer ${key}`).set('apollo-require-preflight', 'true');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].extensions.code).toEqual(expect.any(String));
    expect(res.body.data).toBeUndefined();
    expect((await t.container.apiKeys.list()).map((k) => k.name)).not.toContain('by GET');
  });

  it('logs none of these as an error', () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  });
});
