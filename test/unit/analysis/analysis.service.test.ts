import { AnalysisService } from '../../../src/analysis/analysis.service';
import { checkedTrackKey, isClientTrackKey } from '../../../src/core/track-key';
import { BrowseService } from '../../../src/analysis/browse.service';
import type { AnalysisJobs, JobStatus } from '../../../src/analysis/jobs/jobs';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import type { TracksQuery } from '../../../src/analysis/store/tracks.query';
import { trackKey } from '../../../src/core/track-key';
import type { StoredAnalysis, TrackMetadata } from '../../../src/core/types';
import type { BestEffortCache } from '../../../src/search/keyv-store';
import { MetadataCache } from '../../../src/search/metadata-cache';
import { storedAnalysis as stored } from '../../integration/graphql/graphql.helpers';

const MONEY = trackKey('Pink Floyd', 'Money');

/** Search's metadata cache over a stand-in for its Keyv namespace that answers reads only. */
const cacheOf = (reads: { get(key: string): Promise<TrackMetadata | undefined> }): MetadataCache => new MetadataCache(reads as unknown as BestEffortCache<TrackMetadata>);

/** A store over a map that records every key it is asked for. */
function recordingStore(analyses: StoredAnalysis[]): AnalysisStore & { asked: string[] } {
  const rows = new Map(analyses.map((a) => [a.trackKey, a]));
  const asked: string[] = [];
  return {
    asked,
    async get(key) {
      asked.push(key);
      return rows.get(key);
    },
    async getMany(keys) {
      asked.push(...keys);
      return new Map(keys.flatMap((k) => (rows.has(k) ? [[k, rows.get(k)!] as const] : [])));
    },
    save: async () => true,
    replace: async () => true,
    listOtherEngines: async () => [],
    count: async () => rows.size,
    ping: async () => undefined,
    close: async () => undefined,
  };
}

function service(
  store: AnalysisStore,
  pending: Map<string, JobStatus> = new Map(),
  submit: AnalysisJobs['submit'] = () => Promise.reject(new Error('not in this test')),
): { service: AnalysisService; metadataAsked: string[] } {
  const metadataAsked: string[] = [];
  const metadata = cacheOf({
    get: async (key: string): Promise<TrackMetadata | undefined> => {
      metadataAsked.push(key);
      return undefined;
    },
  });
  const jobs: AnalysisJobs = {
    submit,
    status: async (key) => pending.get(key),
    counts: async () => ({ waiting: 0, active: 0 }),
    ping: async () => undefined,
    close: async () => undefined,
  };
  const resolver = { resolve: async () => undefined };
  return { service: new AnalysisService(store, metadata, resolver, jobs, { waitMs: 1000 }), metadataAsked };
}

describe('analyseTrack: a track whose metadata the caller holds (the index CLI)', () => {
  it('submits it to the jobs and waits for the job past the wait bound of analysis()', async () => {
    const money = stored('Pink Floyd', 'Money');
    const submitted: TrackMetadata[] = [];
    const submit = async (track: TrackMetadata): Promise<StoredAnalysis> => {
      submitted.push(track);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return money;
    };
    const { service: s, metadataAsked } = service(recordingStore([]), new Map(), submit);
    const track: TrackMetadata = { trackKey: MONEY, artist: 'Pink Floyd', trackName: 'Money', source: 'library', audio: { source: 'library', locator: 'Money.mp3' } };
    await expect(s.analyseTrack(track)).resolves.toBe(money);
    expect(submitted).toEqual([track]);
    expect(metadataAsked).toEqual([]);
  });
});

