import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { DESCRIPTORS } from '../../../src/core/descriptors';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** Spotify's audio-features object, field for field. */
const SPOTIFY_FIELDS = [
  'acousticness', 'analysis_url', 'danceability', 'duration_ms', 'energy', 'id', 'instrumentalness', 'key', 'liveness',
  'loudness', 'mode', 'speechiness', 'tempo', 'time_signature', 'track_href', 'type', 'uri', 'valence',
].sort();

const MONEY = trackKey('Pink Floyd', 'Money');
const CYMBALINE = trackKey('Pink Floyd', 'Cymbaline');

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
}

describe("GET /v1/audio-features (Spotify's shape)", () => {
  let t: TestApp;
  let engine: FakeEngine;

  beforeEach(async () => {
    engine = new FakeEngine();
    t = await createTestApp({ engine, prepareLibrary: library });
  });
  afterEach(() => t.close());

  const get = (url: string) => request(t.app).get(url).set(t.auth);
  const searchFor = (track: string) => get(`/api/audio/search?track=${track}&artist=Pink+Floyd`).expect(200);

  it('answers one id with every field of Spotify’s object, from the same analysis the contract serves', async () => {
    await searchFor('Money');
    const res = await get(`/v1/audio-features/${MONEY}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(SPOTIFY_FIELDS);
    const contract = (await get(`/api/audio/analysis/${MONEY}`).expect(200)).body.data;
    expect(res.body).toMatchObject({
      id: MONEY,
      type: 'audio_features',
      uri: `trackgraph:track:${MONEY}`,
      track_href: `http://trackgraph.test/api/audio/analysis/${MONEY}`,
      analysis_url: `http://trackgraph.test/v1/audio-analysis/${MONEY}`,
      duration_ms: contract.duration_ms,
      tempo: contract.tempo,
      mode: contract.mode,
      time_signature: contract.timeSignature,
      energy: contract.energy,
      danceability: contract.danceability,
      valence: contract.valence,
      liveness: contract.liveness,
      speechiness: contract.speechiness,
      instrumentalness: contract.instrumentalness,
    });
    expect(typeof res.body.loudness).toBe('number');
    expect(res.body.key === -1 || res.body.key === contract.key).toBe(true);
    // acousticness comes from the registry when it has it, else null.
    if (DESCRIPTORS.some((d) => (d.name as string) === 'acousticness')) expect(typeof res.body.acousticness).toBe('number');
    else expect(res.body.acousticness).toBeNull();
    expect(engine.analyseCalls).toBe(1);
  });

  it('accepts a key in capitals as the same key', async () => {
    await searchFor('Money');
    expect((await get(`/v1/audio-features/${MONEY.toUpperCase()}`).expect(200)).body.id).toBe(MONEY);
  });

  it('an unknown id is 404 in Spotify’s error shape', async () => {
    const res = await get('/v1/audio-features/0000000000000000').expect(404);
    expect(res.body).toEqual({ error: { status: 404, message: expect.stringMatching(/unknown trackKey 0000000000000000/) } });
  });

  it.each(['money', 'bc24aaa5a97c70e', 'isrc:GB-AYE-73', 'isrc:GBAYE730010', 'spotify:track:short'])('a malformed id (%s) is 400 in Spotify’s error shape', async (id) => {
    const res = await get(`/v1/audio-features/${encodeURIComponent(id)}`).expect(400);
    expect(res.body).toEqual({ error: { status: 400, message: expect.any(String) } });
  });

  it('a URL that is not valid percent-encoded UTF-8 is 400 in Spotify’s error shape (after the key check)', async () => {
    const res = await get('/v1/audio-features/%E0%A4%A').expect(400);
    expect(res.body).toEqual({ error: { status: 400, message: expect.any(String) } });
    expect((await request(t.app).get('/v1/audio-features/%E0%A4%A').expect(401)).body.error.status).toBe(401);
  });

  it('a Spotify id no source links to is 404 (MusicBrainz is not enabled)', async () => {
    const res = await get('/v1/audio-features/spotify:track:4uLU6hMCjMI75M1A2tKUQC').expect(404);
    expect(res.body.error.message).toMatch(/spotify:track:4uLU6hMCjMI75M1A2tKUQC/);
  });

  it('without a key: 401 in Spotify’s shape with the Bearer challenge; an unknown /v1 path is 404', async () => {
    const res = await request(t.app).get(`/v1/audio-features/${MONEY}`).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toEqual({ error: { status: 401, message: expect.any(String) } });
    expect((await get('/v1/nothing-here').expect(404)).body).toEqual({ error: { status: 404, message: expect.stringMatching(/no such route/) } });
  });

  it('the batch keeps the order, answers null where an id has no stored analysis, and starts no analysis', async () => {
    await searchFor('Money');
    await searchFor('Cymbaline');
    await get(`/v1/audio-features/${MONEY}`).expect(200);
    const calls = engine.analyseCalls;
    const res = await get(`/v1/audio-features?ids=0000000000000000,${MONEY},${CYMBALINE},isrc:GBAYE7300100,${MONEY}`).expect(200);
    expect(Object.keys(res.body)).toEqual(['audio_features']);
    const list = res.body.audio_features as ({ id: string } | null)[];
    expect(list.map((f) => f?.id ?? null)).toEqual([null, MONEY, null, null, MONEY]);
    expect(Object.keys(list[1]!).sort()).toEqual(SPOTIFY_FIELDS);
    expect(engine.analyseCalls).toBe(calls);
  });

  it('the batch takes at most 100 ids and at least one, and refuses a malformed one', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(16, '0'));
    expect((await get(`/v1/audio-features?ids=${ids.join(',')}`).expect(400)).body.error.message).toMatch(/at most 100 ids/);
    expect((await get(`/v1/audio-features?ids=${ids.slice(0, 100).join(',')}`).expect(200)).body.audio_features).toHaveLength(100);
    expect((await get('/v1/audio-features').expect(400)).body.error.status).toBe(400);
    expect((await get(`/v1/audio-features?ids=${MONEY},nope`).expect(400)).body.error.message).toMatch(/invalid id "nope"/);
  });

  it('is rate limited and counted like every route (the same RateLimit headers)', async () => {
    const res = await get('/v1/audio-features?ids=0000000000000000').expect(200);
    expect(Number(res.headers['ratelimit-limit'])).toBeGreaterThan(0);
    expect(res.headers['ratelimit-remaining']).toBeDefined();
  });
});

