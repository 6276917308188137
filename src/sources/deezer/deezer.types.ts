/**
 * Raw shapes of the Deezer public API (https://developers.deezer.com/api), only the fields
 * we read. Deezer reports errors as HTTP 200 with an `error` object instead of `data`.
 */

export interface DeezerError {
  type: string;
  message: string;
  /** 4 = quota exceeded, 800 = no data, 700 = service busy, … */
  code: number;
}

export interface DeezerArtist {
  id: number;
  name: string;
}

export interface DeezerAlbum {
  id: number;
  title: string;
  cover?: string;
  cover_small?: string;
  cover_medium?: string;
  cover_big?: string;
  cover_xl?: string;
}

export interface DeezerTrack {
  id: number;
  readable?: boolean;
  title: string;
  title_short?: string;
  title_version?: string;
  /** Seconds. */
  duration?: number;
  /** A 30 s MP3; signed, so it expires. Empty when Deezer has no preview. */
  preview?: string;
  isrc?: string;
  artist: DeezerArtist;
  album?: DeezerAlbum;
  type?: string;
}

export interface DeezerSearchResponse {
  data?: DeezerTrack[];
  total?: number;
  next?: string;
  error?: DeezerError;
}

/** GET /track/{id}: the track itself, or `{error}`. */
export type DeezerTrackResponse = Partial<DeezerTrack> & { error?: DeezerError };
