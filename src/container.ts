import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { createApp } from './http/app';
import { restGate } from './http/auth';
import { createGraphQL } from './http/graphql/apollo.server';
import { createSubscriptionServer } from './http/graphql/subscriptions.server';
import { AnalysisRunner } from './analysis/analysis.runner';
import { AnalysisService } from './analysis/analysis.service';
import { BrowseService } from './analysis/browse.service';
import { SpotifyFeaturesService } from './analysis/spotify-features.service';
import { IsrcLookup } from './search/isrc-lookup';
import { RecommendationsService } from './analysis/recommendations.service';
import { announcing, LocalAnalysisEvents, type AnalysisEvents } from './analysis/events/analysis-events';
import { RedisAnalysisEvents } from './analysis/events/redis.analysis-events';
import { BullmqJobs } from './analysis/jobs/bullmq.jobs';
import { AnalysisWorker } from './analysis/jobs/bullmq.worker';
import { InProcessJobs } from './analysis/jobs/in-process.jobs';
import type { AnalysisJobs } from './analysis/jobs/jobs';
import { CachedAnalysisStore } from './analysis/store/cached.store';
import { SqlAnalysisStore } from './analysis/store/sql.store';
import type { AnalysisStore } from './analysis/store/store';
import { SqlTracksQuery } from './analysis/store/tracks.query';
import { ArtworkService } from './artwork/artwork.service';
import { SqlApiKeyStore } from './auth/api-key.store';
import { ApiKeyService } from './auth/api-keys';
import { RedisKeyChangeChannel } from './auth/key-changes.channel';
import type { Config } from './config';
import { createLogger } from './core/logger';
import type { AnalysisEngine, TrackCandidate, TrackMetadata } from './core/types';
import { openDatabase, type Database } from './db/database';
import { migrateToLatest } from './db/migrations';
import { EnginePool, createEnginePool } from './engine/engine.pool';
import { OutboundGuard } from './net/outbound.guard';
import { Degraded, StillStarting, type DependencyCheck } from './ops/health';
import { Metrics } from './ops/metrics';
import { ApiRateLimiter, GraphQLCharges } from './ops/rate-limit';
import { SharedRedis, isRedisUrl, redisOptions, sharedRedisUrl } from './ops/redis';
import { BestEffortCache, createCacheBackend } from './search/keyv-store';
import { MetadataCache } from './search/metadata-cache';
import { SearchService } from './search/search.service';
import { createSources } from './sources/factory';
import { SharedQuotas } from './sources/http/shared-quota';
import { SourceRegistry } from './sources/registry';
import type { Source, StartOptions } from './sources/source';
import { FlushSchedule } from './usage/flush.schedule';
import { RedisUsageRelay } from './usage/redis.usage';
import { UsageService } from './usage/usage.service';
import { SqlUsageStore } from './usage/usage.store';
import { WebhookDispatcher } from './webhooks/webhook.dispatcher';
import { SecretBox } from './webhooks/webhook.secrets';
import { WebhookSender } from './webhooks/webhook.sender';
import { WebhookService } from './webhooks/webhook.service';
import { SqlWebhookStore } from './webhooks/webhook.store';

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
  /** Recommendations by target over the stored analyses. */
  recommendations: RecommendationsService;
  runner: AnalysisRunner;
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
  worker?: AnalysisWorker;
  /** "An analysis ended", heard by every process of the deployment (Redis pub/sub when Redis is configured). */
  events: AnalysisEvents;
  /** Webhooks of API keys and the deliveries of analysis events to them. */
  webhooks: WebhookService;
  /** Sends the due webhook deliveries, in the api role only. */
  webhookDispatcher?: WebhookDispatcher;
  /**
   * Indexes the library and starts watchers (and, in the worker role, starts taking jobs). With
   * `background`, the library is indexed after start() returns (readiness says how far it got).
   */
  start(options?: StartOptions): Promise<void>;
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
  sources?: (deps: { engine: AnalysisEngine; artworkUrl: (key: string) => string }) => Source[];
  /** The webhooks' clock, ms since the epoch (tests of the retry schedule). */
  now?: () => number;
}

