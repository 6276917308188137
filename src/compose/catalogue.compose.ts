import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ArtworkService } from '../artwork/artwork.service';
import { ArtworkUrls } from '../artwork/artwork.urls';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { AnalysisEngine } from '../core/types';
import type { Metrics } from '../ops/metrics';
import type { MetadataCache } from '../search/metadata-cache';
import { SearchService } from '../search/search.service';
import type { BestEffortCache } from '../search/keyv-store';
import type { TrackCandidate } from '../core/types';
import { createSources } from '../sources/factory';
import { SharedQuotas } from '../sources/http/shared-quota';
import { SourceRegistry } from '../sources/registry';
import type { Source } from '../sources/source';
import type { Deployment } from './deployment';

/** Replaces the sources SOURCES names (tests). */
export type SourcesOverride = (deps: { engine: AnalysisEngine; artworkUrl: (key: string) => string }) => Source[];

export interface Catalogue {
  registry: SourceRegistry;
  search: SearchService;
  artwork: ArtworkService;
}

/** The sources SOURCES names, their registry, search across them and the artwork they hold. */
export function composeCatalogue(
  config: Config,
  deployment: Deployment,
  deps: { engine: AnalysisEngine; metadata: MetadataCache; searchResponses: BestEffortCache<TrackCandidate[]>; metrics: Metrics; logger: Logger; sources?: SourcesOverride },
): Catalogue {
  const { engine, metadata, metrics, logger } = deps;
  if (deployment.shared && !config.ARTWORK_SECRET) {
    logger.warn({}, 'ARTWORK_SECRET is unset in a shared deployment: artwork URLs signed by this node fail on the others');
  }
  const urls = new ArtworkUrls(artworkSecret(config), config.publicUrl);
  const artworkUrl = (key: string): string => urls.url(key);
  // Deezer's and MusicBrainz's quotas are counted together by every process of a scaled deployment.
  const quotaRedis = deployment.redis && !deps.sources && config.SOURCES.some((name) => name === 'deezer' || name === 'musicbrainz') ? deployment.redis.commands : undefined;
  const sharedQuotas = quotaRedis ? new SharedQuotas(quotaRedis, config.REDIS_PREFIX) : undefined;
  const sources = metrics.instrumentSources(
    deps.sources ? deps.sources({ engine, artworkUrl }) : createSources(config, { engine, logger, artworkUrl, ...(sharedQuotas ? { sharedQuotas } : {}) }),
  );
  const registry = new SourceRegistry(sources);
  const artwork = new ArtworkService(registry, metadata, registry.catalogSources(), urls, logger);
  const search = new SearchService(
    registry,
    metadata,
    // A track without a picture of its own gets its placeholder's URL.
    { sourceTimeoutMs: config.SOURCE_TIMEOUT_MS, responseCache: deps.searchResponses, thumbnailUrl: artworkUrl },
    logger,
  );
  return { registry, search, artwork };
}

/** ARTWORK_SECRET, or a random one generated once and kept in DATA_DIR. */
function artworkSecret(config: Config): Buffer {
  if (config.ARTWORK_SECRET) return Buffer.from(config.ARTWORK_SECRET, 'utf8');
  return secretFile(path.join(config.dataDir, 'artwork.secret'));
}

/** A random 32-byte secret kept (hex, mode 600) in `file`, made on first use. */
export function secretFile(file: string): Buffer {
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    const secret = randomBytes(32);
    writeFileSync(file, secret.toString('hex'), { mode: 0o600 });
    return secret;
  }
}
