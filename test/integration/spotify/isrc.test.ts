import request from 'supertest';
import { silentLogger } from '../../../src/core/logger';
import { trackKey } from '../../../src/core/track-key';
import { DeezerSource } from '../../../src/sources/deezer/deezer.source';
import { MusicBrainzSource } from '../../../src/sources/musicbrainz/musicbrainz.source';
import { MONEY_ISRC, startFakeDeezer, startFakeMusicBrainz } from '../../fixtures/sources/catalogues';
import type { FakeServer } from '../../helpers/fake-http';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const MONEY = trackKey('Pink Floyd', 'Money');
const UNKNOWN_ISRC = 'USRC17607839';
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

describe('ISRC lookup in the sources', () => {
  it('Deezer answers track/isrc:<ISRC> with the track and its preview; an unknown ISRC ("no data") is undefined', async () => {
    const source = new DeezerSource({ baseUrl: deezer.url, timeoutMs: 2000, maxAudioBytes: 1 << 20, retry: { retries: 0 } }, silentLogger);
    try {
      const found = await source.byIsrc(MONEY_ISRC, ctx());
      expect(found).toMatchObject({ artist: 'Pink Floyd', trackName: 'Money', isrc: MONEY_ISRC, source: 'deezer', audio: { source: 'deezer', locator: '1152182' } });
      expect(found?.audio?.url).toMatch(new RegExp(`^${deezer.url}/cdn/`));
      expect(deezer.requests.some((r) => r.path === `/track/isrc:${MONEY_ISRC}`)).toBe(true);
      await expect(source.byIsrc(UNKNOWN_ISRC, ctx())).resolves.toBeUndefined();
    } finally {
      await source.close();
    }
  });

  it('MusicBrainz maps an ISRC to its recording (artists and releases included); an unknown ISRC (404) is undefined', async () => {
    const source = new MusicBrainzSource(
      { baseUrl: `${mb.url}/ws/2`, coverArtBaseUrl: 'http://covers.test', userAgent: 'trackgraph/test ( ops@example.org )', timeoutMs: 2000, rateLimit: { max: 100, intervalMs: 1000 }, retry: { retries: 0 } },
      silentLogger,
    );
    try {
      const found = await source.byIsrc(MONEY_ISRC, ctx());
      expect(found).toMatchObject({ artist: 'Pink Floyd', trackName: 'Money', isrc: MONEY_ISRC, source: 'musicbrainz', durationMs: 382813, album: 'The Dark Side of the Moon' });
      expect(found?.audio).toBeUndefined();
      const asked = mb.requests.find((r) => r.path === `/ws/2/isrc/${MONEY_ISRC}`)!;
      expect(asked.query.get('fmt')).toBe('json');
      expect(asked.query.get('inc')).toBe('artist-credits releases');
      await expect(source.byIsrc(UNKNOWN_ISRC, ctx())).resolves.toBeUndefined();
    } finally {
      await source.close();
    }
  });
});

describe('isrc:<ISRC> ids on /v1/audio-features', () => {
  let t: TestApp;
  let engine: FakeEngine;
  const app = (sources: string) => {
    engine = new FakeEngine();
    return createTestApp({
      engine,
      env: { SOURCES: sources, DEEZER_BASE_URL: deezer.url, MUSICBRAINZ_BASE_URL: `${mb.url}/ws/2`, COVERART_BASE_URL: 'http://coverart.test', SOURCE_TIMEOUT_MS: '5000' },
    });
  };
  afterEach(() => t.close());
  const get = (url: string) => request(t.app).get(url).set(t.auth);

  it('with Deezer: finds the track by ISRC, analyses its preview without a prior search, and the batch then reads it', async () => {
    t = await app('deezer');
    const res = await get(`/v1/audio-features/isrc:${MONEY_ISRC}`).expect(200);
    expect(res.body).toMatchObject({ id: MONEY, type: 'audio_features' });
    expect(engine.analyseCalls).toBe(1);
    // Lowercase and hyphenated ISRCs are the same ISRC.
    const batch = await get(`/v1/audio-features?ids=isrc:gb-n9y-11-00088,isrc:${UNKNOWN_ISRC},${MONEY}`).expect(200);
    expect(batch.body.audio_features.map((f: { id: string } | null) => f?.id ?? null)).toEqual([MONEY, null, MONEY]);
    // The contract's route knows the key now, as after a search.
    await get(`/api/audio/analysis/${MONEY}`).expect(200);
  });

  it('an unknown ISRC is a 404 for one id, and a malformed one a 400', async () => {
    t = await app('deezer,musicbrainz');
    expect((await get(`/v1/audio-features/isrc:${UNKNOWN_ISRC}`).expect(404)).body).toEqual({ error: { status: 404, message: `no source knows ISRC ${UNKNOWN_ISRC}` } });
    expect((await get('/v1/audio-features/isrc:GBN9Y110008').expect(400)).body.error.message).toMatch(/invalid ISRC/);
    expect((await get('/v1/audio-features/isrc:1BN9Y1100088').expect(400)).body.error.status).toBe(400);
    expect(engine.analyseCalls).toBe(0);
  });

  it('with MusicBrainz alone: the ISRC names the recording; the batch answers null until it is analysed', async () => {
    t = await app('musicbrainz');
    const batch = await get(`/v1/audio-features?ids=isrc:${MONEY_ISRC}`).expect(200);
    expect(batch.body).toEqual({ audio_features: [null] });
    expect(mb.requests.some((r) => r.path === `/ws/2/isrc/${MONEY_ISRC}`)).toBe(true);
  });

  it('when the only source cannot be reached, the lookup fails in Spotify’s error shape (5xx), not as unknown', async () => {
    engine = new FakeEngine();
    t = await createTestApp({ engine, env: { SOURCES: 'deezer', DEEZER_BASE_URL: 'http://127.0.0.1:9', SOURCE_TIMEOUT_MS: '2000' } });
    const res = await get(`/v1/audio-features/isrc:${MONEY_ISRC}`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body).toEqual({ error: { status: res.status, message: expect.any(String) } });
  });
});
