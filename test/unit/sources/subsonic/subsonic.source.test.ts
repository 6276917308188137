import { createHash } from 'node:crypto';
import type { Logger } from '../../../../src/core/logger';
import { silentLogger } from '../../../../src/core/logger';
import { trackKey } from '../../../../src/core/track-key';
import type { TrackMetadata } from '../../../../src/core/types';
import type { ServerSong } from '../../../../src/sources/source';
import { SubsonicSource, type SubsonicSourceOptions } from '../../../../src/sources/subsonic/subsonic.source';
import { COVER_PNG, SUBSONIC_PASSWORD, SUBSONIC_USER, startFakeSubsonic, type FakeSubsonic, type FakeSubsonicOptions } from '../../../fixtures/sources/subsonic';
import { sendBytes, sendJson, sourceFixture } from '../../../helpers/fake-http';

const MONEY_ID = '2e9a1e1b6c0e4e0aa0f4b1b3d1e7c001';
const MONEY = trackKey('Pink Floyd', 'Money');
const ctx = () => ({ signal: AbortSignal.timeout(5000) });
const artworkUrl = (key: string) => `http://trackgraph.test/api/audio/artwork/${key}?sig=x`;

/** Every line a logger was given, as JSON (errors with their message and stack). */
function capturing(): { logger: Logger; text: () => string; lines: { level: string; obj: object; msg: string | undefined }[] } {
  const lines: { level: string; obj: object; msg: string | undefined }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => lines.push({ level, obj, msg });
  return {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    lines,
    text: () => JSON.stringify(lines, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack, cause: v.cause } : v)),
  };
}

/** An error with everything it carries (message, stack, causes), as text. */
const everything = (error: unknown): string =>
  JSON.stringify(error, (_k, v: unknown) => (v instanceof Error ? { ...v, message: v.message, stack: v.stack, cause: v.cause } : v));

/** The password in every spelling a request could carry it. */
const SECRETS = [SUBSONIC_PASSWORD, encodeURIComponent(SUBSONIC_PASSWORD), Buffer.from(SUBSONIC_PASSWORD, 'utf8').toString('hex')];

let server: FakeSubsonic;
const sources: SubsonicSource[] = [];
const make = (options: Partial<SubsonicSourceOptions> = {}, logger: Logger = silentLogger): SubsonicSource => {
  const source = new SubsonicSource(
    {
      baseUrl: server.url,
      user: SUBSONIC_USER,
      password: SUBSONIC_PASSWORD,
      artworkUrl,
      timeoutMs: 3000,
      maxAudioBytes: 1024 * 1024,
      retry: { retries: 0 },
      ...options,
    },
    logger,
  );
  sources.push(source);
  return source;
};
const serve = async (options: FakeSubsonicOptions = {}) => {
  await server?.close();
  server = await startFakeSubsonic(options);
};
const requests = (method: string) => server.requests.filter((r) => r.path === `/rest/${method}.view`);

beforeEach(() => serve());
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close();
  await server.close();
});

