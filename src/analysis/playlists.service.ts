import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invalidArgument } from '../core/errors';
import { checkedTrackKey } from '../core/track-key';
import type { StoredAnalysis } from '../core/types';
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

export interface SavedPlaylist {
  /** Where it went: `library`, the music folder. */
  target: 'library';
  name: string;
  /** The file written, relative to the music folder. */
  file: string;
  listed: number;
  skipped: number;
  /** True when a playlist of that name was there and was replaced. */
  replaced: boolean;
}

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
   * Writes the playlist of `trackKeys` into the music folder as `<name>.m3u8` (paths relative to
   * it, so it plays wherever the folder is mounted), atomically: a temporary file renamed over it.
   */
  async save(name: string, trackKeys: readonly string[]): Promise<SavedPlaylist> {
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

  private async tracksOf(trackKeys: readonly string[]): Promise<{ found: StoredAnalysis[]; missing: number }> {
    if (trackKeys.length === 0 || trackKeys.length > MAX_PLAYLIST_TRACKS) throw invalidArgument(`a playlist holds 1 to ${MAX_PLAYLIST_TRACKS} trackKeys`);
    const keys = trackKeys.map(checkedTrackKey);
    const stored = await this.store.getMany(keys, { segments: false });
    const found = keys.flatMap((k) => stored.get(k) ?? []);
    return { found, missing: keys.length - found.length };
  }
}

/** A playlist's name as a file name: 1–100 characters, none of them a path separator, a control character or one Windows refuses, not starting with a dot. */
export function checkedPlaylistName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  // eslint-disable-next-line no-control-regex
  if (text.length === 0 || text.length > MAX_PLAYLIST_NAME || /[\u0000-\u001f\u007f/\\:*?"<>|]/.test(text) || text.startsWith('.')) {
    throw invalidArgument(`name must be 1 to ${MAX_PLAYLIST_NAME} characters, not starting with a dot, without / \\ : * ? " < > | or control characters (it names the playlist's file)`);
  }
  return text;
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