describe('GET /v1/audio-features/{id} while the analysis runs', () => {
  it('answers 202 with Retry-After, then the features once stored', async () => {
    const engine = new FakeEngine();
    engine.delayMs = 400;
    const t = await createTestApp({ engine, prepareLibrary: library, env: { ANALYSIS_WAIT_MS: '50' } });
    try {
      await request(t.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(t.auth).expect(200);
      const pending = await request(t.app).get(`/v1/audio-features/${MONEY}`).set(t.auth).expect(202);
      expect(Number(pending.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(pending.body).toMatchObject({ status: expect.stringMatching(/^(queued|processing)$/), retry_after: expect.any(Number) });
      // The analysis goes on; asked again later, the same id answers the features.
      let later = await request(t.app).get(`/v1/audio-features/${MONEY}`).set(t.auth);
      for (let i = 0; i < 50 && later.status === 202; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        later = await request(t.app).get(`/v1/audio-features/${MONEY}`).set(t.auth);
      }
      expect(later.status).toBe(200);
      expect(later.body.id).toBe(MONEY);
    } finally {
      await t.close();
    }
  });
});

describe('usage counting', () => {
  it('counts /v1 requests for the calling key as every route does', async () => {
    const t = await createTestApp({ prepareLibrary: library });
    try {
      const requests = async (): Promise<number> =>
        ((await request(t.app).get('/api/usage').set(t.auth).expect(200)).body.data as { requests: number }[]).reduce((n, r) => n + r.requests, 0);
      const before = await requests();
      await request(t.app).get('/v1/audio-features?ids=0000000000000000').set(t.auth).expect(200);
      await request(t.app).get('/v1/audio-features/0000000000000000').set(t.auth).expect(404);
      // The two /v1 requests and the usage read between the counts.
      expect(await requests()).toBe(before + 3);
    } finally {
      await t.close();
    }
  });
});
