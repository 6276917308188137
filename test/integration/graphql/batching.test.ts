import { trackKey } from '../../../src/core/track-key';
import { AnalysesDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, post, seedAnalyses, storedAnalysis } from './graphql.helpers';

/** A document asking for each key through its own aliased `analysis` field. */
const aliased = (keys: readonly string[]): string =>
  `{ ${keys.map((k, i) => `t${i}: analysis(trackKey: "${k}") { trackKey tempo mood { happy } }`).join(' ')} }`;

describe('GraphQL analysis batching', () => {
  let t: TestApp;
  let keys: string[];
  let getMany: jest.SpyInstance;
  let get: jest.SpyInstance;

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
    keys = await seedAnalyses(t, 50);
  });
  afterAll(() => t.close());

  beforeEach(() => {
    getMany = jest.spyOn(t.container.store, 'getMany');
    get = jest.spyOn(t.container.store, 'get');
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads 50 aliased analysis fields with one store read', async () => {
    const res = await post<Record<string, { trackKey: string }>>(t, { query: aliased(keys) });
    expect(res.body.errors).toBeUndefined();
    expect(keys.map((_, i) => res.body.data![`t${i}`]!.trackKey)).toEqual(keys);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(getMany.mock.calls[0]![0]).toHaveLength(50);
    expect(get).not.toHaveBeenCalled();
  });

  it('reads analyses of 50 keys with one store read', async () => {
    const res = await graphql(t, AnalysesDocument, { trackKeys: keys });
    expect(res.body.data!.analyses.map((a) => a!.trackKey)).toEqual(keys);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(get).not.toHaveBeenCalled();
  });

  it('reads aliases and analyses of one document together, each key once', async () => {
    const query = `{ list: analyses(trackKeys: ${JSON.stringify(keys.slice(0, 30))}) { trackKey } ${aliased(keys.slice(20)).slice(1, -1)} }`;
    const res = await post(t, { query });
    expect(res.body.errors).toBeUndefined();
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(new Set(getMany.mock.calls[0]![0]).size).toBe(50);
    expect(getMany.mock.calls[0]![0]).toHaveLength(50);
  });

  it('sends only the keys the store lacks on to the service, which answers TRACK_NOT_FOUND for them', async () => {
    const missing = trackKey('Nobody', 'Nothing');
    const res = await post<Record<string, { trackKey: string } | null>>(t, { query: aliased([keys[0]!, missing, keys[1]!]) });
    expect(res.body.data).toEqual({ t0: expect.objectContaining({ trackKey: keys[0] }), t1: null, t2: expect.objectContaining({ trackKey: keys[1] }) });
    expect(res.body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([[['t1'], 'TRACK_NOT_FOUND']]);
    expect(getMany).toHaveBeenCalledTimes(1);
    // The service's own path for the miss: one lookup of the one missing key.
    expect(get.mock.calls).toEqual([[missing]]);
  });

  it('keeps no loader between requests: a second request for the same keys reads the store again', async () => {
    // Another order, so that the second request is not the first one's document and variables again.
    await graphql(t, AnalysesDocument, { trackKeys: [keys[0]!, keys[1]!] });
    await graphql(t, AnalysesDocument, { trackKeys: [keys[1]!, keys[0]!] });
    expect(getMany).toHaveBeenCalledTimes(2);
  });

  it('sees, in a later request, an analysis stored after an earlier one', async () => {
    const late = storedAnalysis('Seed Artist', 'Late');
    expect((await graphql(t, AnalysesDocument, { trackKeys: [late.trackKey] })).body.data!.analyses).toEqual([null]);
    await t.container.store.save(late);
    expect((await graphql(t, AnalysesDocument, { trackKeys: [late.trackKey] })).body.data!.analyses[0]!.trackKey).toBe(late.trackKey);
  });
});
