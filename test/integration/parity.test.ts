import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../src/core/track-key';
import { AnalysisDocument, SearchDocument } from '../generated/graphql';
import { FakeEngine } from '../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { graphql, storedAnalysis, type GraphQLResponse } from './graphql/graphql.helpers';

/*
 * The same questions over REST and GraphQL get the same answers: one service layer, two thin
 * edges. GraphQL writes an absent optional field as null where REST omits it.
 */

const withoutNulls = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Partial<T>;

/** REST's {code, message} of a failed answer. */
const restError = (res: request.Response): { code: string; message: string } => res.body.error;

/** GraphQL's {code, message} of its one error. */
function graphqlError(res: GraphQLResponse<unknown>): { code: unknown; message: string } {
  expect(res.body.errors).toHaveLength(1);
  const e = res.body.errors![0]!;
  return { code: e.extensions?.code, message: e.message };
}

/** A key nothing in these tests searches or stores, so its hints are checked. */
const NOBODY = trackKey('Nobody', 'Nothing');

describe('REST and GraphQL parity', () => {
  let t: TestApp;
  const engine = new FakeEngine();

  beforeAll(async () => {
    engine.tags.set('money.mp3', { artist: 'Pink Floyd', title: 'Money', picture: { mime: 'image/png', data: new Uint8Array([1]) } });
    engine.tags.set('cymbaline.ogg', { artist: 'Pink Floyd', title: 'Cymbaline' });
    engine.tags.set('halo.flac', { artist: 'Beyoncé', title: 'Halo' });
    t = await createTestApp({
      engine,
      prepareLibrary: async (dir) => {
        for (const file of engine.tags.keys()) await writeFile(path.join(dir, file), `audio of ${file}`);
      },
    });
  });
  afterAll(() => t.close());

  const rest = (url: string, headers: Record<string, string> = t.auth) => request(t.app).get(url).set(headers);

  it.each([
    ['track and artist', 'track=Money&artist=Pink+Floyd', { track: 'Money', artist: 'Pink Floyd' }],
    ['a track alone', 'track=Halo', { track: 'Halo' }],
    ['a limit', 'track=Money&artist=Pink+Floyd&limit=1', { track: 'Money', artist: 'Pink Floyd', limit: 1 }],
    ['a Unicode artist', 'track=Halo&artist=Beyonc%C3%A9', { track: 'Halo', artist: 'Beyoncé' }],
  ])('search by %s answers the same results', async (_case, query, variables) => {
    const overRest = await rest(`/api/audio/search?${query}`).expect(200);
    const overGraphql = await graphql(t, SearchDocument, variables);
    expect(overRest.body.data.length).toBeGreaterThan(0);
    expect(overGraphql.body.data!.search.map(withoutNulls)).toEqual(overRest.body.data);
  });

  it('the analysis of a stored key is the same object', async () => {
    const stored = storedAnalysis('Pink Floyd', 'Cymbaline');
    await t.container.store.save(stored);
    const overRest = await rest(`/api/audio/analysis/${stored.trackKey}`).expect(200);
    const overGraphql = await graphql(t, AnalysisDocument, { trackKey: stored.trackKey });
    expect(overGraphql.body.data!.analysis).toEqual(overRest.body.data);
  });

  it('an analysis computed on request (after a search) is the same object', async () => {
    await rest('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const overGraphql = await graphql(t, AnalysisDocument, { trackKey: 'bc24aaa5a97c70ed' });
    const overRest = await rest('/api/audio/analysis/bc24aaa5a97c70ed').expect(200);
    expect(overGraphql.body.data!.analysis).toEqual(overRest.body.data);
  });

  it.each([
    ['an unknown key', '/api/audio/analysis/0123456789abcdef', { trackKey: '0123456789abcdef' }, 404, 'TRACK_NOT_FOUND'],
    ['a key that is not 16 hex', '/api/audio/analysis/money', { trackKey: 'money' }, 400, 'INVALID_ARGUMENT'],
    [
      'artist and track that do not hash to the key',
      `/api/audio/analysis/${NOBODY}?artist=Pink+Floyd&track=Money`,
      { trackKey: NOBODY, artist: 'Pink Floyd', track: 'Money' },
      400,
      'INVALID_ARGUMENT',
    ],
  ])('analysis of %s fails with the same code and message', async (_case, url, variables, status, code) => {
    const overRest = await rest(url).expect(status);
    const overGraphql = await graphql(t, AnalysisDocument, variables);
    expect(restError(overRest).code).toBe(code);
    expect(graphqlError(overGraphql)).toEqual(restError(overRest));
  });

  it.each([
    ['a limit over 50', 'track=Money&limit=51', { track: 'Money', limit: 51 }],
    ['a limit under 1', 'track=Money&limit=0', { track: 'Money', limit: 0 }],
    ['an over-long track', `track=${'x'.repeat(301)}`, { track: 'x'.repeat(301) }],
    ['an empty track', 'track=', { track: '' }],
  ])('search with %s fails with the same code and message', async (_case, query, variables) => {
    const overRest = await rest(`/api/audio/search?${query}`).expect(400);
    const overGraphql = await graphql(t, SearchDocument, variables);
    expect(restError(overRest).code).toBe('INVALID_ARGUMENT');
    expect(graphqlError(overGraphql)).toEqual(restError(overRest));
  });

  it.each([
    ['no key', {}],
    ['a malformed header', { Authorization: 'Token abc' }],
    ['an unknown key', { Authorization: 'Bearer wrong-key' }],
  ])('a request with %s is refused with 401, WWW-Authenticate and the same code and message', async (_case, headers) => {
    const overRest = await rest('/api/audio/search?track=Money', headers).expect(401);
    const overGraphql = await graphql(t, SearchDocument, { track: 'Money' }, headers);
    expect(overGraphql.status).toBe(401);
    expect(overGraphql.headers['www-authenticate']).toBe(overRest.headers['www-authenticate']);
    expect(graphqlError(overGraphql)).toEqual(restError(overRest));
  });
});