/**
 * The composition root: the only module that picks concrete implementations. Embedded default:
 * SQLite store and Keyv cache under DATA_DIR, the library source, an in-process worker pool.
 */
export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const role = overrides.role ?? 'api';
  const logger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  mkdirSync(config.dataDir, { recursive: true });
  const queueUrl = isRedisUrl(config.QUEUE_URL) ? config.QUEUE_URL : undefined;
  if (config.QUEUE_URL && !queueUrl) throw new Error('QUEUE_URL: expected a redis:// or rediss:// URL');
  if (role === 'worker' && !queueUrl) throw new Error('the worker role needs QUEUE_URL=redis://…');

  const database = openDatabase(config.DATABASE_URL, config.dataDir, config.DATABASE_SCHEMA);
  await migrateToLatest(database);
  // Stored analyses never change, so a process-local LRU in front of the store is always right.
  const store = new CachedAnalysisStore(new SqlAnalysisStore(database), config.ANALYSIS_CACHE_ENTRIES);

  // jobs is made below; the metric reads it only once the container is built.
  const metrics = new Metrics({ role, queueCounts: () => jobs.counts() });

  const cache = createCacheBackend(config.CACHE_URL, config.dataDir);
  // One namespace per purpose; on a shared Redis the prefix keeps deployments (and test runs) apart.
  const cacheNamespace = <T>(purpose: string): BestEffortCache<T> =>
    new BestEffortCache<T>(
      cache.store,
      cache.kind === 'redis' ? `${config.REDIS_PREFIX}:${purpose}` : purpose,
      config.SEARCH_CACHE_TTL_S * 1000,
      logger,
      metrics.cacheObserver(),
    );
  const metadata = new MetadataCache(cacheNamespace<TrackMetadata>('meta'));
  // Answers of remote sources per normalised query (the library is cheap to ask and changes).
  const searchResponses = cacheNamespace<TrackCandidate[]>('search');

  const engine =
    overrides.engine ??
    createEnginePool({
      workers: config.ANALYSIS_WORKERS,
      timeoutMs: config.ANALYSIS_TIMEOUT_MS,
      windowSeconds: config.ANALYSIS_WINDOW_S,
      ...(config.MODELS_DIR ? { modelsDir: path.resolve(config.MODELS_DIR), modelsRequired: config.MODELS_REQUIRED, modelsPatches: config.MODELS_PATCHES } : {}),
      logger,
    });

  if ((queueUrl || database.dialect === 'postgres') && !config.ARTWORK_SECRET) {
    logger.warn({}, 'ARTWORK_SECRET is unset in a shared deployment: artwork URLs signed by this node fail on the others');
  }
  const secret = artworkSecret(config);
  // artwork is made below (it needs the registry these sources go into); URLs are made later.
  const artworkUrl = (key: string): string => artwork.url(key);
  // Scaled out, every process shares one Redis through two connections (SharedRedis): API nodes
  // and workers count the catalogues' quotas together there and hear each other's events.
  const sharedRedisAt = sharedRedisUrl(config);
  const redis = sharedRedisAt ? new SharedRedis(sharedRedisAt, logger, config.REDIS_PREFIX) : undefined;
  const quotaRedis = redis && !overrides.sources && config.SOURCES.some((name) => name === 'deezer' || name === 'musicbrainz') ? redis.commands : undefined;
  const sharedQuotas = quotaRedis ? new SharedQuotas(quotaRedis, config.REDIS_PREFIX) : undefined;
  const sources = metrics.instrumentSources(
    overrides.sources
      ? overrides.sources({ engine, artworkUrl })
      : createSources(config, { engine, logger, artworkUrl, ...(sharedQuotas ? { sharedQuotas } : {}) }),
  );
  const registry = new SourceRegistry(sources);
  const artwork = new ArtworkService(registry, metadata, registry.catalogSources(), secret, config.publicUrl, logger);

  const search = new SearchService(
    registry,
    metadata,
    // A track without a picture of its own gets its placeholder's URL.
    { sourceTimeoutMs: config.SOURCE_TIMEOUT_MS, responseCache: searchResponses, thumbnailUrl: artworkUrl },
    logger,
  );
  const runner = new AnalysisRunner(registry, engine, store, { fetchTimeoutMs: config.SOURCE_TIMEOUT_MS * 4 }, logger);
  const task = metrics.timeTask(runner.run);
  const connection = queueUrl ? redisOptions(queueUrl) : undefined;
  // Analysis events reach every process through Redis when there is one (several nodes).
  const events: AnalysisEvents = redis ? new RedisAnalysisEvents(redis, config.REDIS_PREFIX, logger) : new LocalAnalysisEvents(logger);
  const jobs: AnalysisJobs = connection
    ? new BullmqJobs(store, { connection, prefix: config.REDIS_PREFIX }, logger)
    : new InProcessJobs(announcing(task, events), config.ANALYSIS_WORKERS * 2);
  const worker =
    role === 'worker' && connection
      ? new AnalysisWorker(
          task,
          {
            connection,
            prefix: config.REDIS_PREFIX,
            concurrency: config.WORKER_CONCURRENCY ?? config.ANALYSIS_WORKERS,
            lockMs: config.WORKER_LOCK_MS,
            events,
          },
          logger,
        )
      : undefined;
  // API nodes count usage and tell each other of keys made and revoked through Redis when scaled out; workers serve no requests.
  const apiRedis = role === 'api' ? redis : undefined;
  const usage: UsageService = new UsageService(new SqlUsageStore(database), { list: () => apiKeys.list() }, {
    ...(apiRedis ? { relay: new RedisUsageRelay(apiRedis.commands, config.REDIS_PREFIX) } : {}),
  });
  const apiKeys: ApiKeyService = new ApiKeyService(new SqlApiKeyStore(database), {
    envKeys: { read: config.API_KEYS, admin: config.ADMIN_API_KEYS },
    requestListeners: [usage],
    logger,
    ...(apiRedis ? { changes: new RedisKeyChangeChannel(apiRedis, config.REDIS_PREFIX) } : {}),
  });
  const flushes = new FlushSchedule(
    [
      { name: 'usage counts', run: () => usage.flush() },
      { name: "API keys' last uses", run: () => apiKeys.flushLastUsed() },
    ],
    config.USAGE_FLUSH_MS,
    logger,
  );
  // Webhooks: every process records the deliveries of the events it hears (once per webhook,
  // whoever hears them); API nodes send them.
  if (role === 'api' && (queueUrl || database.dialect === 'postgres') && !config.WEBHOOK_SECRET_KEY) {
    logger.warn({}, 'WEBHOOK_SECRET_KEY is unset in a shared deployment: webhooks made on this node cannot be signed by the others');
  }
  const webhookStore = new SqlWebhookStore(database);
  const webhookSecrets = new SecretBox(webhookSecretKey(config));
  const webhookOutbound = new OutboundGuard({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE });
  let webhookDispatcher: WebhookDispatcher | undefined;
  const webhooks = new WebhookService(webhookStore, webhookSecrets, webhookOutbound, logger, {
    ...(overrides.now ? { now: overrides.now } : {}),
    onDeliveries: () => webhookDispatcher?.kick(),
  });
  if (role === 'api') {
    webhookDispatcher = new WebhookDispatcher(
      webhookStore,
      webhooks,
      new WebhookSender(webhookOutbound, { timeoutMs: config.WEBHOOK_TIMEOUT_MS }),
      webhookSecrets,
      { maxFailures: config.WEBHOOK_MAX_FAILURES, timeoutMs: config.WEBHOOK_TIMEOUT_MS, ...(overrides.now ? { now: overrides.now } : {}) },
      logger,
    );
  }
  const stopHearingEvents = events.subscribe(webhooks.analysisEnded);
  const dispatcher = webhookDispatcher;
  const analysis = new AnalysisService(store, metadata, search, jobs, { waitMs: config.ANALYSIS_WAIT_MS, requestListeners: [usage, webhooks] });
  const browse = new BrowseService(new SqlTracksQuery(database), store);
  const recommendations = new RecommendationsService(new SqlTracksQuery(database), store);
  // Workers serve no API requests: their limiter stays in memory, unused.
  const rateLimiter = new ApiRateLimiter({ pointsPerMinute: config.RATE_LIMIT, prefix: config.REDIS_PREFIX, ...(apiRedis ? { redis: apiRedis.commands } : {}) });
  const activeJobs = jobs;
  const readiness: DependencyCheck[] = [
    { name: 'store', essential: true, ping: () => store.ping() },
    { name: 'cache', essential: false, ping: () => cache.ping() },
    {
      name: 'sources',
      essential: false,
      ping: () => {
        const pending = registry.pending();
        if (pending.length > 0) return Promise.reject(new StillStarting(pending.join('; ')));
        const degraded = registry.degraded();
        return degraded.length > 0 ? Promise.reject(new Degraded(degraded.join('; '))) : Promise.resolve();
      },
    },
    ...(config.MODELS_DIR
      ? [
          {
            name: 'models',
            essential: false,
            ping: () => {
              const problem = engine instanceof EnginePool ? engine.modelsProblem : undefined;
              return problem ? Promise.reject(new Degraded(`serving the signal descriptors: ${problem}`)) : Promise.resolve();
            },
          },
        ]
      : []),
    ...(worker
      ? [{ name: 'queue', essential: true, ping: () => worker.ping() }]
      : connection
        ? [{ name: 'queue', essential: false, ping: () => activeJobs.ping() }]
        : []),
  ];

  return {
    config,
    logger,
    database,
    store,
    engine,
    registry,
    metadata,
    search,
    analysis,
    browse,
    recommendations,
    runner,
    jobs,
    artwork,
    apiKeys,
    usage,
    metrics,
    rateLimiter,
    readiness,
    ...(worker ? { worker } : {}),
    events,
    webhooks,
    ...(dispatcher ? { webhookDispatcher: dispatcher } : {}),
    async start(options?: StartOptions) {
      await cache.ready();
      if (role === 'api') {
        await apiKeys.start();
        flushes.start();
      }
      await registry.start(options);
      if (worker) {
        await worker.waitUntilReady();
        worker.start();
      }
      dispatcher?.start();
    },
    flush: () => flushes.flush(),
    async close() {
      // A worker finishes its running jobs before anything they need is closed.
      await worker?.close();
      // What was counted in memory is written while the store and Redis are still open.
      await flushes.close();
      await apiKeys.close();
      await usage.close();
      await registry.close();
      await activeJobs.close();
      await engine.close();
      // The jobs have announced how they ended; their deliveries are recorded before the store closes.
      stopHearingEvents();
      await webhooks.close();
      await dispatcher?.close();
      await events.close();
      await webhookOutbound.close();
      // The backend, not each namespace: they share one adapter, closed once.
      await cache.close();
      redis?.close();
      await store.close();
    },
  };
}

