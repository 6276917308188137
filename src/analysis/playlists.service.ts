import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invalidArgument } from '../core/errors';
import { checkedTrackKey } from '../core/track-key';
import type { StoredAnalysis, TrackMetadata } from '../core/types';
import type { MusicServerSource } from '../sources/source';
import type { SourceTrackStore } from './store/source-tracks.store';
import type { AnalysisStore } from './store/store';

/** Most tracks a playlist holds (an answer of similar, a path, recommendations or a page holds fewer). */
export const MAX_PLAYLIST_TRACKS = 500;
/** Longest playlist name (it is the file's name). */
export const MAX_PLAYLIST_NAME = 100;

/** Where a stored track's file is in the music folder: its path relative to LIBRARY_DIR, or undefined when it is not a library file. */
export type LibraryLocator = (trackKey: string) => string | undefined;

export interface M3uPlaylist {
  /** The playlist, UTF-8 (M3U8). */
  text: string;
  /** Tracks listed (their files are in the music folder). */
  listed: number;
  /** Tracks left out: not files of the music folder (found through Deezer, another server, an upload not kept). */
  skipped: number;
}

/** Where a playlist is saved: `library`, an M3U8 file in the music folder; `subsonic`, a playlist of the music server. */
export const PLAYLIST_TARGETS = ['library', 'subsonic'] as const;
export type PlaylistTarget = (typeof PLAYLIST_TARGETS)[number];

interface SavedPlaylistFields {
  name: string;
  /** Tracks in the playlist. */
  listed: number;
  /** Tracks left out: not stored, or not files of the music folder (library), or songs the server does not have (subsonic). */
  skipped: number;
  /** True when a playlist of that name was there and was replaced. */
  replaced: boolean;
}

/** A playlist saved into the music folder. */
export interface SavedLibraryPlaylist extends SavedPlaylistFields {
  target: 'library';
  /** The file written, relative to the music folder. */
  file: string;
}

/** A playlist saved into the music server. */
export interface SavedServerPlaylistAnswer extends SavedPlaylistFields {
  target: 'subsonic';
  /** The server's id of the playlist. */
  playlistId: string;
}

export type SavedPlaylist = SavedLibraryPlaylist | SavedServerPlaylistAnswer;

/** What saving into a music server needs: the server (when enabled) and where its song ids are kept. */
export interface PlaylistServers {
  /** The enabled music server of that name, if any. */
  server(name: string): MusicServerSource | undefined;
  songs: SourceTrackStore;
  /** Longest a save into the server may take, lookups included, ms. */
  timeoutMs: number;
}

/** Stored tracks looked up on the server at once, when their song ids are not kept. */
const LOOKUPS_AT_ONCE = 4;

/**
 * Lists of tracks as playlists a music player opens: M3U8 (extended M3U, UTF-8) of the music
 * folder's files, each `#EXTINF:<seconds>,<artist> - <title>` then its path — relative to the
 * music folder, or under `pathPrefix` (PLAYLIST_PATH_PREFIX: where the player sees the folder, a
 * Navidrome container's `/music`, say). Tracks that are not library files are left out and
 * counted. `save` writes one into the music folder, where Navidrome, Jellyfin, MPD and most
 * players pick playlists up; the same name again replaces it.
 */
export class PlaylistService {
  constructor(
    private readonly store: AnalysisStore,
    private readonly locate: LibraryLocator,
    private readonly libraryDir: string,
    private readonly pathPrefix?: string,
    private readonly servers?: PlaylistServers,
  ) {}

  /** The playlist of these analyses, in their order. */
  m3u(tracks: readonly StoredAnalysis[], prefix: string | undefined = this.pathPrefix): M3uPlaylist {
    const lines = ['#EXTM3U'];
    let listed = 0;
    for (const t of tracks) {
      const rel = this.locate(t.trackKey);
      if (rel === undefined) continue;
      const seconds = Math.round(t.features.durationMs / 1000);
      lines.push(`#EXTINF:${seconds},${oneLine(t.artist)} - ${oneLine(t.trackName)}`, entryPath(rel, prefix));
      listed++;
    }
    return { text: `${lines.join('\n')}\n`, listed, skipped: tracks.length - listed };
  }

  /** The playlist of stored tracks named by key, in that order (keys without a stored analysis are skipped). */
  async m3uOfKeys(keys: readonly string[]): Promise<M3uPlaylist> {
    const tracks = await this.tracksOf(keys);
    const playlist = this.m3u(tracks.found);
    return { ...playlist, skipped: playlist.skipped + tracks.missing };
  }

  /**
   * Saves the playlist of `trackKeys` where `target` says: the music folder (saveToLibrary) or
   * the music server (saveToServer).
   */
  save(name: string, trackKeys: readonly string[], target: PlaylistTarget = 'library'): Promise<SavedPlaylist> {
    return target === 'library' ? this.saveToLibrary(name, trackKeys) : this.saveToServer(target, name, trackKeys);
  }

