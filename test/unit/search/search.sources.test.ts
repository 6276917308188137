import { silentLogger } from '../../../src/core/logger';
import type { TrackCandidate, TrackMetadata } from '../../../src/core/types';
import { trackKey } from '../../../src/core/track-key';
import { BestEffortCache } from '../../../src/search/keyv-store';
import { MetadataCache } from '../../../src/search/metadata-cache';
import { SearchService } from '../../../src/search/search.service';
import { DeezerSource } from '../../../src/sources/deezer/deezer.source';
import { MusicBrainzSource } from '../../../src/sources/musicbrainz/musicbrainz.source';
import { SourceRegistry } from '../../../src/sources/registry';
import { startFakeDeezer, startFakeMusicBrainz } from '../../fixtures/sources/catalogues';
import { FakeServer, hang, sendJson, sourceFixture } from '../../helpers/fake-http';


/**
 * The real Deezer and MusicBrainz sources against local fakes, behind the search service. Their
 * timeout is long enough for a loaded machine to answer a live fake in time: only a hanging one
 * should reach it.
 */
let deezerServer: FakeServer;
let mbServer: FakeServer;
let deezer: DeezerSource;
let mb: MusicBrainzSource;

beforeEach(async () => {
  deezerServer = await startFakeDeezer();
  mbServer = await startFakeMusicBrainz();
  const retry = { retries: 1, initialDelayMs: 1, maxDelayMs: 5 };
  deezer = new DeezerSource({ baseUrl: deezerServer.url, timeoutMs: 2000, maxAudioBytes: 1 << 20, retry }, silentLogger);
  mb = new MusicBrainzSource(
    {
      baseUrl: `${mbServer.url}/ws/2`,
      coverArtBaseUrl: 'http://covers.test',
      userAgent: 'trackgraph/test ( test@example.org )',
      timeoutMs: 2000,
      rateLimit: { max: 100, intervalMs: 1000 },
      retry,
    },
    silentLogger,
  );
});
afterEach(async () => {
  await deezer.close();
  await mb.close();
  await deezerServer.close();
  await mbServer.close();
});

/** The artwork route's URL of a track without a picture: its placeholder. */
const placeholderUrl = (key: string): string => `http://trackgraph.test/api/audio/artwork/${key}?sig=s`;

function service(sourceTimeoutMs = 10_000): SearchService {
  return new SearchService(
    new SourceRegistry([deezer, mb]),
    new MetadataCache(new BestEffortCache<TrackMetadata>(new Map(), 'metadata', 60_000, silentLogger)),
    { sourceTimeoutMs, responseCache: new BestEffortCache<TrackCandidate[]>(new Map(), 'search', 60_000, silentLogger), thumbnailUrl: placeholderUrl },
    silentLogger,
  );
}