/** ARTWORK_SECRET, or a random one generated once and kept in DATA_DIR. */
function artworkSecret(config: Config): Buffer {
  if (config.ARTWORK_SECRET) return Buffer.from(config.ARTWORK_SECRET, 'utf8');
  const file = path.join(config.dataDir, 'artwork.secret');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    const secret = randomBytes(32);
    writeFileSync(file, secret.toString('hex'), { mode: 0o600 });
    return secret;
  }
}

/** WEBHOOK_SECRET_KEY, or a random key generated once and kept in DATA_DIR. */
function webhookSecretKey(config: Config): Buffer {
  if (config.WEBHOOK_SECRET_KEY) return Buffer.from(config.WEBHOOK_SECRET_KEY, 'utf8');
  const file = path.join(config.dataDir, 'webhook.key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    const key = randomBytes(32);
    writeFileSync(file, key.toString('hex'), { mode: 0o600 });
    return key;
  }
}

export interface HttpApp {
  app: Express;
  /** The HTTP server's 'upgrade' listener: GraphQL subscriptions over WebSocket (graphql-ws) at /graphql. */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes the WebSocket connections (1001 Going away), which would otherwise hold a closing server open. */
  closeSockets(): Promise<void>;
  /** Stops what the HTTP layer started (its WebSockets, Apollo), after the server stopped accepting. */
  stop(): Promise<void>;
}