  /**
   * Writes the playlist of `trackKeys` into the music folder as `<name>.m3u8` (paths relative to
   * it, so it plays wherever the folder is mounted), atomically: a temporary file renamed over it.
   */
  async saveToLibrary(name: string, trackKeys: readonly string[]): Promise<SavedLibraryPlaylist> {
    const fileName = `${checkedPlaylistName(name)}.m3u8`;
    const tracks = await this.tracksOf(trackKeys);
    const playlist = this.m3u(tracks.found, undefined);
    const target = path.join(this.libraryDir, fileName);
    await mkdir(this.libraryDir, { recursive: true });
    const replaced = await exists(target);
    const temporary = path.join(this.libraryDir, `.${fileName}.${randomUUID()}.tmp`);
    try {
      await writeFile(temporary, playlist.text, { mode: 0o644 });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { target: 'library', name: name.trim(), file: fileName, listed: playlist.listed, skipped: playlist.skipped + tracks.missing, replaced };
  }

  /**
   * Saves the playlist of `trackKeys` into the music server `target` (SOURCES=subsonic): each
   * stored track's song is the one whose id was kept with its analysis, else the server's song of
   * the same artist and title (looked up, then kept); tracks the server does not have are left out
   * and counted. A playlist of that name the account owns has its songs replaced.
   */
  async saveToServer(target: string, name: string, trackKeys: readonly string[]): Promise<SavedServerPlaylistAnswer> {
    const server = this.servers?.server(target);
    if (!this.servers || !server) {
      throw invalidArgument(`target ${target} is not enabled: add subsonic to SOURCES, with SUBSONIC_URL, SUBSONIC_USER and SUBSONIC_PASSWORD`);
    }
    const title = checkedServerPlaylistName(name);
    const tracks = await this.tracksOf(trackKeys);
    const context = { signal: AbortSignal.timeout(this.servers.timeoutMs) };
    const ids = await this.songIdsOf(server, this.servers.songs, tracks.found, context);
    const songIds = ids.filter((id): id is string => id !== undefined);
    const saved = await server.savePlaylist(title, songIds, context);
    return { target: 'subsonic', name: title, playlistId: saved.playlistId, listed: songIds.length, skipped: tracks.found.length - songIds.length + tracks.missing, replaced: saved.replaced };
  }

  /** The server's song of each track (undefined where it has none), in order. */
  private async songIdsOf(server: MusicServerSource, songs: SourceTrackStore, tracks: readonly StoredAnalysis[], context: { signal: AbortSignal }): Promise<(string | undefined)[]> {
    const kept = await songs.byTrackKeys(server.name, [...new Set(tracks.map((t) => t.trackKey))]);
    const found = new Map<string, string | undefined>([...kept].map(([key, song]) => [key, song.sourceId]));
    const unknown = [...new Map(tracks.filter((t) => !found.has(t.trackKey)).map((t) => [t.trackKey, t])).values()];
    const lookups = [...unknown];
    const lookup = async (): Promise<void> => {
      for (let t = lookups.shift(); t; t = lookups.shift()) {
        const track: TrackMetadata = { trackKey: t.trackKey, artist: t.artist, trackName: t.trackName, durationMs: t.features.durationMs, source: t.source };
        found.set(t.trackKey, await server.findSong(track, context, { strict: true }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, lookups.length) }, lookup));
    const learnt = unknown.flatMap((t) => {
      const id = found.get(t.trackKey);
      return id ? [{ source: server.name, sourceId: id, trackKey: t.trackKey }] : [];
    });
    await songs.put(learnt);
    return tracks.map((t) => found.get(t.trackKey));
  }

  private async tracksOf(trackKeys: readonly string[]): Promise<{ found: StoredAnalysis[]; missing: number }> {
    if (trackKeys.length === 0 || trackKeys.length > MAX_PLAYLIST_TRACKS) throw invalidArgument(`a playlist holds 1 to ${MAX_PLAYLIST_TRACKS} trackKeys`);
    const keys = trackKeys.map(checkedTrackKey);
    const stored = await this.store.getMany(keys, { segments: false });
    const found = keys.flatMap((k) => stored.get(k) ?? []);
    return { found, missing: keys.length - found.length };
  }
}

/** A playlist's name, trimmed: 1–100 characters, none that `refused` matches; INVALID_ARGUMENT saying `rule` otherwise. */
function checkedName(name: unknown, refused: RegExp, rule: string): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (text.length === 0 || text.length > MAX_PLAYLIST_NAME || refused.test(text)) throw invalidArgument(`name must be 1 to ${MAX_PLAYLIST_NAME} characters, ${rule}`);
  return text;
}

/** A playlist's name as a file name: 1–100 characters, none of them a path separator, a control character or one Windows refuses, not starting with a dot. */
export function checkedPlaylistName(name: unknown): string {
  // eslint-disable-next-line no-control-regex
  return checkedName(name, /[\u0000-\u001f\u007f/\\:*?"<>|]|^\./, 'not starting with a dot, without / \\ : * ? " < > | or control characters (it names the playlist\'s file)');
}

/** A playlist's name on a music server: 1–100 characters, no control characters. */
export function checkedServerPlaylistName(name: unknown): string {
  // eslint-disable-next-line no-control-regex
  return checkedName(name, /[\u0000-\u001f\u007f]/, 'without control characters');
}

/** A path of the playlist: the relative path with / separators, under the prefix when one is given. */
function entryPath(rel: string, prefix: string | undefined): string {
  const slashed = rel.split(path.sep).join('/');
  return prefix ? `${prefix.replace(/\/+$/, '')}/${slashed}` : slashed;
}

/** Text on one line (an #EXTINF line ends at a line break). */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
