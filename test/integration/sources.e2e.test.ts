import { readFileSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { keyString } from '../../src/core/music';
import { trackKey } from '../../src/core/track-key';
import { startFakeDeezer, startFakeMusicBrainz } from '../fixtures/sources/catalogues';
import { FakeEngine } from '../../measure/http/fake-engine';
import { FakeServer, sendBytes, sendJson, sourceFixture } from '../helpers/fake-http';
import { TEST_API_KEY, createTestApp, type TestApp } from '../helpers/test-app';


/** A real 3 s MP3 (the engine's fixture) served as every Deezer preview. */
const MP3 = new Uint8Array(readFileSync(path.join(__dirname, '..', 'fixtures', 'audio', 'chord-3s.mp3')));
const MONEY = trackKey('Pink Floyd', 'Money');
const get = (t: TestApp, url: string) => request(t.app).get(url).set(t.auth);

/**
 * The catalogues end to end, with the real engine: SOURCES=deezer,musicbrainz,library against
 * local fakes of Deezer and MusicBrainz, then a second instance with SOURCES=upstream over the
 * first one (a REST and GraphQL gateway over a remote contract server).
 */
describe('sources end to end', () => {
  let deezer: FakeServer;
  let mb: FakeServer;
  let origin: TestApp;
  let originServer: Server;

  beforeAll(async () => {
    deezer = await startFakeDeezer({ mp3: MP3 });
    mb = await startFakeMusicBrainz();
    const remastered = sourceFixture<{ recordings: Record<string, unknown>[] }>('musicbrainz/recording-money.json');
    // A MusicBrainz-only spelling of Deezer's "Money": same artist, title and duration, other key.
    mb.route('/ws/2/recording', (req, res) => {
      const q = req.query.get('query') ?? '';
      if (q.includes('Brain Damage')) {
        sendJson(res, 200, { ...remastered, recordings: [{ ...remastered.recordings[0], id: 'f00', title: 'Money (2023 Remaster)' }] });
      } else if (/money/i.test(q)) sendJson(res, 200, remastered);
      else sendJson(res, 200, sourceFixture('musicbrainz/recording-empty.json'));
    });
    origin = await createTestApp({
      env: {
        SOURCES: 'deezer,musicbrainz,library',
        DEEZER_BASE_URL: deezer.url,
        MUSICBRAINZ_BASE_URL: `${mb.url}/ws/2`,
        COVERART_BASE_URL: 'http://coverart.test',
        SOURCE_TIMEOUT_MS: '5000',
        ANALYSIS_WAIT_MS: '60000',
      },
    });
    originServer = origin.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => originServer.once('listening', resolve));
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => originServer.close(resolve));
    await origin.close();
    await deezer.close();
    await mb.close();
  });

  it('search returns merged, deduped, ranked results with thumbnails', async () => {
    const res = await get(origin, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const data = res.body.data as { trackKey: string; trackName: string; artist: string; thumbnailUrl?: string; match_score: number }[];
    expect(data[0]).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd', trackKey: MONEY, match_score: 1 });
    expect(data[0]?.thumbnailUrl).toMatch(/^https:\/\/cdn-images\.dzcdn\.net\//);
    expect(new Set(data.map((r) => r.trackKey)).size).toBe(data.length);
    expect(data.map((r) => r.match_score)).toEqual([...data.map((r) => r.match_score)].sort((a, b) => b - a));
    // The live recording comes from MusicBrainz only, with its Cover Art Archive thumbnail.
    const live = data.find((r) => r.trackName === 'Money (live)');
    expect(live?.thumbnailUrl).toMatch(/^http:\/\/coverart\.test\/release\/.+\/front-250$/);
  });

  it('analysis of a Deezer result analyses its preview with the real engine', async () => {
    await get(origin, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const before = deezer.count('/cdn/');
    const res = await get(origin, `/api/audio/analysis/${MONEY}`).expect(200);
    expect(deezer.count('/cdn/')).toBe(before + 1);
    const d = res.body.data;
    expect(d).toMatchObject({ trackKey: MONEY, artist: 'Pink Floyd', trackName: 'Money' });
    expect(d.duration_ms).toBeGreaterThan(2500);
    expect(d.duration_ms).toBeLessThan(3500);
    expect(d.keyString).toBe(keyString(d.key, d.mode));
  });

  it('a MusicBrainz-only result whose audio Deezer has is analysed from that preview', async () => {
    const res = await get(origin, '/api/audio/search?track=Brain+Damage+Money&artist=Pink+Floyd').expect(200);
    const mbOnly = res.body.data.find((r: { trackName: string }) => r.trackName === 'Money (2023 Remaster)');
    expect(mbOnly).toBeDefined();
    const before = deezer.count('/cdn/');
    await get(origin, `/api/audio/analysis/${mbOnly.trackKey}`).expect(200);
    expect(deezer.count('/cdn/')).toBe(before + 1);
  });

  it('a MusicBrainz-only result no audio source has answers 422 NO_AUDIO_SOURCE naming the sources tried', async () => {
    await get(origin, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const res = await get(origin, `/api/audio/analysis/${trackKey('Pink Floyd', 'Money (live)')}`).expect(422);
    expect(res.body).toMatchObject({ success: false, error: { code: 'NO_AUDIO_SOURCE', message: expect.stringContaining('tried: deezer') } });
  });

  describe('a second instance with SOURCES=upstream over the first', () => {
    let gateway: TestApp;

    beforeAll(async () => {
      const { port } = originServer.address() as AddressInfo;
      gateway = await createTestApp({
        env: { SOURCES: 'upstream', UPSTREAM_URL: `http://127.0.0.1:${port}/api`, UPSTREAM_API_KEY: TEST_API_KEY, ANALYSIS_WAIT_MS: '60000' },
      });
    }, 60_000);
    afterAll(() => gateway.close());

    it('searches and analyses through the remote server over REST', async () => {
      const res = await get(gateway, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
      expect(res.body.data[0]).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd', trackKey: MONEY });
      const theirs = await get(origin, `/api/audio/analysis/${MONEY}`).expect(200);
      const ours = await get(gateway, `/api/audio/analysis/${MONEY}`).expect(200);
      expect(ours.body.data).toEqual(theirs.body.data);
    });

    it('answers the same over GraphQL', async () => {
      const res = await request(gateway.app)
        .post('/graphql')
        .set(gateway.auth)
        .send({
          query: `query($k: String!) { search(track: "Money", artist: "Pink Floyd") { trackKey match_score } analysis(trackKey: $k) { trackKey tempo keyString } }`,
          variables: { k: MONEY },
        })
        .expect(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.search[0]).toMatchObject({ trackKey: MONEY });
      const theirs = await get(origin, `/api/audio/analysis/${MONEY}`).expect(200);
      expect(res.body.data.analysis).toEqual({ trackKey: MONEY, tempo: theirs.body.data.tempo, keyString: theirs.body.data.keyString });
    });

    it('a remote error keeps its code: the remote 422 NO_AUDIO_SOURCE comes through as such', async () => {
      await get(gateway, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
      const res = await get(gateway, `/api/audio/analysis/${trackKey('Pink Floyd', 'Money (live)')}`).expect(422);
      expect(res.body.error).toMatchObject({ code: 'NO_AUDIO_SOURCE', message: expect.stringMatching(/^upstream: .*tried: deezer/) });
    });
  });
});

/**
 * Hostile data from the catalogues, through the whole app: records outside the contract are
 * refused before anything of them is stored, and URLs from data cannot reach this host's or its
 * network's private services.
 */
describe('sources end to end: data from outside', () => {
  const good = sourceFixture<{ success: true; data: Record<string, unknown> }>('upstream/analysis-money.json').data;

  describe('a gateway over an upstream server that answers out of the contract', () => {
    let upstream: FakeServer;
    let gateway: TestApp;
    let analysis: (res: ServerResponse) => void;

    beforeAll(async () => {
      upstream = await new FakeServer().start();
      upstream.route('/api/audio/search', (_req, res) =>
        sendJson(res, 200, {
          success: true,
          data: [
            { trackName: 'Money', artist: 'Pink Floyd', trackKey: MONEY, match_score: 1, thumbnailUrl: 'javascript:alert(document.cookie)' },
            { trackName: 'Time', artist: 'Pink Floyd', trackKey: trackKey('Pink Floyd', 'Time'), match_score: 0.2, thumbnailUrl: 'data:text/html,<script>alert(1)</script>' },
          ],
        }),
      );
      upstream.route(/^\/api\/audio\/analysis\//, (_req, res) => analysis(res));
      gateway = await createTestApp({
        engine: new FakeEngine(),
        env: { SOURCES: 'upstream', UPSTREAM_URL: `${upstream.url}/api`, UPSTREAM_API_KEY: 'k', SOURCE_TIMEOUT_MS: '5000' },
      });
    });
    afterAll(async () => {
      await gateway.close();
      await upstream.close();
    });

    it('passes no thumbnailUrl that is not http(s) to clients, and keeps the results (with their placeholders)', async () => {
      const res = await get(gateway, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
      expect(res.body.data.map((r: { trackName: string }) => r.trackName)).toEqual(['Money', 'Time']);
      for (const r of res.body.data as { trackKey: string; thumbnailUrl: string }[]) expect(r.thumbnailUrl).toBe(gateway.container.artwork.url(r.trackKey));
    });

    it('refuses an analysis out of range (502 UPSTREAM_INVALID), stores nothing of it, keeps the circuit closed, and refuses a 10 MB body', async () => {
      await get(gateway, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
      analysis = (res) => sendJson(res, 200, { success: true, data: { ...good, tempo: -1e300, energy: 1e300, timeSignature: -7 } });
      const bad = await get(gateway, `/api/audio/analysis/${MONEY}`).expect(502);
      expect(bad.body).toMatchObject({ success: false, error: { code: 'UPSTREAM_INVALID', message: expect.stringMatching(/tempo/) } });
      await expect(gateway.container.store.get(MONEY)).resolves.toBeUndefined();

      analysis = (res) => sendJson(res, 200, JSON.stringify({ success: true, data: { ...good, pad: 'x'.repeat(10 * 1024 * 1024) } }));
      const huge = await get(gateway, `/api/audio/analysis/${MONEY}`).expect(502);
      expect(huge.body.error.code).toBe('UPSTREAM_INVALID');

      analysis = (res) => sendJson(res, 200, { success: true, data: good });
      const ok = await get(gateway, `/api/audio/analysis/${MONEY}`).expect(200);
      expect(ok.body.data).toMatchObject({ tempo: 123.2, energy: 0.541, timeSignature: 7 });
      expect(upstream.count('/api/audio/analysis/')).toBe(3);
    });
  });

  describe('a Deezer preview URL that points at a private service', () => {
    let catalogue: FakeServer;
    /** A service on this host (a database, an admin API) that no URL from data may reach. */
    let internal: FakeServer;

    beforeAll(async () => {
      internal = await new FakeServer().start();
      internal.route('/admin.mp3', (_req, res) => sendBytes(res, MP3, 'audio/mpeg'));
      catalogue = await startFakeDeezer();
      const tracks = sourceFixture<{ data: Record<string, unknown>[] }>('deezer/search-money.json').data;
      catalogue.route('/search', (_req, res) => sendJson(res, 200, { data: [{ ...tracks[0], preview: `${internal.url}/admin.mp3` }] }));
      catalogue.route(/^\/track\/\d+$/, (_req, res) => sendJson(res, 200, { ...tracks[0], preview: `${internal.url}/admin.mp3` }));
    });
    afterAll(async () => {
      await catalogue.close();
      await internal.close();
    });

    const app = (env: Record<string, string> = {}): Promise<TestApp> =>
      createTestApp({ engine: new FakeEngine(), env: { SOURCES: 'deezer', DEEZER_BASE_URL: catalogue.url, ...env } });

    it('is not fetched: 502 UPSTREAM_INVALID, and the service sees no request', async () => {
      const t = await app();
      try {
        await get(t, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
        const res = await get(t, `/api/audio/analysis/${MONEY}`).expect(502);
        expect(res.body.error).toMatchObject({ code: 'UPSTREAM_INVALID', message: expect.stringMatching(/non-public address/) });
        expect(internal.requests).toHaveLength(0);
      } finally {
        await t.close();
      }
    });

    it('is fetched with OUTBOUND_ALLOW_PRIVATE=true (a closed network)', async () => {
      const t = await app({ OUTBOUND_ALLOW_PRIVATE: 'true' });
      try {
        await get(t, '/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
        await get(t, `/api/audio/analysis/${MONEY}`).expect(200);
        expect(internal.count('/admin.mp3')).toBe(1);
      } finally {
        await t.close();
      }
    });
  });
});
