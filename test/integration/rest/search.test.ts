import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const COVER = new Uint8Array(readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'images', 'cover.png')));

const FILES: Record<string, { artist?: string; title?: string; picture?: boolean }> = {
  'money.mp3': { artist: 'Pink Floyd', title: 'Money', picture: true },
  'cymbaline.ogg': { artist: 'Pink Floyd', title: 'Cymbaline' },
  'halo.flac': { artist: 'Beyoncé', title: 'Halo' },
  'hoppipolla.mp3': { artist: 'Sigur Rós', title: 'Hoppípolla' },
  'merry.mp3': { artist: '坂本龍一', title: 'Merry Christmas Mr. Lawrence' },
  'pts.mp3': { artist: 'Pink Floyd', title: 'Shine On You Crazy Diamond (Pts. 1-5)' },
  'Daft Punk - One More Time.wav': {},
};

describe('GET /api/audio/search', () => {
  let t: TestApp;
  const engine = new FakeEngine();

  beforeAll(async () => {
    for (const [file, tags] of Object.entries(FILES)) {
      engine.tags.set(file, {
        ...(tags.artist ? { artist: tags.artist } : {}),
        ...(tags.title ? { title: tags.title } : {}),
        ...(tags.picture ? { picture: { mime: 'image/png', data: COVER } } : {}),
      });
    }
    t = await createTestApp({
      engine,
      prepareLibrary: async (dir) => {
        for (const file of Object.keys(FILES)) await writeFile(path.join(dir, file), `audio of ${file}`);
      },
    });
  });
  afterAll(() => t.close());

  const search = (query: string) => request(t.app).get(`/api/audio/search?${query}`).set(t.auth);

  it('finds a library file by title and artist, with the key computed from what it returns', async () => {
    const res = await search('track=Money&artist=Pink+Floyd').expect(200);
    expect(res.body.success).toBe(true);
    const first = res.body.data[0];
    expect(first).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd', trackKey: 'bc24aaa5a97c70ed' });
    expect(first.trackKey).toBe(trackKey(first.artist, first.trackName));
    expect(first.match_score).toBeGreaterThan(0.9);
  });

  it('orders results by match_score, highest first', async () => {
    const res = await search('track=Money&artist=Pink+Floyd').expect(200);
    const scores = res.body.data.map((r: { match_score: number }) => r.match_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('reads a percent-encoded + (%2B) as a space, like a literal +', async () => {
    const literal = await search('track=Shine+On+You&artist=Pink+Floyd').expect(200);
    const encoded = await search('track=Shine%2BOn%2BYou&artist=Pink%2BFloyd').expect(200);
    expect(encoded.body.data).toEqual(literal.body.data);
    expect(literal.body.data[0].trackName).toBe('Shine On You Crazy Diamond (Pts. 1-5)');
  });

  it('accepts punctuation written as + (Pts+1+5)', async () => {
    const res = await search('track=Shine+On+You+Crazy+Diamond+Pts+1+5').expect(200);
    expect(res.body.data[0].trackName).toBe('Shine On You Crazy Diamond (Pts. 1-5)');
  });

  it.each([
    ['Halo', 'Beyonc%C3%A9', 'Beyoncé'],
    ['Hopp%C3%ADpolla', 'Sigur+R%C3%B3s', 'Sigur Rós'],
    ['Merry+Christmas+Mr+Lawrence', encodeURIComponent('坂本龍一'), '坂本龍一'],
  ])('finds Unicode names (%s by %s)', async (track, artist, expected) => {
    const res = await search(`track=${track}&artist=${artist}`).expect(200);
    expect(res.body.data[0].artist).toBe(expected);
  });

  it('ignores accents the client left out', async () => {
    const res = await search('track=Halo&artist=Beyonce').expect(200);
    expect(res.body.data[0].artist).toBe('Beyoncé');
  });

  it('names a file without tags from "Artist - Title.ext"', async () => {
    const res = await search('track=One+More+Time&artist=Daft+Punk').expect(200);
    expect(res.body.data[0]).toMatchObject({ artist: 'Daft Punk', trackName: 'One More Time' });
  });

  it('links embedded cover art as thumbnailUrl, and the track’s placeholder (a PNG) when there is none', async () => {
    const money = (await search('track=Money&artist=Pink+Floyd').expect(200)).body.data[0];
    expect(money.thumbnailUrl).toMatch(/^http:\/\/trackgraph\.test\/api\/audio\/artwork\/bc24aaa5a97c70ed\?sig=/);
    const halo = ((await search('track=Halo&artist=Beyonce').expect(200)).body as { data: { trackKey: string; thumbnailUrl: string }[] }).data[0]!;
    expect(halo.thumbnailUrl).toBe(t.container.artwork.url(halo.trackKey));
    const url = new URL(halo.thumbnailUrl);
    const art = await request(t.app).get(url.pathname + url.search).buffer(true).expect(200);
    expect(art.headers['content-type']).toBe('image/png');
    expect(Buffer.from(art.body as Buffer).equals(t.container.artwork.placeholder(halo.trackKey))).toBe(true);
  });

  it('serves the artwork at its signed URL without a Bearer key, and refuses a forged signature', async () => {
    const money = (await search('track=Money&artist=Pink+Floyd').expect(200)).body.data[0];
    const url = new URL(money.thumbnailUrl);
    const art = await request(t.app).get(url.pathname + url.search).expect(200);
    expect(art.headers['content-type']).toBe('image/png');
    expect(new Uint8Array(art.body as Buffer)).toEqual(COVER);
    await request(t.app).get(`${url.pathname}?sig=forged`).expect(401);
  });

  it('returns at most `limit` results (default 10)', async () => {
    const one = await search('track=Money&limit=1').expect(200);
    expect(one.body.data).toHaveLength(1);
  });

  it('answers an empty list when nothing matches', async () => {
    const res = await search('track=Zzyzx+Qwerty').expect(200);
    expect(res.body).toEqual({ success: true, data: [] });
  });

  it.each([
    ['missing track', 'artist=Pink+Floyd', /track is required/],
    ['empty track', 'track=&artist=x', /track must not be empty/],
    ['only spaces', 'track=+++', /track must not be empty/],
    ['over-long track', `track=${'a'.repeat(301)}`, /at most 300/],
    ['a NUL in the artist', 'track=Money&artist=Pink%00Floyd', /artist must not contain control characters/],
    ['repeated track', 'track=a&track=b', /track must be a single string/],
    ['limit 0', 'track=Money&limit=0', /limit must be at least 1/],
    ['limit 51', 'track=Money&limit=51', /limit must be at most 50/],
    ['limit not a number', 'track=Money&limit=ten', /limit must be a number/],
    ['fractional limit', 'track=Money&limit=2.5', /whole number/],
  ])('when %s, then 400 INVALID_ARGUMENT', async (_case, query, message) => {
    const res = await search(query).expect(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('INVALID_ARGUMENT');
    expect(res.body.error.message).toMatch(message);
  });
});
