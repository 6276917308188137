import type { Logger as PinoLogger } from 'pino';
import type { AnalysisService } from '../analysis/analysis.service';
import type { BrowseService } from '../analysis/browse.service';
import type { SoundService } from '../analysis/sound.service';
import type { SoundMapService } from '../analysis/sound-map.service';
import type { PlaylistService } from '../analysis/playlists.service';
import type { AnalysisEvents } from '../analysis/events/analysis-events.channel';
import type { QueueConsumer } from '../analysis/jobs/bullmq.consumer';
import type { AnalysisJobs } from '../analysis/jobs/jobs';
import type { ReanalyseService } from '../analysis/reanalyse.service';
import type { RecommendationsService } from '../analysis/recommendations.service';
import type { AnalysisRunner } from '../analysis/analysis.runner';
import type { AnalysisStore } from '../analysis/store/store';
import type { SourceTrackStore } from '../analysis/store/source-tracks.store';
import type { ArtworkService } from '../artwork/artwork.service';
import type { ApiKeyService } from '../auth/api-keys';
import type { Config } from '../config';
import type { AnalysisEngine } from '../core/types';
import type { Database } from '../db/database';
import type { DependencyCheck } from '../ops/health';
import type { Metrics } from '../ops/metrics';
import type { ApiRateLimiter } from '../ops/rate-limit';
import type { MetadataCache } from '../search/metadata-cache';
import type { SearchService } from '../search/search.service';
import type { SourceRegistry } from '../sources/registry';
import type { SourceStartOptions } from '../sources/source';
import type { UploadFetcher } from '../uploads/upload.fetcher';
import type { UploadService } from '../uploads/upload.service';
import type { UsageService } from '../usage/usage.service';
import type { WebhookDispatcher } from '../webhooks/webhook.dispatcher';
import type { WebhookService } from '../webhooks/webhook.service';
import type { SourcesOverride } from './catalogue.compose';

/** Everything a process needs, built once from the validated config. */
export interface Container {
  config: Config;
  logger: PinoLogger;
  database: Database;
  store: AnalysisStore;
  engine: AnalysisEngine;
  registry: SourceRegistry;
  metadata: MetadataCache;
  search: SearchService;
  analysis: AnalysisService;
  /** Browsing stored analyses: tracks() and similar(). */
  browse: BrowseService;
  /** Similarity by sound and paths between tracks. */
  sound: SoundService;
  /** The map of the library: the sound embeddings projected onto the plane, kept and recomputed as analyses arrive. */
  soundMap: SoundMapService;
  /** Playlists of the music folder's files, and saved into the music server. */
  playlists: PlaylistService;
  /** Music servers' song ids, kept with the analyses made from them. */
  sourceTracks: SourceTrackStore;
  /** Recommendations by target over the stored analyses. */
  recommendations: RecommendationsService;
  runner: AnalysisRunner;
  /** Re-analysis of what an older engine or another method made. */
  reanalyse: ReanalyseService;
  jobs: AnalysisJobs;
  artwork: ArtworkService;
  apiKeys: ApiKeyService;
  /** Requests and analyses per key per day. */
  usage: UsageService;
  /** This process's Prometheus metrics. */
  metrics: Metrics;
  /** Requests per minute per API key; shared through Redis when CACHE_URL or QUEUE_URL is redis. */
  rateLimiter: ApiRateLimiter;
  /** What /readyz checks. */
  readiness: DependencyCheck[];
  /** The BullMQ consumer, in the worker role only. */
  worker?: QueueConsumer;
  /** "An analysis ended", heard by every process of the deployment (Redis pub/sub when Redis is configured). */
  events: AnalysisEvents;
  /** Webhooks of API keys and the deliveries of analysis events to them. */
  webhooks: WebhookService;
  /** Analyses of the audio users upload (POST /api/audio/analyses). */
  uploads: UploadService;
  /** Analyses of audio URLs (POST /api/audio/analyses with {"url"}, the analyseUrl mutation). */
  uploadFetcher: UploadFetcher;
  /** Sends the due webhook deliveries, in the api role only. */
  webhookDispatcher?: WebhookDispatcher;
  /**
   * Indexes the library and starts watchers (and, in the worker role, starts taking jobs). With
   * `background`, the library is indexed after start() returns (readiness says how far it got).
   */
  start(options?: SourceStartOptions): Promise<void>;
  /** Writes the usage counts and keys' last uses held in memory now (they are written every USAGE_FLUSH_MS anyway). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface ContainerOverrides {
  /** `api` (default): serves HTTP and submits jobs. `worker`: runs the BullMQ jobs (needs QUEUE_URL). */
  role?: 'api' | 'worker';
  logger?: PinoLogger;
  engine?: AnalysisEngine;
  /** Replaces the sources SOURCES names (tests). */
  sources?: SourcesOverride;
  /** The webhooks' clock, ms since the epoch (tests of the retry schedule). */
  now?: () => number;
}