export interface HttpAppOptions {
  /** The built web dashboard to serve at / (default: web/dist of this package). */
  dashboardDir?: string;
}

/**
 * The HTTP application of a container: REST contract, GraphQL and the web dashboard on one
 * Express app, with the limits, rate limits and metrics this configuration chooses.
 */
export async function buildHttpApp(container: Container, options: HttpAppOptions = {}): Promise<HttpApp> {
  const { config } = container;
  const charges = new GraphQLCharges(container.rateLimiter, {
    costPerPoint: config.RATE_LIMIT_GRAPHQL_COST,
    maxCost: config.GRAPHQL_MAX_COST,
    onRefused: () => container.metrics.countRateLimited('graphql'),
  });
  const limits = {
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxSelections: config.GRAPHQL_MAX_SELECTIONS,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
  };
  const graphql = await createGraphQL(
    { search: container.search, analysis: container.analysis, browse: container.browse, recommendations: container.recommendations, apiKeys: container.apiKeys, usage: container.usage, webhooks: container.webhooks },
    {
      sandbox: config.GRAPHQL_SANDBOX,
      limits: { ...limits, maxBatch: config.GRAPHQL_MAX_BATCH },
      maxCost: config.GRAPHQL_MAX_COST,
      charges,
    },
    container.logger,
  );
  const app = createApp({
    services: {
      search: container.search,
      analysis: container.analysis,
      artwork: container.artwork,
    },
    keys: { apiKeys: container.apiKeys, usage: container.usage },
    spotify: {
      features: new SpotifyFeaturesService(
        container.analysis,
        new IsrcLookup(container.registry, container.metadata, { sourceTimeoutMs: config.SOURCE_TIMEOUT_MS }, container.logger),
      ),
      recommendations: container.recommendations,
    },
    webhooks: container.webhooks,
    logger: container.logger,
    publicUrl: config.publicUrl,
    corsOrigins: config.CORS_ORIGINS,
    sandbox: config.GRAPHQL_SANDBOX,
    graphql: graphql.handler,
    ops: {
      metrics: container.metrics,
      readiness: container.readiness,
      ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    },
    gate: restGate(container.rateLimiter, container.apiKeys, () => container.metrics.countRateLimited('rest')),
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });
  const subscriptions = createSubscriptionServer({
    schema: graphql.schema,
    apiKeys: container.apiKeys,
    analysis: container.analysis,
    events: container.events,
    limits,
    maxCost: config.GRAPHQL_MAX_COST,
    maxSubscriptions: config.GRAPHQL_MAX_SUBSCRIPTIONS,
    charges,
    logger: container.logger,
  });
  return {
    app,
    upgrade: (req, socket, head) => subscriptions.handleUpgrade(req, socket, head),
    closeSockets: () => subscriptions.close(),
    async stop() {
      await subscriptions.close();
      await graphql.stop();
    },
  };
}
