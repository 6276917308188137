import { AppError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { AudioInput, AudioRef, TrackCandidate, TrackMetadata } from '../../core/types';
import { matchScore, normaliseText } from '../../core/ranking';
import { HttpClient, passedHttpOptions, type HttpClientOptions, type RateLimit } from '../http/http.client';
import type { SharedQuotas } from '../http/shared-quota';
import { httpStatusOf } from '../http/http.errors';
import type { AudioSource, MetadataSource, SearchQuery, SourceCallContext, ClosableSource, MonitoredSource } from '../source';
import type { IsrcSource } from '../isrc';
import { DeezerClient } from './deezer.client';
import { DEEZER, searchQuery, toCandidate, toCandidates } from './deezer.mapper';

export interface DeezerSourceOptions {
  baseUrl: string;
  /** Longest one call may take, retries included, ms. */
  timeoutMs: number;
  /** Largest preview download accepted, bytes. */
  maxAudioBytes: number;
  /** Deezer allows 50 requests per 5 s per IP. */
  rateLimit?: RateLimit;
  /** Counts `rateLimit` for the whole deployment (Redis); unset: this process only. */
  sharedQuotas?: SharedQuotas;
  retry?: HttpClientOptions['retry'];
  breaker?: HttpClientOptions['breaker'];
  /** Largest JSON answer accepted, bytes (SOURCE_MAX_JSON_BYTES). */
  maxJsonBytes?: number;
  /** Let preview URLs reach private addresses (OUTBOUND_ALLOW_PRIVATE); the API's own origin is always reached. */
  allowPrivate?: boolean;
  /** findAudio: lowest match_score of a Deezer track against the wanted artist and title. Default 0.8. */
  minMatchScore?: number;
  /** findAudio: durations may differ by this much, or by 5 % of the wanted one if more, ms. Default 5000. */
  durationToleranceMs?: number;
  fetch?: typeof fetch;
}

/** Statuses with which Deezer's CDN refuses an expired, signed preview URL. */
const EXPIRED = new Set([403, 410]);

/**
 * Deezer: searched through its public API (no key), audio from the track's 30 s preview MP3.
 * Also finds the preview of a recording another source described (MusicBrainz), by artist,
 * title and duration.
 */
export class DeezerSource implements MetadataSource, AudioSource, IsrcSource, ClosableSource, MonitoredSource {
  readonly name = DEEZER;
  /** Search answers are worth caching: they cost quota and time. */
  readonly cacheSearches = true;
  private readonly http: HttpClient;
  private readonly client: DeezerClient;

  constructor(
    private readonly options: DeezerSourceOptions,
    private readonly logger: Logger,
  ) {
    this.http = new HttpClient({
      name: DEEZER,
      timeoutMs: options.timeoutMs,
      rateLimit: options.rateLimit ?? { max: 50, intervalMs: 5000 },
      // Preview URLs come from Deezer's data: only the API's origin is trusted as configured.
      outbound: { allowPrivate: options.allowPrivate ?? false, trustedOrigins: [options.baseUrl] },
      logger,
      ...passedHttpOptions(options),
    });
    this.client = new DeezerClient(this.http, options.baseUrl);
  }

  async search(query: SearchQuery, context: SourceCallContext): Promise<TrackCandidate[]> {
    const tracks = await this.client.search(searchQuery(query.track, query.artist), query.limit, context.signal);
    // The API honours `limit`, but a proxy or fake might not: the limit is ours to keep.
    return toCandidates(tracks).slice(0, query.limit);
  }

  async fetchAudio(track: TrackMetadata, context: SourceCallContext): Promise<AudioInput> {
    const ref = track.audio;
    if (ref?.source !== DEEZER || !ref.locator) {
      throw new AppError('NO_AUDIO_SOURCE', `track ${track.trackKey} has no Deezer audio`);
    }
    const url = ref.url ?? (await this.freshPreview(ref.locator, track, context));
    try {
      return { bytes: await this.client.preview(url, this.options.maxAudioBytes, context.signal) };
    } catch (error) {
      if (!EXPIRED.has(httpStatusOf(error) ?? 0)) throw error;
      // Preview URLs are signed and expire: ask the API for a fresh one, once.
      this.logger.debug({ source: DEEZER, trackId: ref.locator }, 'preview URL expired; re-resolving');
      const fresh = await this.freshPreview(ref.locator, track, context);
      return { bytes: await this.client.preview(fresh, this.options.maxAudioBytes, context.signal) };
    }
  }

  /**
   * The preview of the Deezer track that is the recording `track` describes: same artist and
   * title (by match_score) and, when both durations are known, a duration within tolerance.
   */
  async findAudio(track: TrackMetadata, context: SourceCallContext): Promise<AudioRef | undefined> {
    const tracks = await this.client.search(searchQuery(track.trackName, track.artist), 10, context.signal);
    const minScore = this.options.minMatchScore ?? 0.8;
    const wanted = { track: track.trackName, artist: track.artist };
    const scored = toCandidates(tracks)
      .filter((c) => c.audio !== undefined && this.durationMatches(track.durationMs, c.durationMs))
      .map((c) => ({
        c,
        score: matchScore(wanted, c),
        // Equal scores ignore versions ("(Remastered)"): the title as written breaks the tie.
        sameTitle: normaliseText(c.trackName) === normaliseText(track.trackName) ? 1 : 0,
        gap: durationGap(track.durationMs, c.durationMs),
      }))
      .filter((s) => s.score >= minScore)
      .sort((a, b) => b.score - a.score || b.sameTitle - a.sameTitle || a.gap - b.gap);
    return scored[0]?.c.audio;
  }

  /** The Deezer track with this ISRC (capitals, no hyphens), with its preview; undefined when Deezer has none. */
  async byIsrc(isrc: string, context: SourceCallContext): Promise<TrackCandidate | undefined> {
    const found = await this.client.trackByIsrc(isrc, context.signal);
    const candidate = found ? toCandidate(found) : undefined;
    return candidate ? { ...candidate, isrc } : undefined;
  }

  health(): string | undefined {
    return this.http.health();
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private durationMatches(wanted: number | undefined, found: number | undefined): boolean {
    if (wanted === undefined || found === undefined) return true;
    const tolerance = Math.max(this.options.durationToleranceMs ?? 5000, wanted * 0.05);
    return Math.abs(wanted - found) <= tolerance;
  }

  private async freshPreview(id: string, track: TrackMetadata, context: SourceCallContext): Promise<string> {
    const found = await this.client.track(id, context.signal);
    const url = found ? toCandidate(found)?.audio?.url : undefined;
    if (!url) throw new AppError('NO_AUDIO_SOURCE', `Deezer has no preview for "${track.artist} - ${track.trackName}"`);
    return url;
  }
}

const durationGap = (a: number | undefined, b: number | undefined): number =>
  a === undefined || b === undefined ? 0 : Math.abs(a - b);
