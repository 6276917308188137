import { trackKey } from '../../core/track-key';
import type { TrackCandidate, TrackMetadata } from '../../core/types';
import type { ServerSong } from '../source';
import { SUBSONIC } from './subsonic.client';
import type { SubsonicSong } from './subsonic.types';

/** The longest duration a song may have and still count (a day), ms. */
const MAX_DURATION_MS = 86_400_000;

/** Whether a Child is a playable song (not a folder, a video or a podcast). */
function isSong(song: SubsonicSong): boolean {
  if (song.isDir === true || song.isVideo === true) return false;
  if (song.type !== undefined && song.type !== 'music') return false;
  if (song.mediaType !== undefined && song.mediaType !== 'song') return false;
  return typeof song.id === 'string' && song.id !== '';
}

/** The artist as players show it: the song's artist, else OpenSubsonic's display string. */
function artistOf(song: SubsonicSong): string | undefined {
  for (const value of [song.artist, song.displayArtist]) if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

/** The first ISRC a song carries (OpenSubsonic sends a list; a lax server one string), without hyphens. */
function isrcOf(song: SubsonicSong): string | undefined {
  const values = Array.isArray(song.isrc) ? song.isrc : typeof song.isrc === 'string' ? [song.isrc] : [];
  const first = values.find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return first?.replace(/-/g, '').trim().toUpperCase();
}

/**
 * A song as a search candidate: artist, title, album, its own duration (seconds → ms), its ISRC
 * where the server knows it, and the thumbnail `artworkUrl` makes (this server's signed route,
 * never the server's URL, which would carry the credentials) when the song has cover art.
 * Undefined for what is not a song or lacks an artist or a title.
 */
export function toCandidate(song: SubsonicSong, artworkUrl: (trackKey: string) => string): TrackCandidate | undefined {
  if (!isSong(song)) return undefined;
  const artist = artistOf(song);
  const title = typeof song.title === 'string' ? song.title.trim() : '';
  if (!artist || title === '') return undefined;
  const durationMs = typeof song.duration === 'number' && Number.isFinite(song.duration) && song.duration > 0 ? Math.round(song.duration * 1000) : undefined;
  const isrc = isrcOf(song);
  const id = song.id!;
  return {
    artist,
    trackName: title,
    ...(typeof song.album === 'string' && song.album.trim() !== '' ? { album: song.album.trim() } : {}),
    ...(durationMs !== undefined && durationMs <= MAX_DURATION_MS ? { durationMs } : {}),
    ...(typeof song.coverArt === 'string' && song.coverArt !== '' ? { thumbnailUrl: artworkUrl(trackKey(artist, title)) } : {}),
    ...(isrc ? { isrc } : {}),
    source: SUBSONIC,
    sourceId: id,
    audio: { source: SUBSONIC, locator: id },
  };
}

/** A song as a track with its key. */
export function toTrack(song: SubsonicSong, artworkUrl: (trackKey: string) => string): TrackMetadata | undefined {
  const candidate = toCandidate(song, artworkUrl);
  return candidate ? { ...candidate, trackKey: trackKey(candidate.artist, candidate.trackName) } : undefined;
}

/**
 * A song of the whole library with its marker of change: when the server added the file and its
 * size (a file replaced in place changes either).
 */
export function toServerSong(song: SubsonicSong, artworkUrl: (trackKey: string) => string): ServerSong | undefined {
  const track = toTrack(song, artworkUrl);
  if (!track) return undefined;
  const created = typeof song.created === 'string' ? song.created : '';
  const size = typeof song.size === 'number' && Number.isFinite(song.size) ? String(song.size) : '';
  return { track, version: `${created}|${size}` };
}
