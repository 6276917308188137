import request from 'supertest';
import { silentLogger } from '../../../src/core/logger';
import { trackKey } from '../../../src/core/track-key';
import { MusicBrainzSource } from '../../../src/sources/musicbrainz/musicbrainz.source';
import { MONEY_ISRC, MONEY_SPOTIFY_ID, RELEASE_ONLY_SPOTIFY_ID, startFakeDeezer, startFakeMusicBrainz } from '../../fixtures/sources/catalogues';
import type { FakeServer } from '../../helpers/fake-http';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const MONEY = trackKey('Pink Floyd', 'Money');
/** A Spotify track id MusicBrainz's fake does not know (404). */
const UNKNOWN_SPOTIFY_ID = '7ouMYWpwJ422jRcDASZB7P';
const ctx = () => ({ signal: AbortSignal.timeout(5000) });

let deezer: FakeServer;
let mb: FakeServer;

beforeAll(async () => {
  deezer = await startFakeDeezer();
  mb = await startFakeMusicBrainz();
});
afterAll(async () => {
  await deezer.close();
  await mb.close();
});

describe('Spotify track ids through MusicBrainz’s URL relationships', () => {
  const source = () =>
    new MusicBrainzSource(
      { baseUrl: `${mb.url}/ws/2`, coverArtBaseUrl: 'http://covers.test', userAgent: 'trackgraph/test ( ops@example.org )', timeoutMs: 2000, rateLimit: { max: 100, intervalMs: 1000 }, retry: { retries: 0 } },
      silentLogger,
    );

  it('looks the track’s URL up with its recording relationships, then the recording with its artists', async () => {
    const mbSource = source();
    try {
      const found = await mbSource.bySpotifyTrack(MONEY_SPOTIFY_ID, ctx());
      expect(found).toMatchObject({ artist: 'Pink Floyd', trackName: 'Money', isrc: MONEY_ISRC, source: 'musicbrainz', durationMs: 382813, album: 'The Dark Side of the Moon' });
      const url = mb.requests.find((r) => r.path === '/ws/2/url')!;
      expect(url.query.get('resource')).toBe(`https://open.spotify.com/track/${MONEY_SPOTIFY_ID}`);
      expect(url.query.get('inc')).toBe('recording-rels');
      expect(url.query.get('fmt')).toBe('json');
      const recording = mb.requests.find((r) => r.path.startsWith('/ws/2/recording/'))!;
      expect(recording.query.get('inc')).toBe('artist-credits releases isrcs');
    } finally {
      await mbSource.close();
    }
  });

  it('a URL MusicBrainz does not know (404), or relates to a release only, is undefined, without a recording lookup', async () => {
    const mbSource = source();
    try {
      const before = mb.count('/ws/2/recording/');
      await expect(mbSource.bySpotifyTrack(UNKNOWN_SPOTIFY_ID, ctx())).resolves.toBeUndefined();
      await expect(mbSource.bySpotifyTrack(RELEASE_ONLY_SPOTIFY_ID, ctx())).resolves.toBeUndefined();
      expect(mb.count('/ws/2/recording/')).toBe(before);
    } finally {
      await mbSource.close();
    }
  });
});

describe('spotify:track:<id> and open.spotify.com URLs on /v1', () => {
  let t: TestApp;
  let engine: FakeEngine;
  const app = async (sources: string) => {
    engine = new FakeEngine();
    t = await createTestApp({
      engine,
      env: { SOURCES: sources, DEEZER_BASE_URL: deezer.url, MUSICBRAINZ_BASE_URL: `${mb.url}/ws/2`, COVERART_BASE_URL: 'http://coverart.test', SOURCE_TIMEOUT_MS: '5000' },
    });
  };
  afterEach(() => t.close());
  const get = (url: string) => request(t.app).get(url).set(t.auth);

  it('with MusicBrainz and Deezer: the Spotify id names MusicBrainz’s recording, whose audio Deezer has; analysed without a search', async () => {
    await app('musicbrainz,deezer');
    const res = await get(`/v1/audio-features/spotify:track:${MONEY_SPOTIFY_ID}`).expect(200);
    expect(res.body).toMatchObject({ id: MONEY, type: 'audio_features' });
    expect(engine.analyseCalls).toBe(1);
    // The URL forms a user copies from Spotify's share menu name the same track.
    for (const url of [`https://open.spotify.com/track/${MONEY_SPOTIFY_ID}?si=4f1c2b3a9d8e7f60`, `https://open.spotify.com/intl-de/track/${MONEY_SPOTIFY_ID}`]) {
      expect((await get(`/v1/audio-features/${encodeURIComponent(url)}`).expect(200)).body.id).toBe(MONEY);
    }
    const analysis = await get(`/v1/audio-analysis/spotify:track:${MONEY_SPOTIFY_ID}`).expect(200);
    expect(analysis.body.meta.analyzer_version).toBe('fake-engine');
    const batch = await get(`/v1/audio-features?ids=spotify:track:${MONEY_SPOTIFY_ID},spotify:track:${UNKNOWN_SPOTIFY_ID},open.spotify.com/track/${MONEY_SPOTIFY_ID}`).expect(200);
    expect(batch.body.audio_features.map((f: { id: string } | null) => f?.id ?? null)).toEqual([MONEY, null, MONEY]);
    // spotipy sends bare ids (it strips spotify:track: and URLs) to audio-features/?ids= (a trailing slash), and audio-analysis/<id>.
    const spotipyBatch = await get(`/v1/audio-features/?ids=${MONEY_SPOTIFY_ID},${UNKNOWN_SPOTIFY_ID}`).expect(200);
    expect(spotipyBatch.body.audio_features.map((f: { id: string } | null) => f?.id ?? null)).toEqual([MONEY, null]);
    expect((await get(`/v1/audio-analysis/${MONEY_SPOTIFY_ID}`).expect(200)).body.track.duration).toBe(analysis.body.track.duration);
    expect(engine.analyseCalls).toBe(1);
  });

  it('a Spotify id MusicBrainz relates to no recording is 404 in Spotify’s shape, naming the id', async () => {
    await app('musicbrainz,deezer');
    for (const id of [UNKNOWN_SPOTIFY_ID, RELEASE_ONLY_SPOTIFY_ID]) {
      const res = await get(`/v1/audio-features/spotify:track:${id}`).expect(404);
      expect(res.body).toEqual({ error: { status: 404, message: expect.stringContaining(`spotify:track:${id}`) } });
    }
    expect(engine.analyseCalls).toBe(0);
  });

  it('without MusicBrainz, no source links Spotify tracks: 404, and MusicBrainz is not asked', async () => {
    await app('deezer');
    const before = mb.count('/ws/2/url');
    await get(`/v1/audio-features/spotify:track:${MONEY_SPOTIFY_ID}`).expect(404);
    expect(mb.count('/ws/2/url')).toBe(before);
  });

  it.each(['https://open.spotify.com/album/4LH4d3cOWNNsVw41Gqt2kv', 'https://example.com/track/4ya1NkzxJ2hO9Y1k3sVfL3', 'spotify:track:4ya1NkzxJ2hO9Y1k3sVfL', '4ya1NkzxJ2hO9Y1k3sVfL', 'spotify:album:4LH4d3cOWNNsVw41Gqt2kv'])(
    'an id that is no Spotify track (%s) is 400',
    async (id) => {
      await app('deezer');
      expect((await get(`/v1/audio-features/${encodeURIComponent(id)}`).expect(400)).body.error.status).toBe(400);
    },
  );
});
