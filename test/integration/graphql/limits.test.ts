import express from 'express';
import { getIntrospectionQuery } from 'graphql';
import { pino } from 'pino';
import request from 'supertest';
import type { Config } from '../../../src/config';
import { createGraphQL } from '../../../src/http/graphql/apollo.server';
import { createContext } from '../../../src/http/graphql/graphql.context';
import type { DocumentLimits } from '../../../src/http/graphql/graphql.limits';
import { requestLogger } from '../../../src/http/request-logger';
import { AnalysesDocument, AnalysisStatusDocument, TooDeepDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { ATTACKS, fanOut } from '../../../measure/http/graphql-documents';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError, post, seedAnalyses } from './graphql.helpers';

function limitsOf(config: Config): DocumentLimits & { maxBatch: number } {
  return {
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxSelections: config.GRAPHQL_MAX_SELECTIONS,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
    maxBatch: config.GRAPHQL_MAX_BATCH,
  };
}

describe('GraphQL documents that expand (default limits)', () => {
  let t: TestApp;
  let app: express.Express;
  let stop: () => Promise<void>;
  /** Requests Apollo's pipeline started: a document refused by the limits never reaches it. */
  let started = 0;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
    const edge = await createGraphQL(
      { search: t.container.search, analysis: t.container.analysis, apiKeys: t.container.apiKeys },
      {
        sandbox: false,
        limits: limitsOf(t.container.config),
        maxCost: t.container.config.GRAPHQL_MAX_COST,
        plugins: [{ requestDidStart: async () => void started++ }],
      },
      pino({ level: 'silent' }),
    );
    app = express();
    app.use(requestLogger(pino({ level: 'silent' })));
    app.use('/graphql', edge.handler);
    stop = () => edge.stop();
  });
  afterAll(async () => {
    await stop();
    await t.close();
  });

  it.each(Object.entries(ATTACKS))('refuses %s with 400 GRAPHQL_VALIDATION_FAILED, before Apollo parses or validates it', async (_name, query) => {
    const before = started;
    const res = await request(app).post('/graphql').set(t.auth).send({ query });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.errors).toHaveLength(1);
    const [limit] = Object.keys(res.body.errors[0].extensions).filter((k) => k !== 'code');
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', [limit!]: expect.any(Number) });
    expect(started).toBe(before);
  });

  it('refuses the same way in a GET query and answers the type the client prefers', async () => {
    const res = await request(app)
      .get('/graphql')
      .query({ query: fanOut(10) })
      .set(t.auth)
      .set('Accept', 'application/graphql-response+json, application/json;q=0.9');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect(JSON.parse(res.text).errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', maxSelections: 1000 });
  });

  it('lets a document within the limits through to Apollo, which answers it', async () => {
    const before = started;
    const res = await request(app).post('/graphql').set(t.auth).send({ query: fanOut(2, 8) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ trackKey: expect.any(String) });
    expect(started).toBe(before + 1);
  });

  it('keeps introspection: the full standard query is answered', async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const res = await request(app).post('/graphql').set(t.auth).send({ query });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType).toMatchObject({ name: 'Query' });
  });
});

