import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { SIGNAL_EMBEDDING } from '../../../src/core/sound';
import { trackKey } from '../../../src/core/track-key';
import type { StoredAnalysis } from '../../../src/core/types';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { analysisOf } from '../browse/browse.suite';
import { post } from '../graphql/graphql.helpers';

/*
 * Similarity by sound and paths over REST and GraphQL, lists as M3U8 playlists of the music
 * folder's files, and playlists saved into it (admin keys only): each answer checked against the
 * vectors stored, through the whole app on the embedded store.
 */

const ADMIN_KEY = 'admin-key-0123456789';
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** Song i's vector: songs 0–9 lie along one direction, 10–19 along another, ordered by i within each. */
function vectorOf(i: number): number[] {
  const t = (i % 10) / 10;
  return i < 10 ? [1, t, 0, 0] : [0, 0, 1, t];
}

/** A request whose answer is read as text whatever its media type (supertest buffers only text and JSON types). */
function asText(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  });
}

function song(i: number, vector: number[] | null = vectorOf(i)): StoredAnalysis {
  return analysisOf(`Band ${i}`, `Song ${i}`, vector ? { embeddings: [{ kind: SIGNAL_EMBEDDING, vector }] } : {}, i + 1);
}

describe('similar by sound, paths and playlists (REST and GraphQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    const engine = new FakeEngine();
    // Two of the songs are files of the music folder.
    engine.tags.set('one.mp3', { artist: 'Band 1', title: 'Song 1' });
    engine.tags.set('two.mp3', { artist: 'Band 2', title: 'Song 2' });
    t = await createTestApp({
      engine,
      env: { ADMIN_API_KEYS: ADMIN_KEY },
      prepareLibrary: async (dir) => {
        await writeFile(path.join(dir, 'one.mp3'), 'audio of one');
        await writeFile(path.join(dir, 'two.mp3'), 'audio of two');
      },
    });
    for (let i = 0; i < 20; i++) await t.container.store.save(song(i));
    await t.container.store.save(analysisOf('Old', 'Engine', {}, 99));
    const library = t.container.registry.catalogSource('library')!;
    for (let tries = 0; tries < 100 && !(library.lookup(song(1).trackKey) && library.lookup(song(2).trackKey)); tries++) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(() => t.close());

  it('GET /api/audio/similar/{key}?by=sound: the nearest by cosine, nearest first, each the contract analysis with its distance', async () => {
    const res = await request(t.app).get(`/api/audio/similar/${song(0).trackKey}?by=sound&limit=4`).set(t.auth).expect(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data as { trackKey: string; trackName: string; artist: string; distance: number; tempo: number }[];
    expect(data.map((d) => d.trackName)).toEqual(['Song 1', 'Song 2', 'Song 3', 'Song 4']);
    for (let j = 1; j < data.length; j++) expect(data[j]!.distance).toBeGreaterThan(data[j - 1]!.distance);
    expect(data[0]).toMatchObject({ trackKey: song(1).trackKey, artist: 'Band 1', tempo: song(1).features.tempo });
    expect(data[0]!.distance).toBeCloseTo(1 - 1 / Math.hypot(1, 0.1), 5);
    // by=descriptors (the default) answers the feature-space neighbours instead.
    const byDescriptors = await request(t.app).get(`/api/audio/similar/${song(0).trackKey}?limit=4`).set(t.auth).expect(200);
    expect(byDescriptors.body.data).toHaveLength(4);
    expect((byDescriptors.body.data as { trackKey: string }[]).map((d) => d.trackKey)).not.toContain(song(0).trackKey);
  });

  it('refuses bad arguments, unknown tracks and tracks without an embedding in the contract’s error shape', async () => {
    const bad = await request(t.app).get(`/api/audio/similar/${song(0).trackKey}?by=loudness`).set(t.auth).expect(400);
    expect(bad.body).toEqual({ success: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/by must be descriptors or sound/) as unknown } });
    await request(t.app).get(`/api/audio/similar/${song(0).trackKey}?by=sound&limit=51`).set(t.auth).expect(400);
    const unknown = await request(t.app).get('/api/audio/similar/00000000000000aa?by=sound').set(t.auth).expect(404);
    expect(unknown.body.error.code).toBe('TRACK_NOT_FOUND');
    const old = await request(t.app).get(`/api/audio/similar/${trackKey('Old', 'Engine')}?by=sound`).set(t.auth).expect(404);
    expect(old.body.error).toEqual({ code: 'NOT_FOUND', message: expect.stringMatching(/no sound embedding/) as unknown });
    await request(t.app).get(`/api/audio/similar/${song(0).trackKey}?by=sound`).expect(401);
  });

  it('GET /api/audio/path: steps distinct tracks from one end to the other, both included', async () => {
    const res = await request(t.app).get(`/api/audio/path?from=${song(0).trackKey}&to=${song(10).trackKey}&steps=4`).set(t.auth).expect(200);
    const keys = (res.body.data as { trackKey: string; distance: number }[]).map((d) => d.trackKey);
    expect(keys).toHaveLength(6);
    expect(keys[0]).toBe(song(0).trackKey);
    expect(keys[5]).toBe(song(10).trackKey);
    expect(new Set(keys).size).toBe(6);
    expect(res.body.data[0].distance).toBe(0);
    await request(t.app).get(`/api/audio/path?from=${song(0).trackKey}&to=${song(0).trackKey}`).set(t.auth).expect(400);
  });

  it('any list as an M3U8 playlist of the music folder’s files: format=m3u or Accept: audio/x-mpegurl, the others counted as skipped', async () => {
    const res = await asText(request(t.app).get(`/api/audio/similar/${song(0).trackKey}?by=sound&limit=4&format=m3u`).set(t.auth)).expect(200);
    expect(res.headers['content-type']).toBe('audio/x-mpegurl; charset=utf-8');
    expect(res.headers['trackgraph-playlist-skipped']).toBe('2');
    const text = res.body as string;
    expect(text.split('\n')).toEqual(['#EXTM3U', expect.stringMatching(/^#EXTINF:\d+,Band 1 - Song 1$/) as unknown, 'one.mp3', expect.stringMatching(/^#EXTINF:\d+,Band 2 - Song 2$/) as unknown, 'two.mp3', '']);
    const byAccept = await asText(request(t.app).get(`/api/audio/path?from=${song(0).trackKey}&to=${song(3).trackKey}&steps=2`).set({ ...t.auth, Accept: 'audio/x-mpegurl' })).expect(200);
    expect((byAccept.body as string).startsWith('#EXTM3U\n')).toBe(true);
    expect(byAccept.body as string).toContain('one.mp3');
    const ofKeys = await asText(request(t.app).get(`/api/playlists/m3u?keys=${song(2).trackKey},${song(1).trackKey},00000000000000aa`).set(t.auth)).expect(200);
    expect((ofKeys.body as string).split('\n').filter((l) => !l.startsWith('#') && l)).toEqual(['two.mp3', 'one.mp3']);
    expect(ofKeys.headers['trackgraph-playlist-skipped']).toBe('1');
  });

  it('POST /api/playlists saves <name>.m3u8 into the music folder for an admin key, replaces it on the same name, and refuses a read key and a bad name', async () => {
    const body = { name: 'Late night', trackKeys: [song(1).trackKey, song(5).trackKey, song(2).trackKey] };
    await request(t.app).post('/api/playlists').set(t.auth).send(body).expect(403);
    const made = await request(t.app).post('/api/playlists').set(admin).send(body).expect(201);
    expect(made.body).toEqual({ success: true, data: { target: 'library', name: 'Late night', file: 'Late night.m3u8', listed: 2, skipped: 1, replaced: false } });
    const written = await readFile(path.join(t.libraryDir, 'Late night.m3u8'), 'utf8');
    expect(written.split('\n').filter((l) => !l.startsWith('#') && l)).toEqual(['one.mp3', 'two.mp3']);
    const again = await request(t.app).post('/api/playlists').set(admin).send({ ...body, trackKeys: [song(2).trackKey] }).expect(200);
    expect(again.body.data.replaced).toBe(true);
    expect((await readFile(path.join(t.libraryDir, 'Late night.m3u8'), 'utf8')).split('\n').filter((l) => !l.startsWith('#') && l)).toEqual(['two.mp3']);
    for (const name of ['../escape', 'a/b', '.hidden', '', 'x'.repeat(101)]) {
      const refused = await request(t.app).post('/api/playlists').set(admin).send({ ...body, name }).expect(400);
      expect(refused.body.error.code).toBe('INVALID_ARGUMENT');
    }
  });

  it('GraphQL: similar(by: SOUND) and soundPath answer as REST does', async () => {
    const res = await post<{ similar: { distance: number; track: { trackName: string } }[]; soundPath: { distance: number; track: { trackKey: string } }[] }>(t, {
      query: 'query($k: String!, $to: String!) { similar(trackKey: $k, first: 3, by: SOUND) { distance track { trackName } } soundPath(from: $k, to: $to, steps: 3) { distance track { trackKey } } }',
      variables: { k: song(10).trackKey, to: song(19).trackKey },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.similar.map((s) => s.track.trackName)).toEqual(['Song 11', 'Song 12', 'Song 13']);
    const path = res.body.data!.soundPath.map((s) => s.track.trackKey);
    expect(path).toHaveLength(5);
    expect([path[0], path[4]]).toEqual([song(10).trackKey, song(19).trackKey]);
    const old = await post(t, { query: `{ similar(trackKey: "${trackKey('Old', 'Engine')}", by: SOUND) { distance } }` });
    expect(old.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('recommendations seeded by a track with an embedding rank by sound', async () => {
    const res = await request(t.app).get(`/v1/recommendations?seed_tracks=${song(12).trackKey}&limit=3`).set(t.auth).expect(200);
    expect((res.body.tracks as { name: string }[]).map((x) => x.name)).toEqual(['Song 13', 'Song 11', 'Song 14']);
  });

  it('recommendations by sound with a filter: the nearest that hold it, however far down the order they are', async () => {
    const seed = 12;
    const others = Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== seed);
    // The faster half of the other songs: most of the seed's nearest do not hold the filter.
    const min = [...others.map((i) => song(i).features.tempo)].sort((a, b) => a - b)[10]!;
    const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
    const cosineDistance = (i: number) => {
      const [a, b] = [unit(vectorOf(seed)), unit(vectorOf(i))];
      return Math.round((1 - a.reduce((sum, x, d) => sum + x * b[d]!, 0)) * 1e6) / 1e6;
    };
    const expected = others
      .filter((i) => song(i).features.tempo >= min)
      .sort((i, j) => cosineDistance(i) - cosineDistance(j) || (song(i).trackKey < song(j).trackKey ? -1 : 1))
      .slice(0, 4)
      .map((i) => `Song ${i}`);
    const res = await request(t.app).get(`/v1/recommendations?seed_tracks=${song(seed).trackKey}&limit=4&min_tempo=${min}`).set(t.auth).expect(200);
    expect((res.body.tracks as { name: string }[]).map((x) => x.name)).toEqual(expected);
    expect((res.body.tracks as { id: string }[]).every((x) => x.id !== song(seed).trackKey)).toBe(true);
  });

  // Last: it stores more songs, which the answers above do not expect.
  it('similar with otherArtists: the asked track\'s own artist left out (names folded), by sound and by descriptors, REST and GraphQL', async () => {
    // A fifth direction of its own: the seed, two more songs of its artist spelt otherwise, and two other artists.
    const near = (x: number): number[] => [0, 1, 0, x];
    const seed = analysisOf('Solo Act', 'Seed', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: near(0) }] }, 201);
    const same = [analysisOf('SOLO  ACT', 'Twin', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: near(0.01) }] }, 202), analysisOf('Sólo Act', 'Echo', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: near(0.02) }] }, 203)];
    const others = [analysisOf('Duo', 'Next', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: near(0.05) }] }, 204), analysisOf('Trio', 'After', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: near(0.08) }] }, 205)];
    for (const a of [seed, ...same, ...others]) await t.container.store.save(a);
    const names = (res: request.Response) => (res.body.data as { trackName: string }[]).map((d) => d.trackName);

    const all = await request(t.app).get(`/api/audio/similar/${seed.trackKey}?by=sound&limit=4`).set(t.auth).expect(200);
    expect(names(all)).toEqual(['Twin', 'Echo', 'Next', 'After']);
    const otherArtists = await request(t.app).get(`/api/audio/similar/${seed.trackKey}?by=sound&limit=3&otherArtists=true`).set(t.auth).expect(200);
    expect(names(otherArtists).slice(0, 2)).toEqual(['Next', 'After']);
    expect(names(otherArtists)).toHaveLength(3);
    expect((otherArtists.body.data as { artist: string }[]).every((d) => !/^s[oó]lo\s+act$/i.test(d.artist))).toBe(true);
    const stated = await request(t.app).get(`/api/audio/similar/${seed.trackKey}?by=sound&limit=4&otherArtists=false`).set(t.auth).expect(200);
    expect(names(stated)).toEqual(names(all));

    // By descriptors: the same ranking with the artist's songs taken out.
    const everyone = await request(t.app).get(`/api/audio/similar/${seed.trackKey}?limit=50`).set(t.auth).expect(200);
    const byDescriptors = await request(t.app).get(`/api/audio/similar/${seed.trackKey}?limit=50&otherArtists=true`).set(t.auth).expect(200);
    expect(names(everyone)).toEqual(expect.arrayContaining(['Twin', 'Echo']));
    expect(names(byDescriptors)).toEqual(names(everyone).filter((n) => n !== 'Twin' && n !== 'Echo'));

    const refused = await request(t.app).get(`/api/audio/similar/${seed.trackKey}?by=sound&otherArtists=yes`).set(t.auth).expect(400);
    expect(refused.body).toEqual({ success: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/otherArtists must be true or false/) as unknown } });

    const res = await post<{ sound: { track: { trackName: string } }[]; descriptors: { track: { trackName: string } }[] }>(t, {
      query: 'query($k: String!) { sound: similar(trackKey: $k, first: 2, by: SOUND, otherArtists: true) { track { trackName } } descriptors: similar(trackKey: $k, first: 50, otherArtists: true) { track { trackName } } }',
      variables: { k: seed.trackKey },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.sound.map((s) => s.track.trackName)).toEqual(['Next', 'After']);
    expect(res.body.data!.descriptors.map((s) => s.track.trackName)).toEqual(names(byDescriptors));
  });
});
