import path from 'node:path';
import { AnalysisRunner } from '../analysis/analysis.runner';
import { BrowseService } from '../analysis/browse.service';
import { announcing, LocalAnalysisEvents, type AnalysisEvents } from '../analysis/events/analysis-events.channel';
import { RedisAnalysisEvents } from '../analysis/events/redis.analysis-events';
import { BullmqJobs } from '../analysis/jobs/bullmq.jobs';
import { QueueConsumer } from '../analysis/jobs/bullmq.consumer';
import { InProcessJobs } from '../analysis/jobs/in-process.jobs';
import type { AnalysisJobs } from '../analysis/jobs/jobs';
import { ReanalyseService, type CurrentEngine, type TrackLocator } from '../analysis/reanalyse.service';
import { RecommendationsService } from '../analysis/recommendations.service';
import type { AnalysisStore } from '../analysis/store/store';
import { BrowseIndex } from '../analysis/store/browse.index';
import { SoundIndex } from '../analysis/store/sound.index';
import { SoundService } from '../analysis/sound.service';
import { SoundMapService } from '../analysis/sound-map.service';
import { PlaylistService } from '../analysis/playlists.service';
import { SqlTracksQuery } from '../analysis/store/tracks.query';
import { SqlSourceTrackStore, type SourceTrackStore } from '../analysis/store/source-tracks.store';
import type { Config } from '../config';
import { SIGNAL_METHOD, engineWithMethod } from '../core/analysis-method';
import type { Logger } from '../core/logger';
import type { AnalysisEngine } from '../core/types';
import type { Database } from '../db/database';
import { createEnginePool } from '../engine/engine.pool';
import { ALGORITHM_VERSION, ENGINE_ID } from '../engine/version';
import type { Metrics } from '../ops/metrics';
import type { MetadataCache } from '../search/metadata-cache';
import type { SourceRegistry } from '../sources/registry';
import type { AudioSource } from '../sources/source';
import type { Deployment } from './deployment';

/** The engine's worker threads (with the trained models when MODELS_DIR is set). */
export function composeEngine(config: Config, logger: Logger): AnalysisEngine {
  return createEnginePool({
    workers: config.ANALYSIS_WORKERS,
    timeoutMs: config.ANALYSIS_TIMEOUT_MS,
    windowSeconds: config.ANALYSIS_WINDOW_S,
    ...(config.MODELS_DIR ? { modelsDir: path.resolve(config.MODELS_DIR), modelsRequired: config.MODELS_REQUIRED, modelsPatches: config.MODELS_PATCHES, modelsRank: config.MODELS_RANK, modelsCacheDir: path.join(config.DATA_DIR, 'cache') } : {}),
    logger,
  });
}

export interface AnalysisParts {
  runner: AnalysisRunner;
  /** "An analysis ended", heard by every process of the deployment (Redis pub/sub when Redis is configured). */
  events: AnalysisEvents;
  jobs: AnalysisJobs;
  /** The BullMQ consumer, in the worker role only. */
  worker?: QueueConsumer;
  browse: BrowseService;
  /** Similarity by sound and paths between tracks (one sound index per embedding kind, loaded on first use). */
  sound: SoundService;
  /** The map of the library (over the same sound indexes), computed at its first query. */
  soundMap: SoundMapService;
  /** Lists of tracks as M3U8 playlists of the music folder's files, and saved into it. */
  playlists: PlaylistService;
  recommendations: RecommendationsService;
  /** Redoes what an older engine or another method made (npm run index -- --reanalyse, POST /api/admin/reanalyse). */
  reanalyse: ReanalyseService;
  /** Music servers' song ids, kept with the analyses made from them (the whole-server index, playlists saved into the server). */
  sourceTracks: SourceTrackStore;
}

/** The engine new analyses are made by: this build's version, the engine's method. */
export function currentEngine(engine: AnalysisEngine): CurrentEngine {
  const method = engine.method ?? SIGNAL_METHOD;
  return { engine: engineWithMethod(ENGINE_ID, method), version: ALGORITHM_VERSION, method };
}

/**
 * Where a stored track's audio is found again: the catalogue of the source it came from (the
 * library's files), else search's metadata of the key when it points at that source, else its
 * artist and title alone (the source looks the recording up again, as the Deezer source does).
 */
