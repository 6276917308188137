import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino, type Logger as PinoLogger } from 'pino';
import { AnalysisRunner } from './analysis/analysis.runner';
import { AnalysisService } from './analysis/analysis.service';
import { InProcessJobs } from './analysis/jobs/in-process.jobs';
import type { AnalysisJobs } from './analysis/jobs/jobs';
import { SqlAnalysisStore } from './analysis/store/sql.store';
import type { AnalysisStore } from './analysis/store/store';
import { ArtworkService, type TrackLookup } from './artwork/artwork.service';
import { ApiKeyService } from './auth/api-keys';
import type { Config } from './config';
import type { AnalysisEngine, TrackMetadata } from './core/types';
import { openDatabase, type Database } from './db/database';
import { migrateToLatest } from './db/migrations';
import { createEnginePool } from './engine/engine.pool';
import { BestEffortCache, createKeyvStore } from './search/keyv-store';
import { MetadataCache } from './search/metadata-cache';
import { SearchService } from './search/search.service';
import { createSources } from './sources/factory';
import { SourceRegistry } from './sources/registry';
import type { Source } from './sources/source';

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
  runner: AnalysisRunner;
  jobs: AnalysisJobs;
  artwork: ArtworkService;
  apiKeys: ApiKeyService;
  /** Indexes the library and starts watchers. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ContainerOverrides {
  logger?: PinoLogger;
  engine?: AnalysisEngine;
  /** Replaces the sources SOURCES names (tests). */
  sources?: (deps: { engine: AnalysisEngine; artworkUrl: (key: string) => string }) => Source[];
}

/**
 * The composition root: the only module that picks concrete implementations. Embedded default:
 * SQLite store and Keyv cache under DATA_DIR, the library source, an in-process worker pool.
 */
export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const logger = overrides.logger ?? pino({ level: config.LOG_LEVEL });
  mkdirSync(config.dataDir, { recursive: true });

  const database = openDatabase(config.DATABASE_URL, config.dataDir);
  await migrateToLatest(database.db, database.dialect);
  const store = new SqlAnalysisStore(database);

  const keyvStore = createKeyvStore(config.CACHE_URL, config.dataDir);
  const metadataCache = new BestEffortCache<TrackMetadata>(keyvStore, 'meta', config.SEARCH_CACHE_TTL_S * 1000, logger);
  const metadata = new MetadataCache(metadataCache);

  const engine =
    overrides.engine ??
    createEnginePool({
      workers: config.ANALYSIS_WORKERS,
      timeoutMs: config.ANALYSIS_TIMEOUT_MS,
      windowSeconds: config.ANALYSIS_WINDOW_S,
      logger,
    });

  const secret = artworkSecret(config);
  let artwork: ArtworkService | undefined;
  const artworkUrl = (key: string): string => artwork!.url(key);
  const sources = overrides.sources
    ? overrides.sources({ engine, artworkUrl })
    : createSources(config, { engine, logger, artworkUrl });
  const registry = new SourceRegistry(sources);
  const lookups = sources.filter((s): s is Source & TrackLookup => typeof (s as Partial<TrackLookup>).lookup === 'function');
  artwork = new ArtworkService(registry, metadata, lookups, secret, config.publicUrl);

  const search = new SearchService(registry, metadata, { sourceTimeoutMs: config.SOURCE_TIMEOUT_MS }, logger);
  const runner = new AnalysisRunner(registry, engine, store, { fetchTimeoutMs: config.SOURCE_TIMEOUT_MS * 4 }, logger);
  const jobs = new InProcessJobs(runner.run, config.ANALYSIS_WORKERS * 2);
  const analysis = new AnalysisService(store, metadata, search, jobs, { waitMs: config.ANALYSIS_WAIT_MS });
  const apiKeys = new ApiKeyService(database.db, config.API_KEYS);

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
    runner,
    jobs,
    artwork,
    apiKeys,
    start: () => registry.start(),
    async close() {
      await registry.close();
      await jobs.close();
      await engine.close();
      await metadataCache.disconnect();
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
