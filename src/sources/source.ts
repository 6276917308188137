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
export const isClosableSource = (s: Source): s is ClosableSource => typeof (s as ClosableSource).close === 'function';

/** What a source factory may use; the container builds one per process. */
export interface SourceDependencies {
  engine: AnalysisEngine;
}
