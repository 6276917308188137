import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, TEST_API_KEY, type TestApp } from '../../helpers/test-app';

/*
 * Apollo Client 4, as applications use it, against a listening server: a normalised cache
 * (every entity has an id), and BatchHttpLink sending several operations in one request.
 */

async function library(dir: string): Promise<void> {
  for (const title of ['Money', 'Time', 'Breathe']) await writeFile(path.join(dir, `Pink Floyd - ${title}.mp3`), `bytes of ${title}`);
}

const SEARCH = gql`
  query Search($track: String!) {
    search(track: $track, artist: "Pink Floyd", limit: 1) { id trackKey trackName }
  }
`;
const ANALYSIS = gql`
  query Analysis($key: String!) {
    analysis(trackKey: $key) { id trackKey tempo mood { happy } }
  }
`;
const ANALYSES = gql`
  query Analyses($keys: [String!]!) {
    analyses(trackKeys: $keys) { id trackKey energy }
  }
`;
const NODE = gql`
  query Node($id: ID!) {
    node(id: $id) { id ... on TrackAnalysis { trackName } }
  }
`;
const KEY = gql`
  query Key($track: String!) {
    trackKey(artist: "Pink Floyd", track: $track)
  }
`;

describe('Apollo Client against the server', () => {
  let t: TestApp;
  let uri: string;
  let requests: number;
  /** fetch, counting the HTTP requests a link makes. */
  const counted: typeof fetch = (input, init) => {
    requests++;
    return fetch(input, init);
  };

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), prepareLibrary: library, env: { RATE_LIMIT: '1000' } });
    const { port } = await t.listen();
    uri = `http://127.0.0.1:${port}/graphql`;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    requests = 0;
  });

  const client = (link: ApolloLink) => new ApolloClient({ link, cache: new InMemoryCache() });
  const headers = { Authorization: `Bearer ${TEST_API_KEY}` };

  it('normalises entities by id: a field fetched by one query is read by another from the cache', async () => {
    const apollo = client(new HttpLink({ uri, headers, fetch: counted }));
    const found = await apollo.query({ query: SEARCH, variables: { track: 'Money' } });
    const key = (found.data as { search: { trackKey: string; id: string }[] }).search[0]!.trackKey;
    expect((found.data as { search: { id: string }[] }).search[0]!.id).toBe(`SearchResult:${key}`);

    const analysed = await apollo.query({ query: ANALYSIS, variables: { key } });
    expect((analysed.data as { analysis: { id: string } }).analysis.id).toBe(`TrackAnalysis:${key}`);
    // The batch read of the same track refreshes the same cache entry, one object per id.
    await apollo.query({ query: ANALYSES, variables: { keys: [key] } });
    const cached = apollo.cache.extract() as Record<string, { tempo?: number; energy?: number }>;
    const entry = cached[`TrackAnalysis:TrackAnalysis:${key}`];
    expect(entry?.tempo).toEqual(expect.any(Number));
    expect(entry?.energy).toEqual(expect.any(Number));

    // node(id) refetches it; read again, the cache answers without a request.
    const node = await apollo.query({ query: NODE, variables: { id: `TrackAnalysis:${key}` } });
    expect((node.data as { node: { trackName: string } }).node.trackName).toBe('Money');
    const before = requests;
    await apollo.query({ query: ANALYSIS, variables: { key } });
    expect(requests).toBe(before);
  });

  it('sends what BatchHttpLink batches as one request, each operation answered as if alone', async () => {
    const apollo = client(new BatchHttpLink({ uri, headers, fetch: counted, batchMax: 5, batchInterval: 20 }));
    const titles = ['Money', 'Time', 'Breathe'];
    const answers = await Promise.all(titles.map((track) => apollo.query({ query: KEY, variables: { track } })));
    expect(answers.map((a) => (a.data as { trackKey: string }).trackKey)).toEqual(titles.map((title) => trackKey('Pink Floyd', title)));
    expect(requests).toBe(1);
  });
});

describe('batched requests count against every limit, operation by operation', () => {
  let t: TestApp;
  let uri: string;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { RATE_LIMIT: '4', GRAPHQL_MAX_DEPTH: '3' } });
    const { port } = await t.listen();
    uri = `http://127.0.0.1:${port}/graphql`;
  });
  afterAll(() => t.close());

  const batch = async (operations: { query: string; variables?: Record<string, unknown> }[]) => {
    const res = await fetch(uri, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(operations),
    });
    return { status: res.status, body: (await res.json()) };
  };

  it('refuses a batch holding a document over a limit, before any of it runs', async () => {
    const deep = '{ tracks { edges { node { mood { happy } } } } }';
    const res = await batch([{ query: '{ trackKey(artist: "a", track: "b") }' }, { query: deep }]);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/levels deep/);
  });

  it('charges each operation of a batch to the key: past the limit, the rest are RATE_LIMITED', async () => {
    const ops = Array.from({ length: 6 }, (_, i) => ({ query: `{ trackKey(artist: "a", track: "t${i}") }` }));
    const res = await batch(ops);
    const answers = res.body as { data?: { trackKey: string } | null; errors?: { extensions: { code: string } }[] }[];
    expect(answers).toHaveLength(6);
    const limited = answers.filter((a) => a.errors?.[0]?.extensions.code === 'RATE_LIMITED').length;
    const answered = answers.filter((a) => typeof a.data?.trackKey === 'string').length;
    expect({ answered, limited }).toEqual({ answered: 4, limited: 2 });
  });
});
