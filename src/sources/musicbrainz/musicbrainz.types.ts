/**
 * Raw shapes of the MusicBrainz web service v2 recording search
 * (https://musicbrainz.org/doc/MusicBrainz_API/Search), only the fields we read.
 */

export interface MbArtistCredit {
  name: string;
  joinphrase?: string;
  artist?: { id: string; name: string; 'sort-name'?: string };
}

export interface MbReleaseGroup {
  id: string;
  'primary-type'?: string;
  'secondary-types'?: string[];
}

export interface MbRelease {
  id: string;
  title?: string;
  status?: string;
  date?: string;
  country?: string;
  'release-group'?: MbReleaseGroup;
}

export interface MbRecording {
  id: string;
  /** 0–100; older servers sent it as a string. */
  score?: number | string;
  title: string;
  /** Milliseconds; absent when unknown. */
  length?: number | null;
  video?: boolean | null;
  'artist-credit'?: MbArtistCredit[];
  'first-release-date'?: string;
  releases?: MbRelease[];
  isrcs?: string[];
}

export interface MbRecordingSearchResponse {
  created?: string;
  count?: number;
  offset?: number;
  recordings?: MbRecording[];
  /** Set instead of results on some errors. */
  error?: string;
}

/** The ISRC lookup (`/isrc/<ISRC>?inc=artist-credits+releases`): the recordings carrying it. */
export interface MbIsrcResponse {
  isrc?: string;
  recordings?: MbRecording[];
  /** Set instead of recordings on a 404. */
  error?: string;
}

/** A relationship of a URL (`/url?resource=<URL>&inc=recording-rels`) to a recording. */
export interface MbUrlRelation {
  type?: string;
  'type-id'?: string;
  direction?: string;
  'target-type'?: string;
  /** The related recording, without its artists (looked up on its own for them). */
  recording?: MbRecording;
}

/** The URL lookup: the URL entity and its relationships. */
export interface MbUrlResponse {
  id?: string;
  resource?: string;
  relations?: MbUrlRelation[];
  /** Set instead of the entity on a 404 (no such URL in MusicBrainz). */
  error?: string;
}