function trackLocator(registry: SourceRegistry, metadata: MetadataCache): TrackLocator {
  return {
    async locate(stored) {
      const listed = registry.catalogSource(stored.source)?.lookup(stored.trackKey);
      if (listed) return listed;
      const cached = await metadata.get(stored.trackKey);
      if (cached?.audio?.source === stored.source) return cached;
      return { trackKey: stored.trackKey, artist: stored.artist, trackName: stored.trackName, source: stored.source, ...(cached?.durationMs ? { durationMs: cached.durationMs } : {}) };
    },
  };
}

/**
 * Running analyses: the runner, the events that announce their ends, the jobs (BullMQ with
 * QUEUE_URL, else in this process) and, in the worker role, the queue's consumer; and the
 * readers of what is stored (browse, recommendations).
 */
export function composeAnalysis(
  config: Config,
  deployment: Deployment,
  deps: { database: Database; store: AnalysisStore; engine: AnalysisEngine; registry: SourceRegistry; metadata: MetadataCache; metrics: Metrics; logger: Logger; audioSources?: readonly AudioSource[] },
): AnalysisParts {
  const { store, metrics, logger } = deps;
  const sourceTracks = new SqlSourceTrackStore(deps.database);
  const runner = new AnalysisRunner(deps.registry, deps.engine, store, { fetchTimeoutMs: config.SOURCE_TIMEOUT_MS * 4, sourceTracks, ...(deps.audioSources ? { audioSources: deps.audioSources } : {}) }, logger);
  const task = metrics.timeTask(runner.run);
  const events: AnalysisEvents = deployment.redis ? new RedisAnalysisEvents(deployment.redis, config.REDIS_PREFIX, logger) : new LocalAnalysisEvents(logger);
  const queue = deployment.queue;
  const jobs: AnalysisJobs = queue
    ? new BullmqJobs(store, { connection: queue.connection, prefix: config.REDIS_PREFIX }, logger)
    : new InProcessJobs(announcing(task, events), config.ANALYSIS_WORKERS * 2);
  metrics.observeQueue(() => jobs.counts());
  const worker =
    deployment.role === 'worker' && queue
      ? new QueueConsumer(
          task,
          {
            connection: queue.connection,
            prefix: config.REDIS_PREFIX,
            concurrency: config.WORKER_CONCURRENCY ?? config.ANALYSIS_WORKERS,
            lockMs: config.WORKER_LOCK_MS,
            events,
          },
          logger,
        )
      : undefined;
  // One index for the process' browse and recommendations, loaded at the first of either.
  const index = config.BROWSE_INDEX ? new BrowseIndex(deps.database, (error) => logger.warn({ err: error }, 'browse index: the load failed; browse reads the database until the next try')) : undefined;
  const soundIndexes = new Map<string, SoundIndex>();
  const soundIndex = (kind: string): SoundIndex => {
    let made = soundIndexes.get(kind);
    if (!made) {
      made = new SoundIndex(deps.database, kind, (error) => logger.warn({ err: error, kind }, 'sound index: a load failed; the next call tries again'));
      soundIndexes.set(kind, made);
    }
    return made;
  };
  const sound = new SoundService(soundIndex, store, deps.engine.method ?? SIGNAL_METHOD);
  return {
    runner,
    events,
    jobs,
    ...(worker ? { worker } : {}),
    browse: new BrowseService(new SqlTracksQuery(deps.database, index), store),
    sound,
    soundMap: new SoundMapService(soundIndex, store, deps.engine.method ?? SIGNAL_METHOD, { onError: (error) => logger.warn({ err: error }, 'map of the library: a computation failed; the next query tries again') }),
    playlists: new PlaylistService(store, (trackKey) => deps.registry.catalogSource('library')?.lookup(trackKey)?.audio?.locator, config.libraryDir, config.PLAYLIST_PATH_PREFIX, {
      server: (name) => deps.registry.musicServer(name),
      songs: sourceTracks,
      timeoutMs: config.SOURCE_TIMEOUT_MS * 8,
    }),
    recommendations: new RecommendationsService(new SqlTracksQuery(deps.database, index), store, sound),
    reanalyse: new ReanalyseService(store, trackLocator(deps.registry, deps.metadata), runner, events, currentEngine(deps.engine), { concurrency: config.ANALYSIS_WORKERS }, logger),
    sourceTracks,
  };
}
