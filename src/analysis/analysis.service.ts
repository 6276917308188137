import { AppError, invalidArgument } from '../core/errors';
import type { AnalysisRequestListener } from '../core/observers';
import { checkedTrackKey, trackKey as computeTrackKey } from '../core/track-key';
import type { StoredAnalysis, TrackLookup, TrackMetadata } from '../core/types';
import type { MetadataCache } from '../search/metadata-cache';
import type { AnalysisJobs } from './jobs/jobs';
import type { AnalysisStore, ReadOptions } from './store/store';

/** The most keys one batch read may ask for. */
export const MAX_BATCH_KEYS = 100;

export type AnalysisOutcome =
  | { status: 'done'; analysis: StoredAnalysis }
  | { status: 'queued' | 'processing'; queuePosition: number; retryAfterS: number };

/** Where a key stands (outcome undefined: nothing is known of it), with the key as stored. */
export interface KeyStatus {
  trackKey: string;
  outcome: AnalysisOutcome | undefined;
}

/** Finds the track a key names when no analysis is stored yet (search's resolve). */
export interface TrackResolver {
  resolve(trackKey: string, artist: string, track: string): Promise<TrackMetadata | undefined>;
}

export interface AnalysisServiceOptions {
  /** How long a caller waits for a running analysis before being told to come back, ms. */
  waitMs: number;
  /** Told of every request that needs an analysis not stored yet, with the requester's id. */
  requestListeners?: readonly AnalysisRequestListener[];
  /**
   * Sources that know their own tracks by key (the library): asked when search's metadata of a
   * key is missing (expired, the cache unreachable, or written by a node whose write was lost).
   */
  catalogue?: readonly TrackLookup[];
}

/**
 * What does it sound like? Looks in order: the store; the search metadata cache, else a source
 * that knows the key itself (analyse, persist, answer); the artist and title the caller gave,
 * resolved like a search; otherwise the key is unknown. Analyses of one key are shared by every
 * caller (the jobs coalesce).
 */
export class AnalysisService {
  constructor(
    private readonly store: AnalysisStore,
    private readonly metadata: MetadataCache,
    private readonly resolver: TrackResolver,
    private readonly jobs: AnalysisJobs,
    private readonly options: AnalysisServiceOptions,
  ) {}

  /**
   * The analysis of a key (hex, either case). `requesterId` (the API key's id) is handed to the
   * request listeners when the analysis has to be computed (started or joined).
   */
  async analysis(key: string, hint?: { artist?: string; track?: string }, requesterId?: string): Promise<AnalysisOutcome> {
    const trackKey = checkedTrackKey(key);
    const stored = await this.store.get(trackKey);
    if (stored) return { status: 'done', analysis: stored };
    const track = await this.locate(trackKey, hint);
    await this.tell(trackKey, requesterId);
    return this.await(track);
  }

  /**
   * The analysis of a track the caller brings with its audio (an upload): the stored one, else
   * analysed like any other (request listeners told, 202 past ANALYSIS_WAIT_MS).
   */
  async analysisOf(track: TrackMetadata, requesterId?: string): Promise<AnalysisOutcome> {
    const stored = await this.store.get(track.trackKey);
    if (stored) return { status: 'done', analysis: stored };
    await this.tell(track.trackKey, requesterId);
    return this.await(track);
  }

  private async tell(trackKey: string, requesterId: string | undefined): Promise<void> {
    if (requesterId !== undefined && this.options.requestListeners?.length) {
      await Promise.all(this.options.requestListeners.map((listener) => Promise.resolve(listener.analysisRequested(trackKey, requesterId))));
    }
  }

  /**
   * Stored analyses only, positional: null where a key has none. One store read; `options` as
   * the store's (`{ segments: false }` for a reader that only asks what is stored).
   */
  async storedMany(keys: readonly string[], options?: ReadOptions): Promise<(StoredAnalysis | null)[]> {
    if (keys.length > MAX_BATCH_KEYS) {
      throw invalidArgument(`at most ${MAX_BATCH_KEYS} track keys per request (got ${keys.length})`);
    }
    const trackKeys = keys.map(checkedTrackKey);
    const found = await this.store.getMany(trackKeys, options);
    return trackKeys.map((k) => found.get(k) ?? null);
  }

  /**
   * The analysis of a track whose metadata the caller already holds (the index CLI has it from
   * the library): the stored one, else analysed by the jobs (whose task reads the store first),
   * waited for however long that takes. Unlike analysis(), nothing is looked up and no caller is
   * told to come back later.
   */
  analyseTrack(track: TrackMetadata): Promise<StoredAnalysis> {
    return this.jobs.submit(track);
  }

  /** State of a key: stored, being analysed, or unknown (outcome undefined); with the key as stored. */
  async status(key: string): Promise<KeyStatus> {
    const trackKey = checkedTrackKey(key);
    const stored = await this.store.get(trackKey);
    if (stored) return { trackKey, outcome: { status: 'done', analysis: stored } };
    const job = await this.jobs.status(trackKey);
    const outcome: AnalysisOutcome | undefined = job
      ? { status: job.state, queuePosition: job.queuePosition, retryAfterS: this.retryAfterS() }
      : undefined;
    return { trackKey, outcome };
  }

  private async locate(trackKey: string, hint?: { artist?: string; track?: string }): Promise<TrackMetadata> {
    const known = await this.metadata.find(trackKey, this.options.catalogue);
    if (known) return known;
    const artist = hint?.artist?.trim();
    const track = hint?.track?.trim();
    if (artist && track) {
      if (computeTrackKey(artist, track) !== trackKey) {
        throw invalidArgument('artist and track do not match trackKey (trackKey = first 16 hex of sha256(lower(trim(artist)):lower(trim(track))))',
        );
      }
      const resolved = await this.resolver.resolve(trackKey, artist, track);
      if (resolved) return resolved;
      throw new AppError('TRACK_NOT_FOUND', `no source has "${artist} - ${track}"`);
    }
    throw new AppError(
      'TRACK_NOT_FOUND',
      `unknown trackKey ${trackKey}: search for the track first (GET /api/audio/search?track=…&artist=…) or pass artist and track`,
    );
  }

  private async await(track: TrackMetadata): Promise<AnalysisOutcome> {
    const job = this.analyseTrack(track);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.waitMs);
    });
    try {
      const result = await Promise.race([job, timeout]);
      if (result !== 'timeout') return { status: 'done', analysis: result };
    } finally {
      clearTimeout(timer);
    }
    // The job goes on; its eventual failure is the job's to log, not this caller's.
    job.catch(() => undefined);
    const state = await this.jobs.status(track.trackKey);
    // No pending job: it settled between the timeout and the status check.
    if (!state) return { status: 'done', analysis: await job };
    return { status: state.state, queuePosition: state.queuePosition, retryAfterS: this.retryAfterS() };
  }

  private retryAfterS(): number {
    return Math.max(1, Math.min(30, Math.ceil(this.options.waitMs / 4000)));
  }
}