describe('search over Deezer and MusicBrainz', () => {
  it('returns merged, deduped, ranked results with thumbnails', async () => {
    const results = await service().search({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
    const money = results.filter((r) => r.trackName === 'Money' && r.artist === 'Pink Floyd');
    expect(money).toHaveLength(1);
    expect(results[0]).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd', trackKey: 'bc24aaa5a97c70ed', match_score: 1 });
    // Deezer is first in priority, so its cover and its audio win the merge.
    expect(results[0]?.thumbnailUrl).toMatch(/dzcdn\.net/);
    const scores = results.map((r) => r.match_score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(results.every((r) => r.match_score >= 0 && r.match_score <= 1)).toBe(true);
  });

  it('100 concurrent identical searches make one call per source, and a repeat is served from the cache', async () => {
    const svc = service();
    const all = await Promise.all(Array.from({ length: 100 }, () => svc.search({ track: 'Money', artist: 'Pink Floyd', limit: 10 })));
    expect(new Set(all.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(deezerServer.count('/search')).toBe(1);
    expect(mbServer.count('/ws/2/recording')).toBe(1);
    await svc.search({ track: 'money', artist: 'pink floyd', limit: 10 });
    expect(deezerServer.count('/search')).toBe(1);
    expect(mbServer.count('/ws/2/recording')).toBe(1);
  });

  it('a dead source costs its timeout once, then its breaker answers at once and the others still answer', async () => {
    deezerServer.route('/search', hang);
    const svc = service();
    const first = await svc.search({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
    expect(first.length).toBeGreaterThan(0);
    const second = await svc.search({ track: 'Money', limit: 5 });
    expect(second.length).toBeGreaterThan(0);
    expect(deezerServer.count('/search')).toBe(1);
    expect(mbServer.count('/ws/2/recording')).toBe(2);
  });

  it('when one source is dead, then the page names it and why, and its breaker marks it degraded in the registry', async () => {
    const deezerUrl = deezerServer.url;
    await deezerServer.close();
    expect(deezerUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const svc = service();
    const page = await svc.searchPage({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
    expect(page.results.length).toBeGreaterThan(0);
    expect(page.failedSources).toEqual([{ source: 'deezer', code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('deezer') }]);
    expect(new SourceRegistry([deezer, mb]).degraded()).toEqual([expect.stringMatching(/^deezer: circuit open since /)]);
    // Asked again while the circuit is open: still named, answered at once by the breaker.
    expect((await svc.searchPage({ track: 'Money', limit: 5 })).failedSources.map((f) => f.source)).toEqual(['deezer']);
  });

  it('when every source answers, then no source is named', async () => {
    const page = await service().searchPage({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
    expect(page.results.length).toBeGreaterThan(0);
    expect(page.failedSources).toEqual([]);
    expect(new SourceRegistry([deezer, mb]).degraded()).toEqual([]);
  });

  it('when every source is dead, then 502 UPSTREAM_UNAVAILABLE', async () => {
    const deezerUrl = deezerServer.url;
    await deezerServer.close();
    await mbServer.close();
    expect(deezerUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await expect(service().search({ track: 'Money', limit: 5 })).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  describe('records outside the contract', () => {
    type DeezerTrack = Record<string, unknown> & { album: Record<string, unknown>; artist: Record<string, unknown> };
    const fixture = (): DeezerTrack[] => sourceFixture<{ data: DeezerTrack[] }>('deezer/search-money.json').data;
    const answering = (tracks: DeezerTrack[]): void => {
      deezerServer.route('/search', (_req, res) => sendJson(res, 200, { data: tracks, total: tracks.length }));
    };
    const deezerOnly = (cache = new Map<string, unknown>()): SearchService =>
      new SearchService(
        new SourceRegistry([deezer]),
        new MetadataCache(new BestEffortCache<TrackMetadata>(new Map(), 'metadata', 60_000, silentLogger)),
        { sourceTimeoutMs: 10_000, responseCache: new BestEffortCache<TrackCandidate[]>(cache, 'search', 60_000, silentLogger), thumbnailUrl: placeholderUrl },
        silentLogger,
      );

    it('a thumbnailUrl that is not http(s) (javascript:, data:) never reaches a client; the result stays', async () => {
      const tracks = fixture();
      tracks[0]!.album = { ...tracks[0]!.album, cover_medium: 'javascript:alert(document.cookie)' };
      tracks[1]!.album = { ...tracks[1]!.album, cover_medium: 'data:text/html,<script>alert(1)</script>' };
      answering(tracks);
      const results = await deezerOnly().search({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
      expect(results.map((r) => r.trackName)).toEqual(expect.arrayContaining(['Money', 'Money (2011 Remastered Version)']));
      for (const r of results) expect(r.thumbnailUrl).toMatch(/^https?:\/\//);
      // Its placeholder instead.
      expect(results.find((r) => r.trackName === 'Money')?.thumbnailUrl).toBe(placeholderUrl(trackKey('Pink Floyd', 'Money')));
    });

    it('a record without a usable artist is left out, the others kept', async () => {
      const tracks = fixture();
      tracks[0]!.artist = { ...tracks[0]!.artist, name: 'x'.repeat(5000) };
      answering(tracks);
      const results = await deezerOnly().search({ track: 'Money', limit: 10 });
      expect(results.map((r) => r.trackName).sort()).toEqual(['Money (2011 Remastered Version)', 'Money Money Money']);
    });

    it('when every record a source answers is outside the contract, then 502 UPSTREAM_INVALID, and nothing is cached', async () => {
      const cache = new Map<string, unknown>();
      answering(fixture().map((t) => ({ ...t, title: 'Money\u0000\u001b[2J' })));
      await expect(deezerOnly(cache).search({ track: 'Money', limit: 10 })).rejects.toMatchObject({ code: 'UPSTREAM_INVALID' });
      expect(cache.size).toBe(0);
    });

    it('answers already in the response cache are checked again', async () => {
      const cache = new Map<string, unknown>();
      const svc = deezerOnly(cache);
      await svc.search({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
      expect(cache.size).toBe(1);
      // An entry written before a rule existed (or by another node) holding a hostile URL.
      for (const [key, value] of cache) cache.set(key, JSON.parse(JSON.stringify(value).split('https://cdn-images.dzcdn.net').join('javascript://x')));
      const results = await deezerOnly(cache).search({ track: 'Money', artist: 'Pink Floyd', limit: 10 });
      expect(deezerServer.count('/search')).toBe(1);
      expect(results.some((r) => r.thumbnailUrl.startsWith('javascript:'))).toBe(false);
    });
  });

  it('when every source times out, then 504 UPSTREAM_TIMEOUT', async () => {
    deezerServer.route('/search', hang);
    mbServer.route('/ws/2/recording', hang);
    await expect(service().search({ track: 'Money', limit: 5 })).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });
});
