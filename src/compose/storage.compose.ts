import { mkdirSync } from 'node:fs';
import { CachedAnalysisStore } from '../analysis/store/cached.store';
import { SqlAnalysisStore } from '../analysis/store/sql.store';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { TrackCandidate, TrackMetadata } from '../core/types';
import { openDatabase, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrations';
import type { Metrics } from '../ops/metrics';
import { BestEffortCache, createCacheBackend, type CacheBackend } from '../search/keyv-store';
import { MetadataCache } from '../search/metadata-cache';

/** The database, migrated, and the analysis store in front of it. */
export async function openStorage(config: Config): Promise<{ database: Database; store: CachedAnalysisStore }> {
  mkdirSync(config.dataDir, { recursive: true });
  const database = openDatabase(config.DATABASE_URL, config.dataDir, config.DATABASE_SCHEMA);
  await migrateToLatest(database);
  // A stored analysis changes only by a re-analysis, whose analysis.replaced event drops the key (container.ts).
  const store = new CachedAnalysisStore(new SqlAnalysisStore(database), config.ANALYSIS_CACHE_ENTRIES);
  return { database, store };
}

export interface Caches {
  backend: CacheBackend;
  /** Track metadata by key, as searches found it. */
  metadata: MetadataCache;
  /** Answers of remote sources per normalised query (the library is cheap to ask and changes). */
  searchResponses: BestEffortCache<TrackCandidate[]>;
}

/** The Keyv caches (SQLite under DATA_DIR, or CACHE_URL's Redis), one namespace per purpose. */
export function openCaches(config: Config, metrics: Metrics, logger: Logger): Caches {
  const backend = createCacheBackend(config.CACHE_URL, config.dataDir);
  // On a shared Redis the prefix keeps deployments (and test runs) apart.
  const namespace = <T>(purpose: string): BestEffortCache<T> =>
    new BestEffortCache<T>(
      backend.store,
      backend.kind === 'redis' ? `${config.REDIS_PREFIX}:${purpose}` : purpose,
      config.SEARCH_CACHE_TTL_S * 1000,
      logger,
      metrics.cacheObserver(),
    );
  return { backend, metadata: new MetadataCache(namespace<TrackMetadata>('meta')), searchResponses: namespace<TrackCandidate[]>('search') };
}
