import { LRUCache } from 'lru-cache';
import { AppError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { matchScorer, normalisedNames, normaliseText } from '../../core/ranking';
import { trackKey } from '../../core/track-key';
import type { AudioInput, AudioRef, TrackCandidate, TrackMetadata } from '../../core/types';
import { HttpClient, passedHttpOptions, type HttpClientOptions } from '../http/http.client';
import { isSourceHttpError } from '../http/http.errors';
import type {
  ArtworkSource,
  AudioSource,
  MetadataSource,
  MonitoredSource,
  MusicServerSource,
  SavedServerPlaylist,
  SearchQuery,
  ServerSong,
  SourceCallContext,
  SourceStartOptions,
  StartableSource,
} from '../source';
import { SUBSONIC, SubsonicClient, type SubsonicParams, type SubsonicServerInfo } from './subsonic.client';
import { toCandidate, toServerSong } from './subsonic.mapper';
import type { SubsonicPlaylist, SubsonicSong } from './subsonic.types';

export interface SubsonicSourceOptions {
  /** SUBSONIC_URL: the server's address (the API is under /rest). */
  baseUrl: string;
  user: string;
  /** Sent as a salted token (or hex-encoded to servers older than 1.13); never logged. */
  password: string;
  /** Builds the thumbnailUrl of a song with cover art: this server's signed artwork route. */
  artworkUrl: (trackKey: string) => string;
  timeoutMs: number;
  /** AUDIO_MAX_BYTES: the largest song read for an analysis. */
  maxAudioBytes: number;
  /** Largest JSON answer accepted (SOURCE_MAX_JSON_BYTES). */
  maxJsonBytes?: number;
  /** OUTBOUND_ALLOW_PRIVATE: redirects may reach private addresses. SUBSONIC_URL's origin is always reached. */
  allowPrivate?: boolean;
  /** Songs of a page of the whole library's walk. Default 500. */
  pageSize?: number;
  /** Lowest match_score a song needs to be a search candidate. Default 0.35, the library's. */
  minScore?: number;
  retry?: HttpClientOptions['retry'];
  breaker?: HttpClientOptions['breaker'];
  fetch?: typeof fetch;
  /** A salt per request (tests). */
  salt?: () => string;
}

/** The largest cover image read, bytes. */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The side of the cover asked for, pixels (thumbnails are shown far smaller). */
const COVER_SIZE = '500';
/** Song ids per createPlaylist or updatePlaylist call: URLs stay short enough for any server. */
const SONGS_PER_CALL = 50;
/** Songs asked of search3 when finding one recording by name. */
const FIND_COUNT = 50;
/** Transcoding asked for when a song's file is larger than AUDIO_MAX_BYTES. */
const TRANSCODED: SubsonicParams = [
  ['format', 'mp3'],
  ['maxBitRate', '192'],
];

/** Types the server may give a song's file (browsers' and servers' spellings of audio containers). */
const isAudioType = (type: string): boolean =>
  type === '' || type.startsWith('audio/') || ['application/octet-stream', 'application/ogg', 'application/x-flac', 'video/mp4', 'video/ogg', 'video/webm', 'video/x-matroska'].includes(type);
const isImageType = (type: string): boolean => type === '' || type.startsWith('image/') || type === 'application/octet-stream';

/**
 * A music server of the Subsonic API (Navidrome, Airsonic-Advanced, gonic, Supysonic, Ampache):
 * its songs are searched (`search3`) and listed, their audio read through the API (`stream`, the
 * file as it is, or transcoded when larger than AUDIO_MAX_BYTES), their covers served through
 * this server's artwork route (a URL of the server would carry the credentials), and playlists
 * saved into it. The server is reached once at start to learn how it takes credentials; a server
 * that is down or refuses them is said in the log and by /readyz, and every call says it again.
 */
export class SubsonicSource implements MetadataSource, AudioSource, ArtworkSource, StartableSource, MonitoredSource, MusicServerSource {
  readonly name = SUBSONIC;
  private readonly http: HttpClient;
  private readonly client: SubsonicClient;
  /** Each song's cover art id, as its listings said (artwork would otherwise ask getSong first). */
  private readonly covers = new LRUCache<string, string>({ max: 20_000 });
  private readonly minScore: number;
  private starting: Promise<void> | undefined;

  constructor(
    private readonly options: SubsonicSourceOptions,
    private readonly logger: Logger,
  ) {
    this.http = new HttpClient({
      name: SUBSONIC,
      timeoutMs: options.timeoutMs,
      // The configured server may be on the local network; a redirect elsewhere may not.
      outbound: { allowPrivate: options.allowPrivate ?? false, trustedOrigins: [options.baseUrl] },
      logger,
      ...passedHttpOptions(options),
    });
    this.client = new SubsonicClient(this.http, {
      baseUrl: options.baseUrl,
      user: options.user,
      password: options.password,
      clientName: 'trackgraph',
      ...(options.salt ? { salt: options.salt } : {}),
    });
    this.minScore = options.minScore ?? 0.35;
  }

  /** What the server said of itself (its API version, its name, how it takes the credentials), once reached. */
  get server(): SubsonicServerInfo | undefined {
    return this.client.server;
  }

  /**
   * Reaches the server and learns how it takes the credentials. Never fails the start: a server
   * down or refusing the credentials is logged (what to check, never the password) and said by
   * health(); the next call tries again.
   */
  async start(options: SourceStartOptions = {}): Promise<void> {
    const attempt = this.client.connect(AbortSignal.timeout(this.options.timeoutMs)).then(
      (info) => {
        this.logger.info(
          { source: SUBSONIC, url: this.options.baseUrl, api: info.version, server: info.type ? `${info.type} ${info.serverVersion ?? ''}`.trim() : undefined, auth: info.auth },
          `subsonic: connected to ${this.options.baseUrl} as ${this.options.user} (${info.auth === 'token' ? 'token authentication' : 'password authentication: the server speaks Subsonic API ' + info.version + ', older than 1.13'})`,
        );
      },
      (error: unknown) => {
        this.logger.warn({ source: SUBSONIC, url: this.options.baseUrl }, `subsonic: ${describeFailure(error, this.options.baseUrl)}; searches go on without it, and it is asked again at each call`);
      },
    );
    this.starting = attempt.finally(() => {
      this.starting = undefined;
    });
    if (!options.background) await this.starting;
  }

  /** While the first connection is being made. */
  pending(): string | undefined {
    return this.starting ? `connecting to ${this.options.baseUrl}` : undefined;
  }

  health(): string | undefined {
    return this.http.health() ?? this.client.refusal();
  }

  async connect(context: SourceCallContext): Promise<void> {
    try {
      await this.client.connect(context.signal);
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, describeFailure(error, this.options.baseUrl), { cause: error });
      throw error;
    }
  }

  async search(query: SearchQuery, context: SourceCallContext): Promise<TrackCandidate[]> {
    // Every server matches search3's query against titles (Supysonic against titles only): the
    // artist is weighed here, as the library weighs it.
    const count = Math.min(200, Math.max(20, query.limit * 5));
    let songs = await this.search3(query.track, count, context);
    const plain = plainTitle(query.track);
    if (songs.length === 0 && plain !== query.track && plain !== '') songs = await this.search3(plain, count, context);
    const score = matchScorer(query);
    const asked = normaliseText(query.track);
    return songs
      .flatMap((song) => {
        const candidate = toCandidate(song, this.options.artworkUrl);
        if (!candidate) return [];
        const s = score(normalisedNames(candidate));
        return s >= this.minScore ? [{ candidate, score: s, exact: normaliseText(candidate.trackName) === asked ? 1 : 0 }] : [];
      })
      .sort((a, b) => b.score - a.score || b.exact - a.exact || (a.candidate.sourceId! < b.candidate.sourceId! ? -1 : 1))
      .slice(0, query.limit)
      .map((s) => s.candidate);
  }

  /**
   * The song's file, as the server has it (`stream` with format=raw). A file larger than
   * AUDIO_MAX_BYTES is asked for again transcoded to MP3 at 192 kbit/s (Navidrome, Airsonic and
   * gonic transcode with ffmpeg); a server that cannot sends it as it is, and it is refused. A
   * song the server no longer has is TRACK_NOT_FOUND.
   */
  async fetchAudio(track: TrackMetadata, context: SourceCallContext): Promise<AudioInput> {
    const id = track.audio?.source === SUBSONIC ? track.audio.locator : undefined;
    if (!id) throw new AppError('NO_AUDIO_SOURCE', `track ${track.trackKey} has no song on the Subsonic server`);
    const read = (params: SubsonicParams) =>
      this.client.bytes('stream', [['id', id], ...params], { maxBytes: this.options.maxAudioBytes, accept: isAudioType }, context.signal);
    try {
      return { bytes: await read([['format', 'raw']]) };
    } catch (error) {
      if (!isTooLarge(error)) throw notFoundSaid(error, track);
    }
    try {
      return { bytes: await read(TRANSCODED) };
    } catch (error) {
      if (!isTooLarge(error)) throw notFoundSaid(error, track);
      throw new AppError(
        'AUDIO_UNDECODABLE',
        `source subsonic: "${track.artist} - ${track.trackName}" is larger than AUDIO_MAX_BYTES (${this.options.maxAudioBytes} bytes) and the server did not send it transcoded; raise AUDIO_MAX_BYTES`,
        { cause: error },
      );
    }
  }

  /** A recording another source described (MusicBrainz), when the server has a song of that name. */
  async findAudio(track: TrackMetadata, context: SourceCallContext): Promise<AudioRef | undefined> {
    const id = await this.findSong(track, context);
    return id ? { source: SUBSONIC, locator: id } : undefined;
  }

  async findSong(track: TrackMetadata, context: SourceCallContext, options: { strict?: boolean } = {}): Promise<string | undefined> {
    const wanted = { track: track.trackName, artist: track.artist };
    const score = matchScorer(wanted);
    const minScore = options.strict ? 1 : 0.8;
    const best = (songs: readonly SubsonicSong[]): string | undefined =>
      songs
        .flatMap((song) => {
          const c = toCandidate(song, this.options.artworkUrl);
          if (!c || !durationMatches(track.durationMs, c.durationMs)) return [];
          const exact = trackKey(c.artist, c.trackName) === track.trackKey ? 1 : 0;
          const s = score(normalisedNames(c));
          return exact === 1 || s >= minScore ? [{ id: c.sourceId!, exact, score: s, gap: durationGap(track.durationMs, c.durationMs) }] : [];
        })
        .sort((a, b) => b.exact - a.exact || b.score - a.score || a.gap - b.gap || (a.id < b.id ? -1 : 1))[0]?.id;
    const found = best(await this.search3(track.trackName, FIND_COUNT, context));
    if (found) return found;
    // Servers that match the query as a substring of titles (Supysonic) miss "Money" for
    // "Money (2011 Remaster)": the title without its qualifiers is asked as well.
    const plain = plainTitle(track.trackName);
    return plain !== track.trackName && plain !== '' ? best(await this.search3(plain, FIND_COUNT, context)) : undefined;
  }

  async artwork(track: TrackMetadata): Promise<{ mime: string; data: Uint8Array } | undefined> {
    const id = track.audio?.source === SUBSONIC ? track.audio.locator : track.source === SUBSONIC ? track.sourceId : undefined;
    if (!id) return undefined;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let cover = this.covers.get(id);
    if (cover === undefined) {
      const body = await this.client.call('getSong', [['id', id]], signal);
      cover = typeof body.song?.coverArt === 'string' ? body.song.coverArt : '';
      this.covers.set(id, cover);
    }
    if (cover === '') return undefined;
    const data = await this.client.bytes('getCoverArt', [['id', cover], ['size', COVER_SIZE]], { maxBytes: MAX_IMAGE_BYTES, accept: isImageType }, signal);
    return { mime: 'application/octet-stream', data };
  }

  /**
   * Every song the account sees: `search3` with an empty query, a page at a time, where the
   * server answers it (Navidrome, Supysonic, gonic); else every album (`getAlbumList2`, paged)
   * and its songs (`getAlbum`). A song listed twice is given once.
   */
  async *songs(context: SourceCallContext): AsyncIterable<ServerSong[]> {
    const pageSize = this.options.pageSize ?? 500;
    const seen = new Set<string>();
    const fresh = (songs: readonly SubsonicSong[]): ServerSong[] =>
      songs.flatMap((song) => {
        const s = toServerSong(song, this.options.artworkUrl);
        if (!s || seen.has(s.track.sourceId!)) return [];
        seen.add(s.track.sourceId!);
        this.remember(song);
        return [s];
      });
    let bySearch = false;
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.searchPage('', pageSize, offset, context);
      const before = seen.size;
      const songs = fresh(page);
      if (page.length > 0) bySearch = true;
      if (songs.length > 0) yield songs;
      // An empty page ends the walk; so does one with nothing new (a server that ignores the offset).
      if (page.length === 0 || seen.size === before) break;
    }
    if (bySearch) return;
    for (let offset = 0; ; offset += pageSize) {
      const body = await this.client.call('getAlbumList2', [['type', 'alphabeticalByName'], ['size', String(pageSize)], ['offset', String(offset)]], context.signal);
      const albums = body.albumList2?.album ?? [];
      for (const album of albums) {
        if (typeof album.id !== 'string') continue;
        const songs = fresh((await this.client.call('getAlbum', [['id', album.id]], context.signal)).album?.song ?? []);
        if (songs.length > 0) yield songs;
      }
      if (albums.length < pageSize) break;
    }
  }

  /**
   * Saves the playlist: one the account owns by that name has its songs replaced
   * (`createPlaylist` with its id), else one is made; songs past the first 50 are added by
   * `updatePlaylist`, so that no URL grows past what a server takes.
   */
  async savePlaylist(name: string, songIds: readonly string[], context: SourceCallContext): Promise<SavedServerPlaylist> {
    const existing = await this.ownPlaylist(name, context);
    const first = songIds.slice(0, SONGS_PER_CALL).map((id): [string, string] => ['songId', id]);
    const made = await this.client.call('createPlaylist', [...(existing ? [['playlistId', existing] as const] : [['name', name] as const]), ...first], context.signal);
    // Servers of 1.14 and later answer the playlist; older ones answer nothing, and it is looked up.
    const playlistId = existing ?? (typeof made.playlist?.id === 'string' ? made.playlist.id : await this.ownPlaylist(name, context));
    if (!playlistId) throw new AppError('UPSTREAM_INVALID', `source subsonic: the playlist "${name}" was not found after it was made`);
    for (let i = SONGS_PER_CALL; i < songIds.length; i += SONGS_PER_CALL) {
      const more = songIds.slice(i, i + SONGS_PER_CALL).map((id): [string, string] => ['songIdToAdd', id]);
      await this.client.call('updatePlaylist', [['playlistId', playlistId], ...more], context.signal);
    }
    return { playlistId, replaced: existing !== undefined };
  }

  async close(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await this.http.close();
  }

  /** The id of the account's own playlist of that name (the first, if several). */
  private async ownPlaylist(name: string, context: SourceCallContext): Promise<string | undefined> {
    const body = await this.client.call('getPlaylists', [], context.signal);
    const mine = (p: SubsonicPlaylist) => p.owner === undefined || p.owner === this.options.user;
    return (body.playlists?.playlist ?? []).find((p) => p.name === name && mine(p) && typeof p.id === 'string')?.id;
  }

  private async search3(query: string, count: number, context: SourceCallContext): Promise<SubsonicSong[]> {
    const songs = await this.searchPage(query, count, 0, context);
    for (const song of songs) this.remember(song);
    return songs;
  }

  private async searchPage(query: string, count: number, offset: number, context: SourceCallContext): Promise<SubsonicSong[]> {
    const body = await this.client.call(
      'search3',
      [
        ['query', query],
        ['songCount', String(count)],
        ['songOffset', String(offset)],
        ['artistCount', '0'],
        ['albumCount', '0'],
      ],
      context.signal,
    );
    const songs = body.searchResult3?.song;
    return Array.isArray(songs) ? songs : [];
  }

  private remember(song: SubsonicSong): void {
    if (typeof song.id === 'string') this.covers.set(song.id, typeof song.coverArt === 'string' ? song.coverArt : '');
  }
}