describe('GraphQL depth limit (GRAPHQL_MAX_DEPTH=3)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { GRAPHQL_MAX_DEPTH: '3' } });
    key = (await seedAnalyses(t, 1))[0]!;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('refuses a document nested 4 deep before running it, saying why', async () => {
    const getMany = jest.spyOn(t.container.store, 'getMany');
    const get = jest.spyOn(t.container.store, 'get');
    const res = await graphql(t, TooDeepDocument, { trackKey: key });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(onlyError(res)).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', message: expect.stringMatching(/more than 3 levels deep/) });
    expect(getMany).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
  });

  it('counts fields reached through fragments', async () => {
    const query = `query Deep($k: String!) { analysisStatus(trackKey: $k) { ...S } }
      fragment S on AnalysisStatus { analysis { ... on TrackAnalysis { mood { happy } } } }`;
    const res = await post(t, { query, variables: { k: key } });
    expect(onlyError(res).code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses fragments that spread each other without looping forever', async () => {
    const query = `{ analysisStatus(trackKey: "${'0'.repeat(16)}") { ...A } }
      fragment A on AnalysisStatus { status ...B }
      fragment B on AnalysisStatus { trackKey ...A }`;
    const res = await post(t, { query });
    expect(res.status).toBe(400);
    expect(res.body.errors!.map((e) => e.extensions?.code)).toContain('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers a document exactly 3 deep', async () => {
    const res = await graphql(t, AnalysisStatusDocument, { trackKey: key });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.analysisStatus.status).toBe('DONE');
  });

  it('does not count introspection, which Sandbox and code generators need', async () => {
    const res = await post(t, { query: getIntrospectionQuery() });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toHaveProperty('__schema');
  });
});

describe('GraphQL cost limit', () => {
  it('with the defaults, answers 100 full analyses but refuses four lists of 100 at once, before reading anything', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    try {
      const keys = await seedAnalyses(t, 100);
      expect((await graphql(t, AnalysesDocument, { trackKeys: keys })).body.data!.analyses).toHaveLength(100);

      const getMany = jest.spyOn(t.container.store, 'getMany');
      const fields = 'trackKey tempo key mode energy valence mood { happy sad relaxed aggressive } meta { artist track }';
      const list = JSON.stringify(keys);
      const query = `{ ${['a', 'b', 'c', 'd'].map((alias) => `${alias}: analyses(trackKeys: ${list}) { ${fields} }`).join(' ')} }`;
      const res = await post(t, { query });
      expect(res.status).toBe(400);
      expect(onlyError(res)).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', message: expect.stringMatching(/costs \d+, more than the 5000 allowed/) });
      expect(res.body.errors![0]!.extensions).toMatchObject({ maxCost: 5000, cost: expect.any(Number) });
      expect(getMany).not.toHaveBeenCalled();
    } finally {
      await t.close();
    }
  });

  it('prices lists by the keys in the variables (GRAPHQL_MAX_COST=100)', async () => {
    const t = await createTestApp({ engine: new FakeEngine(), env: { GRAPHQL_MAX_COST: '100' } });
    try {
      const keys = await seedAnalyses(t, 5);
      expect((await graphql(t, AnalysesDocument, { trackKeys: keys.slice(0, 3) })).body.errors).toBeUndefined();
      const res = await graphql(t, AnalysesDocument, { trackKeys: keys });
      expect(onlyError(res).code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.body.errors![0]!.extensions!.cost).toBeGreaterThan(100);
    } finally {
      await t.close();
    }
  });

  it('hands each operation’s cost to the plugins after it (rate limits count by it)', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    const seen: (number | undefined)[] = [];
    const edge = await createGraphQL(
      { search: t.container.search, analysis: t.container.analysis, apiKeys: t.container.apiKeys },
      {
        sandbox: false,
        limits: { maxTokens: 3000, maxDepth: 12, maxSelections: 1000, maxAliases: 100, maxDirectives: 50, maxBatch: 10 },
        maxCost: 5000,
        plugins: [{ requestDidStart: async () => ({ didResolveOperation: async ({ contextValue }) => void seen.push(contextValue.cost) }) }],
      },
      pino({ level: 'silent' }),
    );
    try {
      const keys = await seedAnalyses(t, 4);
      for (const trackKeys of [keys.slice(0, 2), keys]) {
        const contextValue = createContext({ principal: { id: 'env:1', name: 'test', scope: 'read', expiresAt: null }, analysis: t.container.analysis, resolvers: edge.resolvers, log: pino({ level: 'silent' }) });
        await edge.server.executeOperation({ query: AnalysesDocument, variables: { trackKeys } }, { contextValue });
      }
      const [two, four] = seen;
      expect(two).toBeGreaterThan(0);
      // One for the list field, then each key's selection.
      expect(four! - 1).toBe(2 * (two! - 1));
    } finally {
      await edge.stop();
      await t.close();
    }
  });
});
