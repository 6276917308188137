/**
 * Raw shapes of the Subsonic API's JSON answers (`f=json`), as Navidrome, Airsonic, gonic and
 * Supysonic send them: every answer is `{"subsonic-response": {status, version, …}}`. Fields
 * beyond Subsonic 1.16.1 are OpenSubsonic's (`type`, `serverVersion`, `openSubsonic`, a song's
 * `isrc` list, `displayArtist`, `mediaType`); older servers leave them out, and Supysonic drops
 * empty lists altogether (an album without songs has no `song` key). Everything is optional here:
 * the mapper checks.
 */

/** A song (Subsonic's `Child` of a file). */
export interface SubsonicSong {
  id?: string;
  isDir?: boolean;
  title?: string;
  album?: string;
  artist?: string;
  /** OpenSubsonic: the artists as one display string. */
  displayArtist?: string;
  /** Seconds. */
  duration?: number;
  coverArt?: string;
  /** Bytes of the file. */
  size?: number;
  suffix?: string;
  contentType?: string;
  /** ISO 8601: when the server added the file. */
  created?: string;
  isVideo?: boolean;
  /** `music`, `podcast`, `audiobook`, `video`. */
  type?: string;
  /** OpenSubsonic: `song`, `album`, `artist`. */
  mediaType?: string;
  /** OpenSubsonic: the recording's ISRCs. */
  isrc?: string[] | string;
  musicBrainzId?: string;
}

export interface SubsonicAlbum {
  id?: string;
  name?: string;
  songCount?: number;
  song?: SubsonicSong[];
}

export interface SubsonicPlaylist {
  id?: string;
  name?: string;
  owner?: string;
  songCount?: number;
  entry?: SubsonicSong[];
}

export interface SubsonicError {
  code?: number;
  message?: string;
}

/** The envelope's body: `status` and `version` always, then the method's own element. */
export interface SubsonicBody {
  /** `ok` or `failed`. */
  status?: string;
  version?: string;
  /** OpenSubsonic servers name themselves. */
  type?: string;
  serverVersion?: string;
  openSubsonic?: boolean;
  error?: SubsonicError;
  searchResult3?: { song?: SubsonicSong[] };
  albumList2?: { album?: SubsonicAlbum[] };
  album?: SubsonicAlbum;
  song?: SubsonicSong;
  playlists?: { playlist?: SubsonicPlaylist[] };
  playlist?: SubsonicPlaylist;
}

export interface SubsonicEnvelope {
  'subsonic-response'?: SubsonicBody;
}

/** The Subsonic API's error codes (Subsonic 1.16.1 and OpenSubsonic). */
export const SUBSONIC_ERRORS = {
  GENERIC: 0,
  MISSING_PARAMETER: 10,
  CLIENT_MUST_UPGRADE: 20,
  SERVER_MUST_UPGRADE: 30,
  WRONG_CREDENTIALS: 40,
  /** Token authentication is not supported for LDAP users. */
  TOKEN_NOT_SUPPORTED: 41,
  /** OpenSubsonic: the authentication mechanism given is not supported. */
  AUTH_NOT_SUPPORTED: 42,
  /** OpenSubsonic: more than one authentication mechanism given. */
  CONFLICTING_AUTH: 43,
  /** OpenSubsonic: an invalid API key. */
  INVALID_API_KEY: 44,
  NOT_AUTHORISED: 50,
  TRIAL_EXPIRED: 60,
  NOT_FOUND: 70,
} as const;