/** A failure to reach the server or to be let in, said with what to check (never a credential). */
function describeFailure(error: unknown, baseUrl: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof AppError && /refused the credentials/.test(message)) return message;
  if (error instanceof AppError && (error.code === 'UPSTREAM_TIMEOUT' || /could not be reached|circuit open/.test(message))) {
    return `${baseUrl} could not be reached (${message}); check SUBSONIC_URL and that the server is up`;
  }
  return message;
}

/** The download was refused for its size (AUDIO_MAX_BYTES). */
function isTooLarge(error: unknown): boolean {
  return error instanceof AppError && error.code === 'AUDIO_UNDECODABLE' && isSourceHttpError(error.cause) && error.cause.kind === 'too-large';
}

/** A song gone from the server, said by its name. */
function notFoundSaid(error: unknown, track: TrackMetadata): unknown {
  if (error instanceof AppError && error.code === 'TRACK_NOT_FOUND') {
    return new AppError('TRACK_NOT_FOUND', `"${track.artist} - ${track.trackName}" is no longer on the Subsonic server (${error.message})`, { cause: error });
  }
  return error;
}

/** A title without its parenthesised or bracketed qualifiers and a ` - …` suffix ("Money (2011 Remaster)", "Money - Live"): "Money". */
function plainTitle(title: string): string {
  return title.replace(/\s*[([][^)\]]*[)\]]/g, ' ').replace(/\s+-\s+.*$/, '').replace(/\s+/g, ' ').trim();
}

function durationMatches(wanted: number | undefined, found: number | undefined): boolean {
  if (wanted === undefined || found === undefined) return true;
  return Math.abs(wanted - found) <= Math.max(5000, wanted * 0.05);
}

const durationGap = (a: number | undefined, b: number | undefined): number => (a === undefined || b === undefined ? 0 : Math.abs(a - b));
