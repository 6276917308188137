import type { Logger as PinoLogger } from 'pino';
import { AnalysisService } from './analysis/analysis.service';
import { composeAccounts } from './compose/accounts.compose';
import { composeAnalysis, composeEngine } from './compose/analysis.compose';
import { ANALYSIS_REPLACED } from './core/analysis-events';
import { composeCatalogue } from './compose/catalogue.compose';
import type { Container, ContainerOverrides } from './compose/container.types';
import { decideDeployment } from './compose/deployment';
import { readinessChecks } from './compose/readiness.compose';
import { openCaches, openStorage } from './compose/storage.compose';
import { composeUploadFetcher, composeUploads, uploadedAudio } from './compose/uploads.compose';
import { composeWebhooks } from './compose/webhooks.compose';
import type { Config } from './config';
import { createLogger } from './core/logger';
import { Metrics } from './ops/metrics';
import { LibraryTagger, type LibraryTaggerDeps } from './analysis/library-tagger.service';
import { LibrarySource } from './sources/library/library.source';
import type { SourceStartOptions } from './sources/source';

export type { Container, ContainerOverrides } from './compose/container.types';
export { buildHttpApp, type HttpApp, type HttpAppOptions } from './compose/http.compose';

/**
 * The composition root: the only module that picks concrete implementations, read top to
 * bottom. Each step builds one feature's part (src/compose/) from what the steps before it built;
 * where two parts need each other, the later one binds itself to the earlier (the metrics observe
 * the jobs' queue, usage counts the requests the keys authenticate, the dispatcher hears of new
 * deliveries). The role is decided once, in the deployment. Embedded default: SQLite store and
 * Keyv cache under DATA_DIR, the library source, an in-process worker pool.
 */
export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const logger: PinoLogger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const { database, store } = await openStorage(config);
  const deployment = decideDeployment(config, overrides.role ?? 'api', database.dialect, logger);
  const metrics = new Metrics({ role: deployment.role });
  const caches = openCaches(config, metrics, logger);
  const engine = overrides.engine ?? composeEngine(config, logger);
  const { registry, search, artwork } = composeCatalogue(config, deployment, {
    engine,
    metadata: caches.metadata,
    searchResponses: caches.searchResponses,
    metrics,
    logger,
    ...(overrides.sources ? { sources: overrides.sources } : {}),
  });
  // Uploaded audio is one more audio source of the runner, outside search's registry.
  const uploadSource = uploadedAudio(config);
  const { runner, events, jobs, worker, browse, sound, soundMap, playlists, recommendations, reanalyse, sourceTracks } = composeAnalysis(config, deployment, { database, store, engine, registry, metadata: caches.metadata, metrics, logger, audioSources: [uploadSource] });
  // A stored analysis changes only by a re-analysis, here or in another process: its key is dropped from the LRU.
  events.subscribe((event) => {
    if (event.type === ANALYSIS_REPLACED) store.forget(event.trackKey);
  });
  const { apiKeys, usage, rateLimiter, flushes } = composeAccounts(config, deployment, { database, logger });
  const hooks = composeWebhooks(config, deployment, { database, events, logger, ...(overrides.now ? { now: overrides.now } : {}) });
  const { webhooks, dispatcher } = hooks;
  // A request for an analysis not stored yet is counted as usage and remembered for the key's webhooks.
  const analysis = new AnalysisService(store, caches.metadata, search, jobs, { waitMs: config.ANALYSIS_WAIT_MS, requestListeners: [usage, webhooks], catalogue: registry.catalogSources() });
  const uploads = composeUploads(config, { analysis, store, metadata: caches.metadata, engine, source: uploadSource, usage, shared: deployment.queue !== undefined, logger, ...(overrides.now ? { now: overrides.now } : {}) });
  const urlUploads = composeUploadFetcher(config, uploads);
  const tagger = libraryTagger(config, deployment.serves, { library: registry.catalogSource('library'), analysis, events, logger });
  const readiness = readinessChecks(config, deployment, { store, cache: caches.backend, registry, engine, jobs, ...(worker ? { worker } : {}) });

  return {
    config,
    logger,
    database,
    store,
    engine,
    registry,
    metadata: caches.metadata,
    search,
    analysis,
    browse,
    sound,
    soundMap,
    playlists,
    recommendations,
    runner,
    reanalyse,
    sourceTracks,
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
    uploads,
    uploadFetcher: urlUploads.fetcher,
    ...(dispatcher ? { webhookDispatcher: dispatcher } : {}),
    async start(options?: SourceStartOptions) {
      await caches.backend.ready();
      if (deployment.serves) {
        await uploads.start();
        await apiKeys.start();
        flushes.start();
      }
      tagger?.start();
      await registry.start(options);
      if (worker) {
        await worker.waitUntilReady();
        worker.start();
      }
      dispatcher?.start();
    },
    flush: () => flushes.flush(),
    async close() {
      // No file is tagged once closing starts (the write under way ends first).
      await tagger?.close();
      // A worker finishes its running jobs before anything they need is closed; so does a
      // re-analysis (the tracks it has started; the rest are redone by the next run).
      await worker?.close();
      await reanalyse.stop();
      // What was counted in memory is written while the store and Redis are still open.
      await flushes.close();
      await apiKeys.close();
      await usage.close();
      await registry.close();
      await jobs.close();
      await engine.close();
      await hooks.close();
      await urlUploads.close();
      await events.close();
      // The backend, not each namespace: they share one adapter, closed once.
      await caches.backend.close();
      deployment.redis?.close();
      await store.close();
    },
  };
}

/**
 * LIBRARY_WRITE_TAGS: the library's files tagged as their analyses are stored, by the processes
 * that serve the API (where the library is watched); a worker process never writes into the folder.
 */
function libraryTagger(
  config: Config,
  serves: boolean,
  { library, ...deps }: Omit<LibraryTaggerDeps, 'library'> & { library: unknown },
): LibraryTagger | undefined {
  if (!config.LIBRARY_WRITE_TAGS || !serves || !(library instanceof LibrarySource)) return undefined;
  return new LibraryTagger(
    { library, ...deps },
    {
      keyNotation: config.LIBRARY_TAGS_KEY_NOTATION,
      minKeyConfidence: config.LIBRARY_TAGS_MIN_KEY_CONFIDENCE,
      ...(config.LIBRARY_TAGS_BPM_RANGE ? { range: config.LIBRARY_TAGS_BPM_RANGE } : {}),
    },
  );
}