describe('SubsonicSource: authentication, found out once', () => {
  it('uses token authentication with a server of API 1.13 or later (Navidrome): t = md5(password + salt), a fresh salt per request, never the password', async () => {
    const source = make();
    await source.start();
    expect(source.server).toEqual({ version: '1.16.1', type: 'navidrome', serverVersion: '0.53.3 (13af8ed4)', openSubsonic: true, auth: 'token' });
    await source.search({ track: 'Money', limit: 5 }, ctx());
    expect(server.requests.map((r) => r.path)).toEqual(['/rest/ping.view', '/rest/search3.view']);
    for (const r of server.requests) {
      expect(r.query.get('u')).toBe(SUBSONIC_USER);
      expect(r.query.get('t')).toBe(createHash('md5').update(`${SUBSONIC_PASSWORD}${r.query.get('s')}`, 'utf8').digest('hex'));
      expect(r.query.get('p')).toBeNull();
      expect(r.query.get('v')).toBe('1.16.1');
      expect(r.query.get('c')).toBe('trackgraph');
      expect(r.query.get('f')).toBe('json');
    }
    expect(server.requests[0]!.query.get('s')).not.toBe(server.requests[1]!.query.get('s'));
  });

  it('falls back to the password (enc:hex) with a server older than 1.13 (Supysonic: a token is "a required parameter is missing"), and claims its version', async () => {
    await serve({ kind: 'old' });
    const source = make();
    await source.start();
    expect(source.server).toMatchObject({ version: '1.10.2', auth: 'password', openSubsonic: false });
    const found = await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 5 }, ctx());
    expect(found[0]).toMatchObject({ trackName: 'Money' });
    const [tokenPing, passwordPing, search] = server.requests;
    expect(tokenPing!.query.get('t')).not.toBeNull();
    expect(passwordPing!.query.get('p')).toBe(`enc:${Buffer.from(SUBSONIC_PASSWORD, 'utf8').toString('hex')}`);
    expect(passwordPing!.query.get('t')).toBeNull();
    expect(search!.query.get('p')).toBe(passwordPing!.query.get('p'));
    expect(search!.query.get('v')).toBe('1.10.2');
    // Found out once: later calls go straight to the method.
    await source.search({ track: 'Money', limit: 5 }, ctx());
    expect(requests('ping')).toHaveLength(2);
  });

  it('falls back to the password where the server cannot check a token for the account (error 41, LDAP)', async () => {
    await serve({ kind: 'ldap' });
    const source = make();
    await source.connect(ctx());
    expect(source.server?.auth).toBe('password');
  });

  it('wrong credentials (Navidrome error 40): the start says what to check and never fails, /readyz hears it by health(), a search fails UPSTREAM_UNAVAILABLE; the password is in no error or log line', async () => {
    const logs = capturing();
    const source = make({ password: `${SUBSONIC_PASSWORD}-wrong` }, logs.logger);
    await expect(source.start()).resolves.toBeUndefined();
    const warning = logs.lines.find((l) => l.level === 'warn' && l.msg?.startsWith('subsonic:'));
    expect(warning?.msg).toMatch(/^subsonic: source subsonic refused the credentials \(error 40: Wrong username or password\); check SUBSONIC_USER and SUBSONIC_PASSWORD/);
    expect(source.health()).toMatch(/refused the credentials/);
    const error = await source.search({ track: 'Money', limit: 5 }, ctx()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('SUBSONIC_PASSWORD') });
    const connectError = await source.connect(ctx()).catch((e: unknown) => e);
    for (const secret of [...SECRETS, `${SUBSONIC_PASSWORD}-wrong`, Buffer.from(`${SUBSONIC_PASSWORD}-wrong`, 'utf8').toString('hex')]) {
      expect(everything(error)).not.toContain(secret);
      expect(everything(connectError)).not.toContain(secret);
      expect(logs.text()).not.toContain(secret);
    }
    // A refusal is remembered a while: the server is not asked again at every search.
    expect(requests('ping')).toHaveLength(1);
  });

  it('an unreachable server: the start says so and never fails, health() says the circuit is open, a search fails UPSTREAM_UNAVAILABLE', async () => {
    const url = server.url;
    await server.close();
    const logs = capturing();
    const source = make({ baseUrl: url }, logs.logger);
    await expect(source.start()).resolves.toBeUndefined();
    expect(logs.lines.find((l) => l.level === 'warn' && l.msg?.startsWith('subsonic:'))?.msg).toMatch(new RegExp(`^subsonic: ${url} could not be reached .*check SUBSONIC_URL`));
    expect(source.health()).toMatch(/^circuit open since /);
    await expect(source.search({ track: 'Money', limit: 5 }, ctx())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    for (const secret of SECRETS) expect(logs.text()).not.toContain(secret);
    server = await startFakeSubsonic();
  });

  it('a URL that is not a Subsonic server (no envelope) fails the connection as a fault of the source', async () => {
    server.route(/^\/rest\//, (_req, res) => sendJson(res, 200, { hello: 'world' }));
    await expect(make().connect(ctx())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('not the Subsonic API') });
  });
});

