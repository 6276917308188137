import { DESCRIPTORS, valueOf } from '../core/descriptors';
import { invalidArgument } from '../core/errors';
import { isTrackKey } from '../core/track-key';
import type { StoredAnalysis } from '../core/types';

/*
 * Spotify's audio-features object, field for field, made from a stored analysis. What is measured
 * differently from Spotify is stated per field in docs/FEATURES.md, "Spotify's audio-features shape".
 */

/** The audio-features object (GET /v1/audio-features). */
export interface SpotifyAudioFeatures {
  acousticness: number | null;
  analysis_url: string;
  danceability: number;
  duration_ms: number;
  energy: number;
  id: string;
  instrumentalness: number;
  key: number;
  liveness: number;
  loudness: number;
  mode: number;
  speechiness: number;
  tempo: number;
  time_signature: number;
  track_href: string;
  type: 'audio_features';
  uri: string;
  valence: number;
}

/** The most ids one batch read may name, as Spotify allows. */
export const MAX_SPOTIFY_IDS = 100;

/** An ISRC: two letters, three letters or digits, seven digits (ISO 3901), written without hyphens. */
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/** What an id of the /v1 routes names. */
export type SpotifyId =
  | { kind: 'trackKey'; trackKey: string }
  | { kind: 'isrc'; isrc: string }
  | { kind: 'spotify'; spotifyId: string };

/** A Spotify track id, bare (as spotipy sends every id it was given as a URI or URL) or as a URI: 22 base-62 characters. */
const SPOTIFY_TRACK = /^(?:spotify:track:)?([0-9A-Za-z]{22})$/;
/** A track's open.spotify.com URL: an optional locale segment (intl-de), any query (?si=…). */
const SPOTIFY_TRACK_URL = /^(?:https?:\/\/)?open\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2,4})?\/)?track\/([0-9A-Za-z]{22})\/?(?:[?#].*)?$/i;

/**
 * Reads an id: our trackKey (16 hex, either case), `isrc:<ISRC>` (letters in either case), or a
 * Spotify track id (22 base-62 characters) bare, as `spotify:track:<id>` or in a track's
 * open.spotify.com URL. Anything else is INVALID_ARGUMENT.
 */
export function parseSpotifyId(raw: string): SpotifyId {
  const id = raw.trim();
  if (isTrackKey(id.toLowerCase())) return { kind: 'trackKey', trackKey: id.toLowerCase() };
  if (/^isrc:/i.test(id)) return { kind: 'isrc', isrc: checkedIsrc(id.slice(5)) };
  const spotify = SPOTIFY_TRACK.exec(id) ?? SPOTIFY_TRACK_URL.exec(id);
  if (spotify) return { kind: 'spotify', spotifyId: spotify[1]! };
  throw invalidArgument(`invalid id ${JSON.stringify(id.slice(0, 64))}: a trackKey (16 hex), isrc:<ISRC>, a Spotify track id (22 base-62 characters), spotify:track:<id> or https://open.spotify.com/track/<id>`);
}

/** An ISRC in capitals and without hyphens; INVALID_ARGUMENT unless it has the 12 characters ISO 3901 gives it. */
export function checkedIsrc(raw: string): string {
  const isrc = raw.trim().replace(/-/g, '').toUpperCase();
  if (!ISRC.test(isrc)) {
    throw invalidArgument(`invalid ISRC ${JSON.stringify(raw.slice(0, 32))}: 12 characters, 2 letters, 3 letters or digits, 7 digits (e.g. GBAYE7300100)`);
  }
  return isrc;
}

/** The registry's descriptor Spotify calls acousticness, when the registry has it. */
const ACOUSTICNESS = DESCRIPTORS.find((d) => d.group === 'descriptor' && (d.name as string) === 'acousticness');

/** A descriptor of the features by name (0 when absent: the registry's descriptors are always measured). */
function descriptor(a: StoredAnalysis, name: string): number {
  return valueOf(a.features, { name, group: 'descriptor' }) ?? 0;
}

/** The key as Spotify gives it: the pitch class, or -1 when no key was detected (a key confidence of 0, or no pitch class). */
export function spotifyKey(f: StoredAnalysis['features']): number {
  return Number.isInteger(f.key) && f.key >= 0 && f.key <= 11 && f.confidence.key > 0 ? f.key : -1;
}

/**
 * The audio-features object of a stored analysis. `baseUrl` (no trailing slash) makes its links:
 * track_href is the analysis in the contract's shape, analysis_url its audio-analysis in Spotify's.
 */
export function toSpotifyAudioFeatures(a: StoredAnalysis, baseUrl: string): SpotifyAudioFeatures {
  const f = a.features;
  const acousticness = ACOUSTICNESS ? (valueOf(f, ACOUSTICNESS) ?? null) : null;
  return {
    acousticness,
    analysis_url: `${baseUrl}/v1/audio-analysis/${a.trackKey}`,
    danceability: descriptor(a, 'danceability'),
    duration_ms: Math.round(f.durationMs),
    energy: descriptor(a, 'energy'),
    id: a.trackKey,
    instrumentalness: descriptor(a, 'instrumentalness'),
    key: spotifyKey(f),
    liveness: descriptor(a, 'liveness'),
    loudness: f.loudness,
    mode: f.mode === 1 ? 1 : 0,
    speechiness: descriptor(a, 'speechiness'),
    tempo: f.tempo,
    time_signature: f.timeSignature,
    track_href: `${baseUrl}/api/audio/analysis/${a.trackKey}`,
    type: 'audio_features',
    uri: `trackgraph:track:${a.trackKey}`,
    valence: descriptor(a, 'valence'),
  };
}

/** A track of the recommendations, in the fields of Spotify's (simplified) track object we can fill. */
export interface SpotifyTrack {
  id: string;
  name: string;
  artists: { name: string; type: 'artist' }[];
  duration_ms: number;
  href: string;
  uri: string;
  type: 'track';
}

export function toSpotifyTrack(a: StoredAnalysis, baseUrl: string): SpotifyTrack {
  return {
    id: a.trackKey,
    name: a.trackName,
    artists: [{ name: a.artist, type: 'artist' }],
    duration_ms: Math.round(a.features.durationMs),
    href: `${baseUrl}/api/audio/analysis/${a.trackKey}`,
    uri: `trackgraph:track:${a.trackKey}`,
    type: 'track',
  };
}
