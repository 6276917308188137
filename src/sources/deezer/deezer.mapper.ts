import type { TrackCandidate } from '../../core/types';
import type { DeezerTrack } from './deezer.types';

export const DEEZER = 'deezer';

/** A Deezer track as a candidate; its audio is the 30 s preview, located by the track id. */
export function toCandidate(track: DeezerTrack): TrackCandidate | undefined {
  const artist = track.artist?.name?.trim();
  const title = track.title?.trim();
  if (!artist || !title || typeof track.id !== 'number') return undefined;
  const cover = track.album?.cover_medium ?? track.album?.cover_big ?? track.album?.cover ?? track.album?.cover_small;
  const preview = track.preview?.trim();
  return {
    artist,
    trackName: title,
    ...(track.album?.title ? { album: track.album.title } : {}),
    ...(typeof track.duration === 'number' && track.duration > 0 ? { durationMs: Math.round(track.duration * 1000) } : {}),
    ...(cover ? { thumbnailUrl: cover } : {}),
    ...(track.isrc ? { isrc: track.isrc } : {}),
    source: DEEZER,
    sourceId: String(track.id),
    ...(preview ? { audio: { source: DEEZER, locator: String(track.id), url: preview } } : {}),
  };
}

export function toCandidates(tracks: readonly DeezerTrack[] | undefined): TrackCandidate[] {
  const out: TrackCandidate[] = [];
  for (const t of tracks ?? []) {
    // Tracks Deezer marks unreadable cannot be played in any country; skip them.
    if (t.readable === false) continue;
    const c = toCandidate(t);
    if (c) out.push(c);
  }
  return out;
}

/**
 * The advanced-search query: `artist:"…" track:"…"` when an artist is given, else the bare
 * title (Deezer matches a bare query against title, artist and album, which suits a title-only
 * search). Double quotes inside values would end the quoted field, so they are dropped.
 */
export function searchQuery(track: string, artist?: string): string {
  const clean = (s: string): string => s.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
  if (artist && artist.trim() !== '') return `artist:"${clean(artist)}" track:"${clean(track)}"`;
  return clean(track);
}
