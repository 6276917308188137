import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { keyString } from '../../src/core/music';
import { trackKey } from '../../src/core/track-key';
import { createTestApp, type TestApp } from '../helpers/test-app';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'library');

/**
 * The embedded default end to end, with the real engine on its worker pool: tagged MP3, Ogg and
 * FLAC files in LIBRARY_DIR are found by search and analysed from their audio.
 */
describe('a library of tagged files, analysed by the real engine', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      prepareLibrary: async (dir) => {
        for (const f of ['money.mp3', 'cymbaline.ogg', 'hoppipolla.flac']) await copyFile(path.join(FIXTURES, f), path.join(dir, f));
      },
    });
  }, 60_000);
  afterAll(() => t.close());

  const get = (url: string) => request(t.app).get(url).set(t.auth);

  it.each([
    ['Money', 'Pink Floyd', 'money.mp3'],
    ['Cymbaline', 'Pink Floyd', 'cymbaline.ogg'],
    ['Hoppípolla', 'Sigur Rós', 'hoppipolla.flac'],
  ])('search finds %s by %s from the tags of %s', async (track, artist) => {
    const res = await get(`/api/audio/search?track=${encodeURIComponent(track)}&artist=${encodeURIComponent(artist)}`).expect(200);
    expect(res.body.data[0]).toMatchObject({ trackName: track, artist, trackKey: trackKey(artist, track) });
  });

  it('serves the cover art embedded in the MP3', async () => {
    const res = await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const url = new URL(res.body.data[0].thumbnailUrl);
    const art = await request(t.app).get(url.pathname + url.search).expect(200);
    expect(art.headers['content-type']).toBe('image/png');
    expect(art.body.subarray(1, 4).toString()).toBe('PNG');
  });

  it('analyses a searched MP3 from its audio: the click track at 120 BPM, every field in range', async () => {
    await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const res = await get('/api/audio/analysis/bc24aaa5a97c70ed').expect(200);
    const d = res.body.data;
    expect(d.duration_ms).toBeGreaterThan(5500);
    expect(d.duration_ms).toBeLessThan(6700);
    expect(d.tempo).toBeGreaterThan(115);
    expect(d.tempo).toBeLessThan(125);
    expect(d.keyString).toBe(keyString(d.key, d.mode));
    for (const field of ['energy', 'liveness', 'danceability', 'instrumentalness', 'speechiness', 'valence', 'arousal', 'approachability', 'engagement']) {
      expect(d[field]).toBeGreaterThanOrEqual(0);
      expect(d[field]).toBeLessThanOrEqual(1);
    }
    for (const mood of Object.values<number>(d.mood)) {
      expect(mood).toBeGreaterThanOrEqual(0);
      expect(mood).toBeLessThanOrEqual(1);
    }
    const again = await get('/api/audio/analysis/bc24aaa5a97c70ed').expect(200);
    expect(again.body).toEqual(res.body);
  }, 60_000);

  it('analyses Ogg and FLAC files too', async () => {
    const ogg = await get(`/api/audio/analysis/${trackKey('Pink Floyd', 'Cymbaline')}?artist=Pink+Floyd&track=Cymbaline`).expect(200);
    expect(ogg.body.data.tempo).toBeGreaterThan(0);
    const flac = await get(`/api/audio/analysis/${trackKey('Sigur Rós', 'Hoppípolla')}?artist=${encodeURIComponent('Sigur Rós')}&track=${encodeURIComponent('Hoppípolla')}`).expect(200);
    expect(flac.body.data.duration_ms).toBeGreaterThan(3500);
    expect(flac.body.data.duration_ms).toBeLessThan(4500);
  }, 60_000);
});