describe('SubsonicSource: search (search3)', () => {
  it('maps songs with their OpenSubsonic fields: artist (else displayArtist), title, album, duration in ms, the first ISRC, a thumbnail of this server where the song has cover art', async () => {
    const found = await make().search({ track: 'Money', limit: 10 }, ctx());
    expect(found).toEqual([
      {
        artist: 'Pink Floyd',
        trackName: 'Money',
        album: 'The Dark Side of the Moon',
        durationMs: 382_000,
        thumbnailUrl: artworkUrl(MONEY),
        isrc: 'GBN9Y1100088',
        source: 'subsonic',
        sourceId: MONEY_ID,
        audio: { source: 'subsonic', locator: MONEY_ID },
      },
      expect.objectContaining({ artist: 'ABBA', trackName: 'Money, Money, Money' }),
    ]);
    // The music video is left out; no URL of the server is handed out.
    expect(JSON.stringify(found)).not.toContain(server.url);
    expect(requests('search3')[0]!.query.get('query')).toBe('Money');
    const hop = await make().search({ track: 'Hoppípolla', limit: 10 }, ctx());
    expect(hop).toEqual([expect.objectContaining({ artist: 'Sigur Rós', trackName: 'Hoppípolla' })]);
    expect(hop[0]!.thumbnailUrl).toBeUndefined();
  });

  it('asks again without the title\'s qualifiers when the server finds nothing for it (servers that match titles as substrings)', async () => {
    const found = await make().search({ track: 'Money (2011 Remaster)', artist: 'Pink Floyd', limit: 5 }, ctx());
    expect(found[0]).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd' });
    expect(requests('search3').map((r) => r.query.get('query'))).toEqual(['Money (2011 Remaster)', 'Money']);
  });

  it('weighs the artist as the library does, and honours the limit', async () => {
    const source = make();
    const abba = await source.search({ track: 'Money', artist: 'ABBA', limit: 10 }, ctx());
    expect(abba.map((c) => c.artist)).toEqual(['ABBA', 'Pink Floyd']);
    await expect(source.search({ track: 'Money', limit: 1 }, ctx())).resolves.toHaveLength(1);
    await expect(source.search({ track: 'Nothing Like It', limit: 10 }, ctx())).resolves.toEqual([]);
  });
});

