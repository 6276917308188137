import type { TrackCandidate } from '../../core/types';
import type { MbArtistCredit, MbRecording, MbRelease } from './musicbrainz.types';

export const MUSICBRAINZ = 'musicbrainz';

/** "Artist A feat. Artist B": each credit's name followed by its join phrase. */
export function artistCredit(credits: readonly MbArtistCredit[] | undefined): string {
  return (credits ?? [])
    .map((c) => `${c.name}${c.joinphrase ?? ''}`)
    .join('')
    .trim();
}

/**
 * The release whose cover best stands for the recording: an official album first, then any
 * official release, then whatever comes first. The Cover Art Archive may still have no image
 * for it; the contract warns that thumbnails are inconsistent.
 */
export function coverRelease(releases: readonly MbRelease[] | undefined): MbRelease | undefined {
  const list = releases ?? [];
  const official = list.filter((r) => r.status === undefined || r.status === 'Official');
  return (
    official.find((r) => r['release-group']?.['primary-type'] === 'Album' && (r['release-group']['secondary-types'] ?? []).length === 0) ??
    official[0] ??
    list[0]
  );
}

/** A recording as a candidate: no audio (MusicBrainz has none), artwork from the Cover Art Archive. */
export function toCandidate(recording: MbRecording, coverArtBaseUrl: string): TrackCandidate | undefined {
  const artist = artistCredit(recording['artist-credit']);
  const title = recording.title?.trim();
  if (!artist || !title || !recording.id) return undefined;
  const score = Number(recording.score);
  const release = coverRelease(recording.releases);
  const isrc = recording.isrcs?.[0];
  return {
    artist,
    trackName: title,
    ...(release?.title ? { album: release.title } : {}),
    ...(typeof recording.length === 'number' && recording.length > 0 ? { durationMs: Math.round(recording.length) } : {}),
    ...(release ? { thumbnailUrl: `${coverArtBaseUrl}/release/${release.id}/front-250` } : {}),
    ...(isrc ? { isrc } : {}),
    source: MUSICBRAINZ,
    sourceId: recording.id,
    ...(Number.isFinite(score) ? { sourceScore: Math.min(1, Math.max(0, score / 100)) } : {}),
  };
}

export function toCandidates(recordings: readonly MbRecording[] | undefined, coverArtBaseUrl: string): TrackCandidate[] {
  const out: TrackCandidate[] = [];
  for (const r of recordings ?? []) {
    // Music videos are recordings too, but their audio rarely matches the track's.
    if (r.video === true) continue;
    const c = toCandidate(r, coverArtBaseUrl);
    if (c) out.push(c);
  }
  return out;
}

const LUCENE_SPECIAL = /([+\-&|!(){}[\]^"~*?:\\/])/g;

/** A value for a quoted Lucene phrase: special characters escaped. */
export function escapeLucene(value: string): string {
  return value.replace(/\s+/g, ' ').trim().replace(LUCENE_SPECIAL, '\\$1');
}

/** `recording:"…" AND artist:"…"`, or the recording phrase alone. */
export function luceneQuery(track: string, artist?: string): string {
  const recording = `recording:"${escapeLucene(track)}"`;
  return artist && artist.trim() !== '' ? `${recording} AND artist:"${escapeLucene(artist)}"` : recording;
}
