import type { AnalysisEngine, AudioInput, StoredAnalysis, TrackCandidate, TrackMetadata } from '../core/types';

/** What a client asked search for, already normalised by the edge ('+' as space, trimmed). */
export interface SearchQuery {
  track: string;
  artist?: string;
  limit: number;
}

/** Per-call context: the caller's abort signal (timeouts, client gone). */
export interface SourceCallContext {
  signal: AbortSignal;
}

/** Every source has a stable name: the one used in SOURCES and stored in AudioRef.source. */
export interface Source {
  readonly name: string;
}

/** A source that can be searched for recordings. */
export interface MetadataSource extends Source {
  search(query: SearchQuery, context: SourceCallContext): Promise<TrackCandidate[]>;
  /** Optional: this source's answers are worth caching per query (remote, quota-bound); the library's are not. */
  readonly cacheSearches?: boolean;
}

/** A source that can turn cached metadata whose `audio.source` is its name into audio. */
export interface AudioSource extends Source {
  fetchAudio(track: TrackMetadata, context: SourceCallContext): Promise<AudioInput>;
  /**
   * Optional: find audio of the same recording described by metadata from another source
   * (artist, title, duration), for metadata-only sources such as MusicBrainz.
   */
  findAudio?(track: TrackMetadata, context: SourceCallContext): Promise<TrackMetadata['audio'] | undefined>;
}

/** A source that serves cover art bytes itself (the library's embedded pictures). */
export interface ArtworkSource extends Source {
  artwork(track: TrackMetadata): Promise<{ mime: string; data: Uint8Array } | undefined>;
}

/** A source that answers analyses itself (another server of this contract). */
export interface AnalysisSource extends Source {
  fetchAnalysis(track: TrackMetadata, context: SourceCallContext): Promise<StoredAnalysis>;
}

/**
 * A source that holds a known set of tracks and can list them and find one by key without a
 * search (the library: its files). Artwork finds a track's metadata through it, and the index
 * command lists what to analyse.
 */
export interface CatalogSource extends Source {
  tracks(): TrackMetadata[];
  lookup(trackKey: string): TrackMetadata | undefined;
}

/** How sources start: `background` lets slow start-up work (indexing a folder) go on after start() returns. */
export interface SourceStartOptions {
  background?: boolean;
}

/** A source holding something to release at shutdown (HTTP clients and their limiters, watchers). */
export interface ClosableSource extends Source {
  close(): Promise<void>;
}

/** Lifecycle hooks a source may need (the library indexes and watches its folder). */
export interface StartableSource extends ClosableSource {
  start(options?: SourceStartOptions): Promise<void>;
  /** Why the source cannot fully answer yet (e.g. "indexing: 120 of 5000 files"), or undefined. */
  pending?(): string | undefined;
}

/** A remote source that knows when it is failing (its circuit breaker is open). */
export interface MonitoredSource extends Source {
  /** Why calls to the source fail at once now (e.g. "circuit open since …: connect ECONNREFUSED"), or undefined. */
  health(): string | undefined;
}

/** One song of a music server, with the marker that changes when its file does. */
export interface ServerSong {
  /** The song as a track: its audio is `{source: <the server source's name>, locator: <the song's id>}`. */
  track: TrackMetadata;
  /** What changes when the song's file changes (its `created` time and size, as the server reports them). */
  version: string;
}

/** What a playlist saved into a music server came to. */
export interface SavedServerPlaylist {
  /** The server's id of the playlist. */
  playlistId: string;
  /** True when a playlist of that name was there and its songs were replaced. */
  replaced: boolean;
}

/**
 * A music server holding the user's library (the Subsonic API: Navidrome, Airsonic, gonic,
 * Supysonic): every song can be listed, a song's id found from its names, and playlists saved
 * into it. Its song ids are kept with the analyses made from them (source_tracks).
 */
export interface MusicServerSource extends Source {
  /** Answers once the server has been reached and has taken the credentials; throws the reason otherwise (a clear, credential-free message). */
  connect(context: SourceCallContext): Promise<void>;
  /** Every song the account can see, a page at a time. */
  songs(context: SourceCallContext): AsyncIterable<ServerSong[]>;
  /**
   * The server's song of a track found elsewhere (by artist, title and duration): its id, or
   * undefined when the server has no song of that name. `strict`: the names must be the same
   * once normalised (a playlist), rather than close (an audio lookup).
   */
  findSong(track: TrackMetadata, context: SourceCallContext, options?: { strict?: boolean }): Promise<string | undefined>;
  /** Saves songs (by id, in order) as the playlist `name`: a playlist of that name the account owns has its songs replaced, else one is made. */
  savePlaylist(name: string, songIds: readonly string[], context: SourceCallContext): Promise<SavedServerPlaylist>;
}

export const isMetadataSource = (s: Source): s is MetadataSource => typeof (s as MetadataSource).search === 'function';
export const isAudioSource = (s: Source): s is AudioSource => typeof (s as AudioSource).fetchAudio === 'function';
export const isArtworkSource = (s: Source): s is ArtworkSource => typeof (s as ArtworkSource).artwork === 'function';
export const isAnalysisSource = (s: Source): s is AnalysisSource =>
  typeof (s as AnalysisSource).fetchAnalysis === 'function';
export const isCatalogSource = (s: Source): s is CatalogSource =>
  typeof (s as CatalogSource).tracks === 'function' && typeof (s as CatalogSource).lookup === 'function';
export const isStartableSource = (s: Source): s is StartableSource =>
  typeof (s as StartableSource).start === 'function';
export const isMonitoredSource = (s: Source): s is MonitoredSource => typeof (s as MonitoredSource).health === 'function';
export const isMusicServerSource = (s: Source): s is MusicServerSource =>
  typeof (s as MusicServerSource).songs === 'function' && typeof (s as MusicServerSource).savePlaylist === 'function';
export const isClosableSource = (s: Source): s is ClosableSource => typeof (s as ClosableSource).close === 'function';

/** What a source factory may use; the container builds one per process. */
export interface SourceDependencies {
  engine: AnalysisEngine;
}
