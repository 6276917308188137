import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { AnalysisEngine } from '../core/types';
import { DeezerSource } from './deezer/deezer.source';
import { LibrarySource } from './library/library.source';
import { MusicBrainzSource } from './musicbrainz/musicbrainz.source';
import type { SharedQuotas } from './http/shared-quota';
import type { Source } from './source';
import { SubsonicSource } from './subsonic/subsonic.source';
import { UpstreamSource } from './upstream/upstream.source';

export interface SourceFactoryDependencies {
  engine: AnalysisEngine;
  logger: Logger;
  /** Builds the thumbnailUrl of a track whose cover this server serves (a library file's embedded picture, a music server's cover art). */
  artworkUrl: (trackKey: string) => string;
  /** This build's version, for the MusicBrainz User-Agent. Default: package.json's. */
  version?: string;
  /** Injected by tests; the sources default to the global fetch. */
  fetch?: typeof fetch;
  /** Scaled out: the catalogues' quotas counted in Redis for every node. */
  sharedQuotas?: SharedQuotas;
}

/** The sources named by SOURCES, in that order (their priority). */
export function createSources(config: Config, deps: SourceFactoryDependencies): Source[] {
  const fetchOption = deps.fetch ? { fetch: deps.fetch } : {};
  // The catalogues with a quota (Deezer, MusicBrainz) count it for the deployment when shared.
  const quotaOption = deps.sharedQuotas ? { sharedQuotas: deps.sharedQuotas } : {};
  const httpOptions = { maxJsonBytes: config.SOURCE_MAX_JSON_BYTES, allowPrivate: config.OUTBOUND_ALLOW_PRIVATE };
  return config.SOURCES.map((name): Source => {
    const logger = deps.logger;
    switch (name) {
      case 'library':
        return new LibrarySource(
          {
            root: config.libraryDir,
            dataDir: config.dataDir,
            watch: config.LIBRARY_WATCH,
            artworkUrl: deps.artworkUrl,
            otherSources: config.SOURCES.filter((other) => other !== 'library'),
          },
          deps.engine,
          logger,
        );
      case 'deezer':
        return new DeezerSource(
          {
            baseUrl: config.DEEZER_BASE_URL,
            timeoutMs: config.SOURCE_TIMEOUT_MS,
            maxAudioBytes: config.AUDIO_MAX_BYTES,
            ...httpOptions,
            ...fetchOption,
            ...quotaOption,
          },
          logger,
        );
      case 'musicbrainz':
        return new MusicBrainzSource(
          {
            baseUrl: config.MUSICBRAINZ_BASE_URL,
            coverArtBaseUrl: config.COVERART_BASE_URL,
            userAgent: `trackgraph/${deps.version ?? packageVersion()} ( ${config.MUSICBRAINZ_CONTACT} )`,
            timeoutMs: config.SOURCE_TIMEOUT_MS,
            ...httpOptions,
            ...fetchOption,
            ...quotaOption,
          },
          logger,
        );
      case 'upstream':
        if (!config.UPSTREAM_URL) throw new Error('UPSTREAM_URL is required when SOURCES includes upstream');
        return new UpstreamSource(
          {
            baseUrl: config.UPSTREAM_URL,
            ...(config.UPSTREAM_API_KEY ? { apiKey: config.UPSTREAM_API_KEY } : {}),
            timeoutMs: config.SOURCE_TIMEOUT_MS,
            ...httpOptions,
            ...fetchOption,
          },
          logger,
        );
      case 'subsonic':
        if (!config.SUBSONIC_URL || !config.SUBSONIC_USER || !config.SUBSONIC_PASSWORD) {
          throw new Error('SUBSONIC_URL, SUBSONIC_USER and SUBSONIC_PASSWORD are required when SOURCES includes subsonic');
        }
        return new SubsonicSource(
          {
            baseUrl: config.SUBSONIC_URL,
            user: config.SUBSONIC_USER,
            password: config.SUBSONIC_PASSWORD,
            artworkUrl: deps.artworkUrl,
            timeoutMs: config.SOURCE_TIMEOUT_MS,
            maxAudioBytes: config.AUDIO_MAX_BYTES,
            ...httpOptions,
            ...fetchOption,
          },
          logger,
        );
      default:
        throw new Error(`source ${String(name)} is not available in this build`);
    }
  });
}

/** The nearest package.json's version above this file (src/ under ts, dist/src/ when built). */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'trackgraph' && pkg.version) return pkg.version;
    } catch {
      // No package.json here: look one level up.
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}
