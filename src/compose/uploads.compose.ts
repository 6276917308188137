import type { AnalysisService } from '../analysis/analysis.service';
import type { AnalysisStore } from '../analysis/store/store';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { UploadUsage } from '../core/observers';
import type { AnalysisEngine } from '../core/types';
import { OutboundGuard } from '../net/outbound.guard';
import type { MetadataCache } from '../search/metadata-cache';
import { UploadFetcher } from '../uploads/upload.fetcher';
import { UploadQuota } from '../uploads/upload.quota';
import { UploadService } from '../uploads/upload.service';
import { UploadSource } from '../uploads/upload.source';

/** Uploaded audio waits in UPLOAD_DIR (default DATA_DIR/uploads) while it is analysed: the runner's `upload` audio source. */
export function uploadedAudio(config: Config): UploadSource {
  return new UploadSource(config.uploadDir);
}

/**
 * Scaled out (QUEUE_URL), the uploads folder is shared with other API nodes and the workers: the
 * start-up sweep removes only what no analysis can still need, files older than this (an hour,
 * or two analysis timeouts when that is longer). Embedded, the folder is this process's alone and
 * is emptied.
 */
export const sharedSweepAgeMs = (config: Config): number => Math.max(3_600_000, 2 * config.ANALYSIS_TIMEOUT_MS);

/** Analyses of the audio users send (POST /api/audio/analyses), through the analysis service like any track. */
export function composeUploads(
  config: Config,
  deps: {
    analysis: AnalysisService;
    store: AnalysisStore;
    metadata: MetadataCache;
    engine: AnalysisEngine;
    source: UploadSource;
    /** Where uploads are counted per key and day, and the quota reads them. */
    usage: UploadUsage;
    /** QUEUE_URL is set: the folder is shared (see sharedSweepAgeMs). */
    shared: boolean;
    logger: Logger;
    now?: () => number;
  },
): UploadService {
  const quota = new UploadQuota(deps.usage, { filesPerDay: config.UPLOAD_QUOTA_FILES_PER_DAY, bytesPerDay: config.UPLOAD_QUOTA_BYTES_PER_DAY }, deps.now);
  return new UploadService(
    deps.analysis,
    deps.store,
    deps.metadata,
    deps.engine,
    deps.source,
    {
      dir: config.uploadDir,
      maxBytes: config.UPLOAD_MAX_BYTES,
      ...(config.UPLOAD_KEEP ? { keepIn: config.libraryDir } : {}),
      ...(deps.shared ? { sweepOlderThanMs: sharedSweepAgeMs(config) } : {}),
    },
    deps.logger,
    quota,
  );
}

/**
 * Analyses of audio URLs (POST /api/audio/analyses with {"url"}): fetched through an outbound
 * guard of their own (public addresses only unless OUTBOUND_ALLOW_PRIVATE), closed with `close`.
 */
export function composeUploadFetcher(config: Config, uploads: UploadService): { fetcher: UploadFetcher; close(): Promise<void> } {
  const guard = new OutboundGuard({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE });
  return { fetcher: new UploadFetcher(uploads, guard, { timeoutMs: config.UPLOAD_FETCH_TIMEOUT_MS }), close: () => guard.close() };
}
