import { mkdtemp, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { runIndexCli } from '../../../src/cli/index-library';
import { trackKey } from '../../../src/core/track-key';
import { song } from '../../../measure/audio/audio-signals';
import { captureLogs, textSink } from '../../helpers/log-capture';
import { OFFLINE_ENV } from '../../helpers/offline-env';
import { describeWithSupysonic, startSupysonic, SUPYSONIC_SONGS, writeTaggedWav, type SupysonicServer } from '../../helpers/supysonic';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';

const ADMIN_KEY = 'admin-key-0123456789';
const MONEY = trackKey('Pink Floyd', 'Money');
const AURORA = trackKey('Northern Rooms', 'Aurora Drive');
const HOPPIPOLLA = trackKey('Sigur Rós', 'Hoppípolla');

interface PlaylistEntry {
  title: string;
  artist: string;
}

/** The server's own view of a playlist, asked through its API as any Subsonic client would. */
async function serverPlaylists(server: SupysonicServer): Promise<{ id: string; name: string; entries: PlaylistEntry[] }[]> {
  const auth = `u=${encodeURIComponent(server.user)}&p=enc:${Buffer.from(server.password, 'utf8').toString('hex')}&v=1.10.2&c=test&f=json`;
  const listed = (await (await fetch(`${server.url}/rest/getPlaylists.view?${auth}`)).json()) as { 'subsonic-response': { playlists: { playlist?: { id: string; name: string }[] } } };
  const out = [];
  for (const p of listed['subsonic-response'].playlists.playlist ?? []) {
    const one = (await (await fetch(`${server.url}/rest/getPlaylist.view?${auth}&id=${p.id}`)).json()) as { 'subsonic-response': { playlist: { entry?: PlaylistEntry[] } } };
    out.push({ id: p.id, name: p.name, entries: (one['subsonic-response'].playlist.entry ?? []).map((e) => ({ title: e.title, artist: e.artist })) });
  }
  return out;
}

/** The env of a server (or the index command) reading the Subsonic server. */
const subsonicEnv = (server: SupysonicServer, password = server.password): Record<string, string> => ({
  SOURCES: 'subsonic',
  SUBSONIC_URL: server.url,
  SUBSONIC_USER: server.user,
  SUBSONIC_PASSWORD: password,
});

/**
 * The subsonic source against a real server of the Subsonic API (Debian's Supysonic, which speaks
 * API 1.10: the password form of authentication) on a folder of generated, tagged audio: the
 * whole server indexed through the API, search and analysis of its songs over REST and GraphQL,
 * playlists written into it, and its failures said plainly.
 */
describeWithSupysonic()('a real Subsonic server (Supysonic)', () => {
  let server: SupysonicServer;
  let app: TestApp;

  beforeAll(async () => {
    server = await startSupysonic();
    app = await createTestApp({ env: { ...subsonicEnv(server), ADMIN_API_KEYS: ADMIN_KEY, ANALYSIS_WAIT_MS: '60000' } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await server?.stop();
  });

  const get = (url: string, key = TEST_API_KEY) => request(app.app).get(url).set('Authorization', `Bearer ${key}`);
  const graphql = (query: string, variables: Record<string, unknown> = {}, key = TEST_API_KEY) =>
    request(app.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables });

  it('npm run index -- --source subsonic analyses every song through the API; a second run skips them all; a song changed on the server is analysed again', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-subsonic-index-'));
    try {
      const run = async () => {
        const lines: string[] = [];
        const progress = textSink();
        const status = await runIndexCli(['--source', 'subsonic'], {
          out: (line) => lines.push(line),
          progress: progress.stream,
          env: { ...OFFLINE_ENV, ...subsonicEnv(server), DATA_DIR: path.join(dir, 'data'), CACHE_URL: `sqlite://${path.join(dir, 'data', 'cache.sqlite')}`, ANALYSIS_WORKERS: '1', LOG_LEVEL: 'silent' },
          overrides: { logger: pino({ level: 'silent' }) },
        });
        return { status, lines, progress: progress.text() };
      };
      const first = await run();
      expect(first.lines).toEqual([`subsonic ${server.url}: ${SUPYSONIC_SONGS.length} songs, 0 already stored, ${SUPYSONIC_SONGS.length} analysed, 0 re-analysed (changed on the server), 0 failed`]);
      expect(first.status).toBe(0);
      expect(first.progress).toMatch(new RegExp(`indexing \\|.*\\| ${SUPYSONIC_SONGS.length}/${SUPYSONIC_SONGS.length} songs`));

      const second = await run();
      expect(second.lines).toEqual([`subsonic ${server.url}: ${SUPYSONIC_SONGS.length} songs, ${SUPYSONIC_SONGS.length} already stored, 0 analysed, 0 re-analysed (changed on the server), 0 failed`]);
      expect(second.status).toBe(0);

      // Glass Harbour's file replaced by a longer recording (same tags): its size changes.
      const file = path.join(server.musicDir, 'northern-rooms-glass-harbour.wav');
      await writeTaggedWav(file, { artist: 'Northern Rooms', title: 'Glass Harbour', album: 'Night Roads' }, song(10, { bpm: 96, tonic: 2, minor: false, bright: true, seed: 11 }));
      const later = new Date(Date.now() + 60_000);
      await utimes(file, later, later);
      await server.scan();
      const third = await run();
      expect(third.lines).toEqual([`subsonic ${server.url}: ${SUPYSONIC_SONGS.length} songs, ${SUPYSONIC_SONGS.length - 1} already stored, 0 analysed, 1 re-analysed (changed on the server), 0 failed`]);
      expect(third.status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('searches the server over REST, the cover served by this server at a signed URL that carries no credential of the server', async () => {
    const res = await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const first = (res.body as { data: { trackName: string; artist: string; trackKey: string; thumbnailUrl: string }[] }).data[0]!;
    expect(first).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd', trackKey: MONEY });
    expect(first.thumbnailUrl).toMatch(/^http:\/\/trackgraph\.test\/api\/audio\/artwork\/bc24aaa5a97c70ed\?sig=/);
    expect(JSON.stringify(res.body)).not.toContain(server.url);
    const art = new URL(first.thumbnailUrl);
    const picture = await request(app.app).get(art.pathname + art.search).expect(200);
    // The song's own cover (money.mp3's PNG), kept a day; a placeholder would be kept an hour.
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['cache-control']).toBe('private, max-age=86400');
  });

  it('analyses a song read through the API over REST, keeping its server id with the analysis', async () => {
    await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const res = await get(`/api/audio/analysis/${MONEY}`).expect(200);
    expect(res.body.data).toMatchObject({ trackKey: MONEY, artist: 'Pink Floyd', trackName: 'Money' });
    expect(res.body.data.tempo).toEqual(expect.any(Number));
    expect((await app.container.store.get(MONEY))?.source).toBe('subsonic');
    const kept = await app.container.sourceTracks.byTrackKeys('subsonic', [MONEY]);
    expect(kept.get(MONEY)?.sourceId).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);

  it('searches and analyses over GraphQL', async () => {
    const found = await graphql('query($t: String!) { search(track: $t) { trackKey trackName artist } }', { t: 'Aurora Drive' }).expect(200);
    expect(found.body.data.search[0]).toEqual({ trackKey: AURORA, trackName: 'Aurora Drive', artist: 'Northern Rooms' });
    const analysed = await graphql('query($k: String!) { analysis(trackKey: $k) { trackKey tempo keyString } }', { k: AURORA }).expect(200);
    expect(analysed.body.errors).toBeUndefined();
    expect(analysed.body.data.analysis).toMatchObject({ trackKey: AURORA, tempo: expect.any(Number) });
  }, 60_000);

  it('saves a playlist into the server (REST), which lists it with the right songs; the same name again replaces it; tracks it lacks are skipped and counted', async () => {
    const unknown = trackKey('Nobody', 'Not On The Server');
    const saved = await request(app.app)
      .post('/api/playlists')
      .set('Authorization', `Bearer ${ADMIN_KEY}`)
      .send({ name: 'Late night', trackKeys: [AURORA, MONEY, unknown], target: 'subsonic' })
      .expect(201);
    expect(saved.body.data).toMatchObject({ target: 'subsonic', name: 'Late night', listed: 2, skipped: 1, replaced: false, playlistId: expect.any(String) });
    let lists = (await serverPlaylists(server)).filter((p) => p.name === 'Late night');
    expect(lists).toHaveLength(1);
    expect(lists[0]!.entries).toEqual([
      { title: 'Aurora Drive', artist: 'Northern Rooms' },
      { title: 'Money', artist: 'Pink Floyd' },
    ]);

    const again = await request(app.app)
      .post('/api/playlists')
      .set('Authorization', `Bearer ${ADMIN_KEY}`)
      .send({ name: 'Late night', trackKeys: [MONEY], target: 'subsonic' })
      .expect(200);
    expect(again.body.data).toMatchObject({ replaced: true, listed: 1, skipped: 0, playlistId: saved.body.data.playlistId });
    lists = (await serverPlaylists(server)).filter((p) => p.name === 'Late night');
    expect(lists).toHaveLength(1);
    expect(lists[0]!.entries).toEqual([{ title: 'Money', artist: 'Pink Floyd' }]);

    await request(app.app).post('/api/playlists').set('Authorization', `Bearer ${TEST_API_KEY}`).send({ name: 'x', trackKeys: [MONEY], target: 'subsonic' }).expect(403);
  });

  it('saves a playlist into the server over GraphQL (admin keys only)', async () => {
    const mutation = 'mutation($n: String!, $k: [String!]!) { savePlaylist(name: $n, trackKeys: $k, target: SUBSONIC) { target name playlistId listed skipped replaced file } }';
    const refused = await graphql(mutation, { n: 'Morning', k: [MONEY] }).expect(200);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const res = await graphql(mutation, { n: 'Morning', k: [MONEY, AURORA] }, ADMIN_KEY).expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.savePlaylist).toMatchObject({ target: 'SUBSONIC', name: 'Morning', listed: 2, skipped: 0, replaced: false, file: null });
    const lists = (await serverPlaylists(server)).filter((p) => p.name === 'Morning');
    expect(lists.map((p) => p.entries.map((e) => e.title))).toEqual([['Money', 'Aurora Drive']]);
  });

  it('answers OpenSubsonic\'s sonicSimilarity under /rest/ by the server\'s song ids, a trackgraph key as apiKey, in JSON (f=json) or XML', async () => {
    const ids = await app.container.sourceTracks.byTrackKeys('subsonic', [MONEY, AURORA]);
    const money = ids.get(MONEY)!.sourceId;
    const aurora = ids.get(AURORA)!.sourceId;
    const rest = (query: string) => request(app.app).get(`/rest/${query}`).expect(200);

    const extensions = await rest(`getOpenSubsonicExtensions.view?apiKey=${TEST_API_KEY}&f=json`);
    expect(extensions.body['subsonic-response']).toMatchObject({ status: 'ok', version: '1.16.1', type: 'trackgraph', openSubsonic: true });
    expect(extensions.body['subsonic-response'].openSubsonicExtensions).toContainEqual({ name: 'sonicSimilarity', versions: [1] });

    const similar = await rest(`getSonicSimilarTracks.view?id=${money}&count=5&apiKey=${TEST_API_KEY}&f=json`);
    const matches = similar.body['subsonic-response'].sonicSimilarTracksResult.sonicMatch as { id: string; title: string; distance: number }[];
    expect(matches).toEqual([expect.objectContaining({ id: aurora, title: 'Aurora Drive', artist: 'Northern Rooms', isDir: false, type: 'music', distance: expect.any(Number) })]);
    expect(matches[0]!.distance).toBeGreaterThan(0);
    expect(matches[0]!.distance).toBeLessThanOrEqual(1);

    const path = await rest(`findSonicPath?startSongId=${money}&endSongId=${aurora}&count=5&apiKey=${TEST_API_KEY}&f=json`);
    const steps = path.body['subsonic-response'].findSonicPathResult.sonicMatch as { id: string; distance: number }[];
    expect(steps.map((m) => m.id)).toEqual([money, aurora]);
    expect(steps[0]!.distance).toBe(0);
    expect(steps[1]!.distance).toBe(matches[0]!.distance);

    const xml = await rest(`getSonicSimilarTracks?id=${money}&apiKey=${TEST_API_KEY}`);
    expect(xml.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(xml.text).toMatch(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?>\n<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="trackgraph" serverVersion="[^"]+" openSubsonic="true"><sonicSimilarTracksResult><sonicMatch id="${aurora}" isDir="false" title="Aurora Drive" artist="Northern Rooms" duration="\\d+" type="music" mediaType="song" isVideo="false" distance="[\\d.]+"/></sonicSimilarTracksResult></subsonic-response>$`));

    const error = async (query: string) => (await rest(query)).body['subsonic-response'].error as { code: number; message: string };
    expect(await error('getSonicSimilarTracks?id=x&f=json')).toMatchObject({ code: 10 });
    expect(await error(`getSonicSimilarTracks?id=x&f=json&u=${server.user}&p=x`)).toMatchObject({ code: 42 });
    expect(await error(`getSonicSimilarTracks?id=x&f=json&u=${server.user}&apiKey=${TEST_API_KEY}`)).toMatchObject({ code: 43 });
    expect(await error('getSonicSimilarTracks?id=x&f=json&apiKey=not-a-key-0123456789')).toMatchObject({ code: 44 });
    expect(await error(`getSonicSimilarTracks?id=no-such-song&f=json&apiKey=${TEST_API_KEY}`)).toMatchObject({ code: 70 });
    expect(await error(`findSonicPath?startSongId=${money}&f=json&apiKey=${TEST_API_KEY}`)).toMatchObject({ code: 10, message: expect.stringContaining('endSongId') });
  });

  it('a song removed from the server between search and analysis answers TRACK_NOT_FOUND, and nothing of it is stored', async () => {
    await get('/api/audio/search?track=Hopp%C3%ADpolla').expect(200);
    await rm(path.join(server.musicDir, 'hoppipolla.flac'));
    await server.scan();
    const res = await get(`/api/audio/analysis/${HOPPIPOLLA}`).expect(404);
    expect(res.body.error.code).toBe('TRACK_NOT_FOUND');
    expect(res.body.error.message).toMatch(/no longer on the Subsonic server/);
    expect(await app.container.store.get(HOPPIPOLLA)).toBeUndefined();
    expect((await app.container.sourceTracks.byTrackKeys('subsonic', [HOPPIPOLLA])).size).toBe(0);
  });

  it('wrong credentials: said at start and by /readyz (degraded), a search fails saying so, and the password is in no log line or answer', async () => {
    const wrong = 'Wr0ng pässword';
    const logs = captureLogs('debug');
    const refused = await createTestApp({ env: subsonicEnv(server, wrong), logger: logs.logger });
    try {
      const ready = await request(refused.app).get('/readyz').expect(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.checks.sources).toMatch(/subsonic: .*refused the credentials.*SUBSONIC_USER and SUBSONIC_PASSWORD/);
      const search = await request(refused.app).get('/api/audio/search?track=Money').set(refused.auth).expect(502);
      expect(search.body.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(logs.lines.some((l) => l.level === 40 && /subsonic: source subsonic refused the credentials/.test(l.msg ?? ''))).toBe(true);
      const everything = `${logs.text()}${JSON.stringify(ready.body)}${JSON.stringify(search.body)}`;
      for (const secret of [wrong, encodeURIComponent(wrong), Buffer.from(wrong, 'utf8').toString('hex')]) expect(everything).not.toContain(secret);
    } finally {
      await refused.close();
    }
  });

  it('an unreachable server: /readyz degraded and searches fail as an unavailable source, never a crash', async () => {
    const closed = await createTestApp({ env: { ...subsonicEnv(server), SUBSONIC_URL: 'http://127.0.0.1:9', SOURCE_TIMEOUT_MS: '2000' } });
    try {
      const ready = await request(closed.app).get('/readyz').expect(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.checks.sources).toMatch(/^degraded: subsonic: circuit/);
      const search = await request(closed.app).get('/api/audio/search?track=Money').set(closed.auth).expect(502);
      expect(search.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      await closed.close();
    }
  });
});