describe('SubsonicSource: audio (stream)', () => {
  const money: TrackMetadata = { artist: 'Pink Floyd', trackName: 'Money', trackKey: MONEY, source: 'subsonic', audio: { source: 'subsonic', locator: MONEY_ID } };

  it('reads the song\'s file as it is (format=raw)', async () => {
    const audio = await make().fetchAudio(money, ctx());
    expect('bytes' in audio && audio.bytes.byteLength).toBeGreaterThan(0);
    expect(Object.fromEntries([...requests('stream')[0]!.query].filter(([k]) => k === 'id' || k === 'format'))).toEqual({ id: MONEY_ID, format: 'raw' });
  });

  it('a song gone from the server (error 70 in the envelope, with HTTP 200 as Navidrome answers, or HTTP 404) is TRACK_NOT_FOUND, said by its name', async () => {
    const gone = { ...money, audio: { source: 'subsonic', locator: 'no-such-song' } };
    await expect(make().fetchAudio(gone, ctx())).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND', message: expect.stringMatching(/^"Pink Floyd - Money" is no longer on the Subsonic server/) });
    server.route('/rest/stream.view', (_req, res) => sendJson(res, 404, { error: 'gone' }));
    await expect(make().fetchAudio(money, ctx())).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
  });

  it('the same error in XML (a server that ignores f=json for a stream) is read too', async () => {
    server.route('/rest/stream.view', (_req, res) => {
      const xml = '<?xml version="1.0" encoding="UTF-8"?><subsonic-response xmlns="http://subsonic.org/restapi" status="failed" version="1.16.1"><error code="70" message="Song not found"/></subsonic-response>';
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(xml);
    });
    await expect(make().fetchAudio(money, ctx())).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
  });

  it('a file larger than AUDIO_MAX_BYTES is asked for again transcoded (format=mp3, maxBitRate=192); if that is too large as well, AUDIO_UNDECODABLE naming AUDIO_MAX_BYTES', async () => {
    server.route('/rest/stream.view', (req, res) => sendBytes(res, new Uint8Array(req.query.get('format') === 'raw' ? 4096 : 1000).fill(0xff), 'audio/flac'));
    const audio = await make({ maxAudioBytes: 2048 }).fetchAudio(money, ctx());
    expect('bytes' in audio && audio.bytes.byteLength).toBe(1000);
    expect(requests('stream').map((r) => [r.query.get('format'), r.query.get('maxBitRate')])).toEqual([
      ['raw', null],
      ['mp3', '192'],
    ]);
    await expect(make({ maxAudioBytes: 512 }).fetchAudio(money, ctx())).rejects.toMatchObject({ code: 'AUDIO_UNDECODABLE', message: expect.stringContaining('AUDIO_MAX_BYTES') });
  });

  it('refuses, as NO_AUDIO_SOURCE, a track whose audio is another source\'s', async () => {
    await expect(make().fetchAudio({ ...money, audio: { source: 'deezer', locator: '1' } }, ctx())).rejects.toMatchObject({ code: 'NO_AUDIO_SOURCE' });
  });

  it('finds the song of a recording described elsewhere: the same track key first, a close name otherwise (strict: the same names)', async () => {
    const source = make();
    const described = { artist: 'Pink Floyd', trackName: 'Money', trackKey: MONEY, durationMs: 381_000, source: 'musicbrainz' };
    await expect(source.findAudio(described, ctx())).resolves.toEqual({ source: 'subsonic', locator: MONEY_ID });
    const remaster = { artist: 'Pink Floyd', trackName: 'Money (2011 Remaster)', trackKey: trackKey('Pink Floyd', 'Money (2011 Remaster)'), durationMs: 382_000, source: 'library' };
    await expect(source.findSong(remaster, ctx(), { strict: true })).resolves.toBe(MONEY_ID);
    const otherLength = { ...described, durationMs: 200_000 };
    await expect(source.findSong(otherLength, ctx())).resolves.toBeUndefined();
    const unknown = { artist: 'Nobody', trackName: 'Money Talks', trackKey: trackKey('Nobody', 'Money Talks'), source: 'library' };
    await expect(source.findSong(unknown, ctx(), { strict: true })).resolves.toBeUndefined();
  });
});

describe('SubsonicSource: cover art (getCoverArt), served through this server', () => {
  it('reads the cover of a song a search listed without asking for the song again', async () => {
    const source = make();
    const [money] = await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 1 }, ctx());
    const art = await source.artwork({ ...money!, trackKey: MONEY });
    expect(Buffer.from(art!.data)).toEqual(COVER_PNG);
    expect(requests('getSong')).toHaveLength(0);
    expect(requests('getCoverArt')[0]!.query.get('id')).toBe('mf-2e9a1e1b6c0e4e0aa0f4b1b3d1e7c001_65f1b2c3');
  });

  it('asks for the song first when it was not listed here (another process searched), and has none for a song without cover art', async () => {
    const art = await make().artwork({ artist: 'Pink Floyd', trackName: 'Money', trackKey: MONEY, source: 'subsonic', audio: { source: 'subsonic', locator: MONEY_ID } });
    expect(art?.data.byteLength).toBe(COVER_PNG.byteLength);
    expect(requests('getSong')).toHaveLength(1);
    const none = await make().artwork({ artist: 'Sigur Rós', trackName: 'Hoppípolla', trackKey: trackKey('Sigur Rós', 'Hoppípolla'), source: 'subsonic', audio: { source: 'subsonic', locator: 'b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5' } });
    expect(none).toBeUndefined();
  });
});

