import type { Logger } from '../../core/logger';
import type { StoredAnalysis, TrackCandidate, TrackMetadata } from '../../core/types';
import { HttpClient, passedHttpOptions, type HttpClientOptions } from '../http/http.client';
import type { AnalysisSource, MetadataSource, SearchQuery, SourceCallContext, ClosableSource, MonitoredSource } from '../source';
import { UpstreamClient } from './upstream.client';
import { UPSTREAM, toCandidates, toStoredAnalysis } from './upstream.mapper';

export interface UpstreamSourceOptions {
  /** The remote contract's {base_url}, ending with /api. */
  baseUrl: string;
  /** Its Bearer key; sent in a header, never logged. */
  apiKey?: string;
  timeoutMs: number;
  /** Longest wait between two polls of a remote analysis in progress, ms. Default 5000. */
  maxPollDelayMs?: number;
  retry?: HttpClientOptions['retry'];
  breaker?: HttpClientOptions['breaker'];
  /** Largest JSON answer accepted, bytes (SOURCE_MAX_JSON_BYTES). */
  maxJsonBytes?: number;
  /** Let redirects reach private addresses (OUTBOUND_ALLOW_PRIVATE); UPSTREAM_URL's origin is always reached. */
  allowPrivate?: boolean;
  fetch?: typeof fetch;
}

/**
 * Another server of this contract: search is forwarded to it, and analyses of its tracks are
 * its own, fetched and stored here. This makes this service a gateway (REST and GraphQL) over
 * a remote contract server.
 */
export class UpstreamSource implements MetadataSource, AnalysisSource, ClosableSource, MonitoredSource {
  readonly name = UPSTREAM;
  readonly cacheSearches = true;
  private readonly http: HttpClient;
  private readonly client: UpstreamClient;

  constructor(options: UpstreamSourceOptions, logger: Logger) {
    this.http = new HttpClient({
      name: UPSTREAM,
      timeoutMs: options.timeoutMs,
      ...(options.apiKey ? { headers: { authorization: `Bearer ${options.apiKey}` } } : {}),
      outbound: { allowPrivate: options.allowPrivate ?? false, trustedOrigins: [options.baseUrl] },
      logger,
      ...passedHttpOptions(options),
    });
    this.client = new UpstreamClient(this.http, { baseUrl: options.baseUrl, maxPollDelayMs: options.maxPollDelayMs ?? 5000 });
  }

  async search(query: SearchQuery, context: SourceCallContext): Promise<TrackCandidate[]> {
    // `limit` is this project's extension of the contract: another server may ignore it.
    return toCandidates(await this.client.search(query.track, query.artist, query.limit, context.signal)).slice(0, query.limit);
  }

  async fetchAnalysis(track: TrackMetadata, context: SourceCallContext): Promise<StoredAnalysis> {
    const key = track.audio?.source === UPSTREAM ? track.audio.locator : track.trackKey;
    const raw = await this.client.analysis(key, track.artist, track.trackName, context.signal);
    return toStoredAnalysis(raw);
  }

  health(): string | undefined {
    return this.http.health();
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
