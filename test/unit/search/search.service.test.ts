import { AppError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { trackKey } from '../../../src/core/track-key';
import type { TrackCandidate, TrackMetadata } from '../../../src/core/types';
import { BestEffortCache } from '../../../src/search/keyv-store';
import { MetadataCache } from '../../../src/search/metadata-cache';
import { SearchService, queryCacheKey } from '../../../src/search/search.service';
import { SourceRegistry } from '../../../src/sources/registry';
import type { MetadataSource, SearchQuery, SourceCallContext } from '../../../src/sources/source';

/** An in-memory metadata source that counts its calls. */
class FakeSource implements MetadataSource {
  calls = 0;
  cacheSearches: boolean | undefined;
  constructor(
    readonly name: string,
    private readonly answer: (query: SearchQuery, context: SourceCallContext) => Promise<TrackCandidate[]>,
    options: { cacheSearches?: boolean } = {},
  ) {
    this.cacheSearches = options.cacheSearches;
  }
  search(query: SearchQuery, context: SourceCallContext): Promise<TrackCandidate[]> {
    this.calls++;
    return this.answer(query, context);
  }
}

const candidate = (source: string, artist: string, trackName: string, extra: Partial<TrackCandidate> = {}): TrackCandidate => ({
  artist,
  trackName,
  source,
  ...extra,
});

const memoryCache = <T>(namespace: string) => new BestEffortCache<T>(new Map(), namespace, 60_000, silentLogger);

function service(sources: MetadataSource[], options: { timeoutMs?: number; responseCache?: BestEffortCache<TrackCandidate[]> } = {}) {
  const metadataCache = memoryCache<TrackMetadata>('metadata');
  const svc = new SearchService(
    new SourceRegistry(sources),
    new MetadataCache(metadataCache),
    {
      sourceTimeoutMs: options.timeoutMs ?? 1000,
      thumbnailUrl: (key) => `http://trackgraph.test/api/audio/artwork/${key}?sig=s`,
      ...(options.responseCache ? { responseCache: options.responseCache } : {}),
    },
    silentLogger,
  );
  return { svc, metadata: new MetadataCache(metadataCache) };
}

const moneyQuery = { track: 'Money', artist: 'Pink Floyd', limit: 10 };

describe('SearchService', () => {
  it('merges sources, dedupes one recording into one result keeping the preferred audio and filling gaps', async () => {
    const library = new FakeSource('library', async () => [
      candidate('library', 'Pink Floyd', 'Money', { audio: { source: 'library', locator: 'Pink Floyd - Money.mp3' } }),
    ]);
    const deezer = new FakeSource('deezer', async () => [
      candidate('deezer', 'Pink Floyd', 'Money', {
        thumbnailUrl: 'http://covers/money.jpg',
        durationMs: 382_000,
        audio: { source: 'deezer', locator: '1', url: 'http://cdn/1.mp3' },
      }),
      candidate('deezer', 'ABBA', 'Money, Money, Money', { audio: { source: 'deezer', locator: '2' } }),
    ]);
    const mb = new FakeSource('musicbrainz', async () => [candidate('musicbrainz', 'pink floyd', 'money', { sourceScore: 1 })]);
    const { svc, metadata } = service([library, deezer, mb]);
    const results = await svc.search(moneyQuery);
    expect(results.map((r) => [r.artist, r.trackName])).toEqual([
      ['Pink Floyd', 'Money'],
      ['ABBA', 'Money, Money, Money'],
    ]);
    expect(results[0]).toEqual({
      trackName: 'Money',
      artist: 'Pink Floyd',
      thumbnailUrl: 'http://covers/money.jpg',
      trackKey: trackKey('Pink Floyd', 'Money'),
      match_score: 1,
    });
    expect(results[0]!.match_score).toBeGreaterThan(results[1]!.match_score);
    const cached = await metadata.get(trackKey('Pink Floyd', 'Money'));
    expect(cached?.audio).toEqual({ source: 'library', locator: 'Pink Floyd - Money.mp3' });
    expect(cached?.durationMs).toBe(382_000);
  });

  it('when one source fails, then the others still answer (partial results)', async () => {
    const broken = new FakeSource('deezer', async () => {
      throw new AppError('UPSTREAM_UNAVAILABLE', 'down');
    });
    const ok = new FakeSource('musicbrainz', async () => [candidate('musicbrainz', 'Pink Floyd', 'Money')]);
    const { svc } = service([broken, ok]);
    await expect(svc.search(moneyQuery)).resolves.toHaveLength(1);
  });

  it('when every source fails, then 502 UPSTREAM_UNAVAILABLE naming them', async () => {
    const fail = async (): Promise<TrackCandidate[]> => {
      throw new Error('boom');
    };
    const { svc } = service([new FakeSource('deezer', fail), new FakeSource('musicbrainz', fail)]);
    await expect(svc.search(moneyQuery)).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringMatching(/deezer, musicbrainz/) });
  });

  it('when a source ignores its abort signal and hangs, then it is abandoned at its timeout (504 if it was the only one)', async () => {
    const hung = new FakeSource('deezer', () => new Promise<TrackCandidate[]>(() => undefined));
    const { svc } = service([hung], { timeoutMs: 100 });
    await expect(svc.search(moneyQuery)).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });

  it('when one source hangs, then the others\' results come back at the timeout', async () => {
    const hung = new FakeSource('deezer', () => new Promise<TrackCandidate[]>(() => undefined));
    const ok = new FakeSource('library', async () => [candidate('library', 'Pink Floyd', 'Money')]);
    const { svc } = service([ok, hung], { timeoutMs: 100 });
    await expect(svc.search(moneyQuery)).resolves.toHaveLength(1);
  });

  it('coalesces 100 concurrent identical searches into one call per source', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = (name: string) =>
      new FakeSource(name, async () => {
        await gate;
        return [candidate(name, 'Pink Floyd', 'Money')];
      });
    const a = slow('deezer');
    const b = slow('musicbrainz');
    const { svc } = service([a, b]);
    const all = Array.from({ length: 100 }, (_, i) => svc.search({ ...moneyQuery, track: i % 2 ? 'money' : ' MONEY ' }));
    release();
    const results = await Promise.all(all);
    expect(results.every((r) => r.length === 1)).toBe(true);
    expect([a.calls, b.calls]).toEqual([1, 1]);
  });

  it('caches answers of sources that ask for it per normalised query, and asks the others every time', async () => {
    const remote = new FakeSource('deezer', async () => [candidate('deezer', 'Pink Floyd', 'Money')], { cacheSearches: true });
    const local = new FakeSource('library', async () => [candidate('library', 'Pink Floyd', 'Money')]);
    const { svc } = service([local, remote], { responseCache: memoryCache('search') });
    await svc.search(moneyQuery);
    await svc.search({ ...moneyQuery, track: 'MONEY' });
    expect(remote.calls).toBe(1);
    expect(local.calls).toBe(2);
  });

  it('does not cache a failed answer', async () => {
    let fail = true;
    const remote = new FakeSource(
      'deezer',
      async () => {
        if (fail) throw new Error('down');
        return [candidate('deezer', 'Pink Floyd', 'Money')];
      },
      { cacheSearches: true },
    );
    const { svc } = service([remote], { responseCache: memoryCache('search') });
    await expect(svc.search(moneyQuery)).rejects.toBeInstanceOf(AppError);
    fail = false;
    await expect(svc.search(moneyQuery)).resolves.toHaveLength(1);
    expect(remote.calls).toBe(2);
  });

  it('when the cache store fails, then the search goes to the source (a miss, not an error)', async () => {
    const failing = new Map<string, unknown>();
    failing.get = () => {
      throw new Error('disk on fire');
    };
    failing.set = () => {
      throw new Error('disk on fire');
    };
    const remote = new FakeSource('deezer', async () => [candidate('deezer', 'Pink Floyd', 'Money')], { cacheSearches: true });
    const { svc } = service([remote], { responseCache: new BestEffortCache(failing, 'search', 60_000, silentLogger) });
    await expect(svc.search(moneyQuery)).resolves.toHaveLength(1);
  });

  it('resolve finds the candidate with the asked key and caches it', async () => {
    const remote = new FakeSource('deezer', async () => [
      candidate('deezer', 'Pink Floyd', 'Money', { audio: { source: 'deezer', locator: '1' } }),
    ]);
    const { svc, metadata } = service([remote]);
    const key = trackKey('Pink Floyd', 'Money');
    await expect(svc.resolve(key, 'Pink Floyd', 'Money')).resolves.toMatchObject({ trackKey: key });
    await expect(metadata.get(key)).resolves.toMatchObject({ audio: { source: 'deezer' } });
    await expect(svc.resolve('0000000000000000', 'Pink Floyd', 'Money')).resolves.toBeUndefined();
  });

  it('normalises the cache key: case, NFKC and spaces, but not accents', () => {
    expect(queryCacheKey({ track: ' Money  ', artist: 'PINK floyd', limit: 10 })).toBe(queryCacheKey({ track: 'money', artist: 'pink floyd', limit: 10 }));
    expect(queryCacheKey({ track: 'Beyoncé', limit: 10 })).not.toBe(queryCacheKey({ track: 'Beyonce', limit: 10 }));
  });
});