describe('SubsonicSource: every song of the server', () => {
  const walk = async (source: SubsonicSource): Promise<ServerSong[]> => {
    const all: ServerSong[] = [];
    for await (const page of source.songs(ctx())) all.push(...page);
    return all;
  };

  it('pages through search3 with an empty query, each song with its version (created and size)', async () => {
    const all = await walk(make({ pageSize: 2 }));
    expect(all.map((s) => s.track.trackName)).toEqual(['Money', 'Money, Money, Money', 'Hoppípolla']);
    expect(all[0]).toEqual({ track: expect.objectContaining({ trackKey: MONEY, sourceId: MONEY_ID }), version: '2024-03-01T10:00:00.123456789Z|9175040' });
    expect(requests('search3').map((r) => [r.query.get('query'), r.query.get('songOffset')])).toEqual([
      ['', '0'],
      ['', '2'],
      ['', '4'],
    ]);
  });

  it('goes by albums (getAlbumList2, getAlbum) where search3 with an empty query answers nothing', async () => {
    await serve({ noEmptySearch: true });
    const all = await walk(make({ pageSize: 2 }));
    expect(all.map((s) => s.track.trackName).sort()).toEqual(['Hoppípolla', 'Money', 'Money, Money, Money']);
    expect(requests('getAlbumList2').length).toBeGreaterThanOrEqual(2);
    expect(requests('getAlbum').length).toBe(4);
  });

  it('stops on a server that ignores the offset', async () => {
    server.route('/rest/search3.view', (_req, res) => sendJson(res, 200, { 'subsonic-response': { status: 'ok', version: '1.16.1', searchResult3: { song: sourceFixture<unknown[]>('subsonic/songs-navidrome.json').slice(0, 2) } } }));
    const all = await walk(make({ pageSize: 2 }));
    expect(all).toHaveLength(2);
  });
});

describe('SubsonicSource: playlists saved into the server', () => {
  const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => ['2e9a1e1b6c0e4e0aa0f4b1b3d1e7c001', '7c41d2e0a9b34d3f8e6a1b2c3d4e5f60'][i % 2]!);

  it('makes a playlist (createPlaylist answers it, API 1.14+), and the same name again replaces its songs', async () => {
    const source = make();
    const first = await source.savePlaylist('Late night', [MONEY_ID], ctx());
    expect(first).toEqual({ playlistId: 'pl-1', replaced: false });
    const second = await source.savePlaylist('Late night', ids(2).reverse(), ctx());
    expect(second).toEqual({ playlistId: 'pl-1', replaced: true });
    expect(server.playlists).toEqual([{ id: 'pl-1', name: 'Late night', owner: SUBSONIC_USER, songs: ids(2).reverse() }]);
    expect(requests('createPlaylist')[1]!.query.get('playlistId')).toBe('pl-1');
  });

  it('finds the id of a playlist made by an older server (createPlaylist answers nothing), and adds songs past 50 with updatePlaylist', async () => {
    await serve({ kind: 'old' });
    const saved = await make().savePlaylist('Long', ids(120), ctx());
    expect(saved).toEqual({ playlistId: 'pl-1', replaced: false });
    expect(server.playlists[0]!.songs).toEqual(ids(120));
    expect(requests('createPlaylist')[0]!.query.getAll('songId')).toHaveLength(50);
    expect(requests('updatePlaylist').map((r) => r.query.getAll('songIdToAdd').length)).toEqual([50, 20]);
  });

  it('leaves alone a playlist of that name another user owns', async () => {
    server.playlists.push({ id: 'pl-9', name: 'Late night', owner: 'someone-else', songs: [] });
    const saved = await make().savePlaylist('Late night', [MONEY_ID], ctx());
    expect(saved.replaced).toBe(false);
    expect(server.playlists.find((p) => p.id === 'pl-9')?.songs).toEqual([]);
  });
});
