import type { Logger } from '../../core/logger';
import type { TrackCandidate } from '../../core/types';
import { HttpClient, passedHttpOptions, type HttpClientOptions, type RateLimit } from '../http/http.client';
import type { SharedQuotas } from '../http/shared-quota';
import type { MetadataSource, SearchQuery, SourceCallContext, ClosableSource, MonitoredSource } from '../source';
import type { IsrcSource } from '../isrc';
import { spotifyTrackUrl, type SpotifyLinkSource } from '../spotify-link';
import { MusicBrainzClient } from './musicbrainz.client';
import { MUSICBRAINZ, luceneQuery, toCandidates } from './musicbrainz.mapper';

export interface MusicBrainzSourceOptions {
  baseUrl: string;
  coverArtBaseUrl: string;
  /** Sent as the User-Agent, as MusicBrainz's rules ask: `app/version ( contact )`. */
  userAgent: string;
  timeoutMs: number;
  /** MusicBrainz allows 1 request per second per client. */
  rateLimit?: RateLimit;
  /** Counts `rateLimit` for the whole deployment (Redis); unset: this process only. */
  sharedQuotas?: SharedQuotas;
  retry?: HttpClientOptions['retry'];
  breaker?: HttpClientOptions['breaker'];
  /** Largest JSON answer accepted, bytes (SOURCE_MAX_JSON_BYTES). */
  maxJsonBytes?: number;
  /** Let redirects reach private addresses (OUTBOUND_ALLOW_PRIVATE); the configured origins are always reached. */
  allowPrivate?: boolean;
  fetch?: typeof fetch;
}

/**
 * MusicBrainz: recording search with its own relevance score, artwork from the Cover Art
 * Archive. It has no audio: analysis finds the recording's audio through the audio sources'
 * findAudio (Deezer's, for one).
 */
export class MusicBrainzSource implements MetadataSource, IsrcSource, SpotifyLinkSource, ClosableSource, MonitoredSource {
  readonly name = MUSICBRAINZ;
  readonly cacheSearches = true;
  private readonly http: HttpClient;
  private readonly client: MusicBrainzClient;

  constructor(
    private readonly options: MusicBrainzSourceOptions,
    logger: Logger,
  ) {
    this.http = new HttpClient({
      name: MUSICBRAINZ,
      timeoutMs: options.timeoutMs,
      headers: { 'user-agent': options.userAgent },
      rateLimit: options.rateLimit ?? { max: 1, intervalMs: 1000, maxConcurrent: 1 },
      outbound: { allowPrivate: options.allowPrivate ?? false, trustedOrigins: [options.baseUrl, options.coverArtBaseUrl] },
      logger,
      ...passedHttpOptions(options),
    });
    this.client = new MusicBrainzClient(this.http, options.baseUrl);
  }

  async search(query: SearchQuery, context: SourceCallContext): Promise<TrackCandidate[]> {
    const recordings = await this.client.searchRecordings(luceneQuery(query.track, query.artist), query.limit, context.signal);
    return toCandidates(recordings, this.options.coverArtBaseUrl).slice(0, query.limit);
  }

  /** The recording with this ISRC (capitals, no hyphens), the first MusicBrainz lists; undefined when it has none. */
  async byIsrc(isrc: string, context: SourceCallContext): Promise<TrackCandidate | undefined> {
    const recordings = await this.client.recordingsByIsrc(isrc, context.signal);
    const candidate = toCandidates(recordings, this.options.coverArtBaseUrl)[0];
    return candidate ? { ...candidate, isrc } : undefined;
  }

  /**
   * The recording whose URL relationships include this Spotify track (MusicBrainz's "free
   * streaming" links), the first it lists, with its artists looked up; undefined when MusicBrainz
   * relates no recording to it. Two requests at MusicBrainz's rate.
   */
  async bySpotifyTrack(spotifyId: string, context: SourceCallContext): Promise<TrackCandidate | undefined> {
    const [id] = await this.client.recordingIdsByUrl(spotifyTrackUrl(spotifyId), context.signal);
    if (id === undefined) return undefined;
    const recording = await this.client.recording(id, context.signal);
    return recording ? toCandidates([recording], this.options.coverArtBaseUrl)[0] : undefined;
  }

  health(): string | undefined {
    return this.http.health();
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
