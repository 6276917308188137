import { AppError } from '../../../../src/core/errors';
import { silentLogger } from '../../../../src/core/logger';
import { trackKey } from '../../../../src/core/track-key';
import type { TrackMetadata } from '../../../../src/core/types';
import { DeezerSource, type DeezerSourceOptions } from '../../../../src/sources/deezer/deezer.source';
import { FAKE_MP3, startFakeDeezer } from '../../../fixtures/sources/catalogues';
import { FakeServer, sendBytes, sendJson, sourceFixture } from '../../../helpers/fake-http';


let server: FakeServer;
let source: DeezerSource;
const ctx = () => ({ signal: AbortSignal.timeout(5000) });

const make = (options: Partial<DeezerSourceOptions> = {}): DeezerSource =>
  new DeezerSource(
    { baseUrl: server.url, timeoutMs: 2000, maxAudioBytes: 1 << 20, retry: { retries: 2, initialDelayMs: 1, maxDelayMs: 5 }, ...options },
    silentLogger,
  );

beforeEach(async () => {
  server = await startFakeDeezer();
  source = make();
});
afterEach(async () => {
  await source.close();
  await server.close();
});

const money = (url?: string): TrackMetadata => ({
  artist: 'Pink Floyd',
  trackName: 'Money',
  trackKey: trackKey('Pink Floyd', 'Money'),
  source: 'deezer',
  audio: { source: 'deezer', locator: '1152182', ...(url ? { url } : {}) },
});

describe('DeezerSource', () => {
  it('searches with the advanced query and the limit', async () => {
    const found = await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 5 }, ctx());
    expect(found.map((c) => c.trackName)).toEqual(['Money', 'Money (2011 Remastered Version)', 'Money Money Money']);
    expect(server.requests[0]?.query.get('q')).toBe('artist:"Pink Floyd" track:"Money"');
    expect(server.requests[0]?.query.get('limit')).toBe('5');
  });

  it('when Deezer answers HTTP 200 with error code 4 (quota), then it retries, and RATE_LIMITED if it persists', async () => {
    server.route('/search', (_req, res) => sendJson(res, 200, sourceFixture('deezer/error-quota.json')));
    const error = await source.search({ track: 'Money', limit: 5 }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RATE_LIMITED');
    expect((error as AppError).retryAfterS).toBe(5);
    expect(server.count('/search')).toBe(3);
  });

  it('when the quota error clears on retry, then the search succeeds', async () => {
    let calls = 0;
    const good = sourceFixture('deezer/search-money.json');
    server.route('/search', (_req, res) => sendJson(res, 200, ++calls === 1 ? sourceFixture('deezer/error-quota.json') : good));
    await expect(source.search({ track: 'Money', limit: 5 }, ctx())).resolves.toHaveLength(3);
  });

  it('when Deezer has no data (code 800), then the answer is empty, not an error', async () => {
    server.route('/search', (_req, res) => sendJson(res, 200, sourceFixture('deezer/error-no-data.json')));
    await expect(source.search({ track: 'zzz', limit: 5 }, ctx())).resolves.toEqual([]);
  });

  it('when Deezer answers a JSON shape it does not document, then UPSTREAM_UNAVAILABLE', async () => {
    server.route('/search', (_req, res) => sendJson(res, 200, { tracks: [] }));
    await expect(source.search({ track: 'Money', limit: 5 }, ctx())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('fetches the preview bytes', async () => {
    const [first] = await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 5 }, ctx());
    const audio = await source.fetchAudio({ ...first!, trackKey: 'k' }, ctx());
    expect(audio).toEqual({ bytes: FAKE_MP3 });
  });

  it.each([403, 410])('when the preview URL answers %i (expired), then the track is re-resolved once and the fresh preview fetched', async (status) => {
    server.route('/cdn/expired.mp3', (_req, res) => sendJson(res, status, {}));
    const audio = await source.fetchAudio(money(`${server.url}/cdn/expired.mp3`), ctx());
    expect(audio).toEqual({ bytes: FAKE_MP3 });
    expect(server.count('/track/1152182')).toBe(1);
  });

  it('when the fresh preview is refused too, then it gives up after one re-resolve', async () => {
    server.route(/^\/cdn\//, (_req, res) => sendJson(res, 403, {}));
    await expect(source.fetchAudio(money(`${server.url}/cdn/expired.mp3`), ctx())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(server.count('/track/')).toBe(1);
  });

  it('when the preview is not audio, then AUDIO_UNDECODABLE', async () => {
    server.route(/^\/cdn\//, (_req, res) => sendBytes(res, new Uint8Array([60, 104]), 'text/html'));
    await expect(source.fetchAudio(money(`${server.url}/cdn/x.mp3`), ctx())).rejects.toMatchObject({ code: 'AUDIO_UNDECODABLE' });
  });

  it('when the track has no Deezer audio ref, then NO_AUDIO_SOURCE', async () => {
    await expect(source.fetchAudio({ ...money(), audio: { source: 'library', locator: 'a.mp3' } }, ctx())).rejects.toMatchObject({
      code: 'NO_AUDIO_SOURCE',
    });
  });

  describe('findAudio', () => {
    const wanted = (durationMs?: number): TrackMetadata => ({
      artist: 'Pink Floyd',
      trackName: 'Money',
      trackKey: trackKey('Pink Floyd', 'Money'),
      source: 'musicbrainz',
      ...(durationMs !== undefined ? { durationMs } : {}),
    });

    it('finds the preview of the same recording by artist, title and duration', async () => {
      const ref = await source.findAudio(wanted(382_813), ctx());
      expect(ref).toMatchObject({ source: 'deezer', locator: '1152182' });
      expect(server.requests[0]?.query.get('q')).toBe('artist:"Pink Floyd" track:"Money"');
    });

    it('when no Deezer track has a duration within tolerance, then nothing', async () => {
      await expect(source.findAudio(wanted(531_000), ctx())).resolves.toBeUndefined();
    });

    it('when nothing matches artist and title, then nothing', async () => {
      await expect(source.findAudio({ ...wanted(), artist: 'ABBA', trackName: 'Waterloo' }, ctx())).resolves.toBeUndefined();
    });
  });
});
