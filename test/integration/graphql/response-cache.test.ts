import { trackKey } from '../../../src/core/track-key';
import { AnalysesDocument, AnalysisDocument, AnalysisStatusDocument, SearchDocument, TrackKeyDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError, post, seedAnalyses, storedAnalysis } from './graphql.helpers';

describe('GraphQL answers of repeated documents', () => {
  let t: TestApp;
  let keys: string[];
  let getMany: jest.SpyInstance;
  let get: jest.SpyInstance;

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
    keys = await seedAnalyses(t, 3);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    getMany = jest.spyOn(t.container.store, 'getMany');
    get = jest.spyOn(t.container.store, 'get');
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers a complete answer again without reading the store, identically', async () => {
    const first = await graphql(t, AnalysesDocument, { trackKeys: keys });
    const second = await graphql(t, AnalysesDocument, { trackKeys: keys });
    expect(second.body).toEqual(first.body);
    expect(getMany).toHaveBeenCalledTimes(1);
  });

  it('shares nothing between different variables', async () => {
    const a = await graphql(t, AnalysisDocument, { trackKey: keys[0]! });
    const b = await graphql(t, AnalysisDocument, { trackKey: keys[1]! });
    expect(a.body.data!.analysis!.trackKey).toBe(keys[0]);
    expect(b.body.data!.analysis!.trackKey).toBe(keys[1]);
    expect(getMany).toHaveBeenCalledTimes(2);
  });

  it('does not keep an answer with a missing analysis: once stored, it is answered', async () => {
    const late = storedAnalysis('Seed Artist', 'Later');
    expect(onlyError(await graphql(t, AnalysisDocument, { trackKey: late.trackKey })).code).toBe('TRACK_NOT_FOUND');
    expect((await graphql(t, AnalysesDocument, { trackKeys: [late.trackKey] })).body.data!.analyses).toEqual([null]);
    await t.container.store.save(late);
    expect((await graphql(t, AnalysisDocument, { trackKey: late.trackKey })).body.data!.analysis!.trackKey).toBe(late.trackKey);
    expect((await graphql(t, AnalysesDocument, { trackKeys: [late.trackKey] })).body.data!.analyses[0]!.trackKey).toBe(late.trackKey);
  });

  it('never keeps answers that change: search and analysisStatus', async () => {
    const search = jest.spyOn(t.container.search, 'searchPage');
    await graphql(t, SearchDocument, { track: 'Anything' });
    await graphql(t, SearchDocument, { track: 'Anything' });
    expect(search).toHaveBeenCalledTimes(2);
    await graphql(t, AnalysisStatusDocument, { trackKey: keys[2]! });
    await graphql(t, AnalysisStatusDocument, { trackKey: keys[2]! });
    expect(getMany.mock.calls.length + get.mock.calls.length).toBe(2);
  });

  it('keeps a document mixing immutable and changing fields out of the cache', async () => {
    const query = `{ analysis(trackKey: "${keys[0]}") { trackKey } analysisStatus(trackKey: "${keys[0]}") { status } }`;
    await post(t, { query });
    await post(t, { query });
    expect(getMany).toHaveBeenCalledTimes(2);
  });

  it('still authenticates and validates a repeated document', async () => {
    await graphql(t, TrackKeyDocument, { artist: 'Pink Floyd', track: 'Money' });
    const again = await graphql(t, TrackKeyDocument, { artist: 'Pink Floyd', track: 'Money' }, { Authorization: 'Bearer wrong' });
    expect(again.status).toBe(401);
    const many = Array.from({ length: 101 }, (_, i) => trackKey('Many', `${i}`));
    expect(onlyError(await graphql(t, AnalysesDocument, { trackKeys: many })).code).toBe('INVALID_ARGUMENT');
    expect(onlyError(await graphql(t, AnalysesDocument, { trackKeys: many })).code).toBe('INVALID_ARGUMENT');
  });
});