describe('track keys in either case: the analysis service lowercases them once', () => {
  it('analysis() reads the store and the metadata cache under the lowercase key', async () => {
    const store = recordingStore([stored('Pink Floyd', 'Money')]);
    const { service: s, metadataAsked } = service(store);
    const outcome = await s.analysis(MONEY.toUpperCase());
    expect(outcome).toMatchObject({ status: 'done', analysis: { trackKey: MONEY } });

    const other = trackKey('Nobody', 'Nothing');
    await expect(s.analysis(other.toUpperCase())).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
    expect(store.asked).toEqual([MONEY, other]);
    expect(metadataAsked).toEqual([other]);
  });

  it('analysis() checks artist and track against the lowercase key', async () => {
    const { service: s } = service(recordingStore([]));
    // The hint hashes to the key: it is resolved (and the fake resolver finds nothing), not refused.
    await expect(s.analysis(MONEY.toUpperCase(), { artist: 'Pink Floyd', track: 'Money' })).rejects.toMatchObject({
      code: 'TRACK_NOT_FOUND',
      message: 'no source has "Pink Floyd - Money"',
    });
  });

  it('storedMany() answers mixed-case keys positionally from one read of lowercase keys', async () => {
    const store = recordingStore([stored('Pink Floyd', 'Money')]);
    const { service: s } = service(store);
    const absent = trackKey('No', 'One');
    const found = await s.storedMany([MONEY.toUpperCase(), absent, MONEY]);
    expect(found.map((a) => a?.trackKey ?? null)).toEqual([MONEY, null, MONEY]);
    expect(store.asked).toEqual([MONEY, absent, MONEY]);
  });

  it('status() names the key in its lowercase form, known or not', async () => {
    const queued = trackKey('Queued', 'Song');
    const { service: s } = service(recordingStore([]), new Map([[queued, { state: 'queued', queuePosition: 2 }]]));
    expect(await s.status(MONEY.toUpperCase())).toEqual({ trackKey: MONEY, outcome: undefined });
    expect(await s.status(queued.toUpperCase())).toEqual({
      trackKey: queued,
      outcome: { status: 'queued', queuePosition: 2, retryAfterS: 1 },
    });
  });

  it('browse similar() reads the seed under the lowercase key', async () => {
    const store = recordingStore([]);
    const browse = new BrowseService({} as TracksQuery, store);
    await expect(browse.similar(MONEY.toUpperCase())).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
    expect(store.asked).toEqual([MONEY]);
  });

  it('a key that is not 16 hex characters is INVALID_ARGUMENT quoting it lowercased, before any read', async () => {
    const store = recordingStore([]);
    const { service: s } = service(store);
    const message = 'trackKey must be 16 lowercase hexadecimal characters (got "money")';
    await expect(s.analysis('MONEY')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    await expect(s.status('Money')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    await expect(s.storedMany([MONEY, 'MONEY'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    await expect(new BrowseService({} as TracksQuery, store).similar('MONEY')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    expect(store.asked).toEqual([]);
  });

  it('checkedTrackKey and isClientTrackKey agree on what is a key', () => {
    expect(checkedTrackKey('BC24aaa5A97C70ED')).toBe('bc24aaa5a97c70ed');
    expect(isClientTrackKey('BC24aaa5A97C70ED')).toBe(true);
    for (const bad of ['bc24aaa5a97c70e', 'bc24aaa5a97c70edd', 'zz24aaa5a97c70ed', '']) {
      expect(isClientTrackKey(bad)).toBe(false);
      expect(() => checkedTrackKey(bad)).toThrow(/16 lowercase hexadecimal/);
    }
  });
});

describe('request listeners: told who asked for an analysis that has to be computed', () => {
  const track: TrackMetadata = { trackKey: MONEY, artist: 'Pink Floyd', trackName: 'Money', source: 'library', audio: { source: 'library', locator: 'Money.mp3' } };

  function listening(analyses: StoredAnalysis[]): { service: AnalysisService; told: [string, string][] } {
    const told: [string, string][] = [];
    const metadata = cacheOf({ get: async (key: string) => (key === MONEY ? track : undefined) });
    const jobs: AnalysisJobs = {
      submit: async () => stored('Pink Floyd', 'Money'),
      status: async () => undefined,
      counts: async () => ({ waiting: 0, active: 0 }),
      ping: async () => undefined,
      close: async () => undefined,
    };
    const listener = { analysisRequested: (key: string, requester: string) => void told.push([key, requester]) };
    const s = new AnalysisService(recordingStore(analyses), metadata, { resolve: async () => undefined }, jobs, { waitMs: 1000, requestListeners: [listener] });
    return { service: s, told };
  }

  it('a key not stored yet: the listener hears the lowercase key and the requester', async () => {
    const { service: s, told } = listening([]);
    await expect(s.analysis(MONEY.toUpperCase(), undefined, 'key-1')).resolves.toMatchObject({ status: 'done' });
    expect(told).toEqual([[MONEY, 'key-1']]);
  });

  it('a stored key, an unknown key or no requester: nothing is heard', async () => {
    const { service: s, told } = listening([stored('Pink Floyd', 'Money')]);
    await s.analysis(MONEY, undefined, 'key-1');
    const { service: empty, told: emptyTold } = listening([]);
    await expect(empty.analysis('0000000000000000', undefined, 'key-1')).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
    await empty.analysis(MONEY);
    expect(told).toEqual([]);
    expect(emptyTold).toEqual([]);
  });
});

describe("a key search's cache does not hold (expired, unreachable, or another node's lost write)", () => {
  const inLibrary: TrackMetadata = { trackKey: MONEY, artist: 'Pink Floyd', trackName: 'Money', source: 'library', audio: { source: 'library', locator: 'Money.flac' } };

  function withCatalogue(cached: TrackMetadata | undefined): { service: AnalysisService; submitted: TrackMetadata[]; looked: string[] } {
    const submitted: TrackMetadata[] = [];
    const looked: string[] = [];
    const metadata = cacheOf({ get: async (key: string) => (cached && key === cached.trackKey ? cached : undefined) });
    const jobs: AnalysisJobs = {
      submit: async (track) => {
        submitted.push(track);
        return stored(track.artist, track.trackName);
      },
      status: async () => undefined,
      counts: async () => ({ waiting: 0, active: 0 }),
      ping: async () => undefined,
      close: async () => undefined,
    };
    const library = {
      lookup: (key: string) => {
        looked.push(key);
        return key === inLibrary.trackKey ? inLibrary : undefined;
      },
    };
    const s = new AnalysisService(recordingStore([]), metadata, { resolve: async () => undefined }, jobs, { waitMs: 1000, catalogue: [library] });
    return { service: s, submitted, looked };
  }

  it('a source that knows the key itself (the library) supplies the track, and it is analysed', async () => {
    const { service: s, submitted, looked } = withCatalogue(undefined);
    await expect(s.analysis(MONEY.toUpperCase())).resolves.toMatchObject({ status: 'done', analysis: { trackKey: MONEY } });
    expect(submitted).toEqual([inLibrary]);
    expect(looked).toEqual([MONEY]);
  });

  it("search's metadata wins when it is there; the catalogue is not asked", async () => {
    const found: TrackMetadata = { ...inLibrary, source: 'deezer', audio: { source: 'deezer', locator: 'preview' } };
    const { service: s, submitted, looked } = withCatalogue(found);
    await s.analysis(MONEY);
    expect(submitted).toEqual([found]);
    expect(looked).toEqual([]);
  });

  it('a key no source knows is still TRACK_NOT_FOUND', async () => {
    const { service: s, submitted } = withCatalogue(undefined);
    await expect(s.analysis('0000000000000000')).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
    expect(submitted).toEqual([]);
  });
});
