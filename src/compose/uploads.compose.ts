import path from 'node:path';
import type { AnalysisService } from '../analysis/analysis.service';
import type { AnalysisStore } from '../analysis/store/store';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { AnalysisEngine } from '../core/types';
import { OutboundGuard } from '../net/outbound.guard';
import type { MetadataCache } from '../search/metadata-cache';
import { UploadFetcher } from '../uploads/upload.fetcher';
import { UploadService } from '../uploads/upload.service';
import { UploadSource } from '../uploads/upload.source';

/** Uploaded audio waits in DATA_DIR/uploads while it is analysed: the runner's `upload` audio source. */
export function uploadedAudio(config: Config): UploadSource {
  return new UploadSource(path.join(config.dataDir, 'uploads'));
}

/** Analyses of the audio users send (POST /api/audio/analyses), through the analysis service like any track. */
export function composeUploads(
  config: Config,
  deps: { analysis: AnalysisService; store: AnalysisStore; metadata: MetadataCache; engine: AnalysisEngine; source: UploadSource; logger: Logger },
): UploadService {
  return new UploadService(deps.analysis, deps.store, deps.metadata, deps.engine, deps.source, { dir: path.join(config.dataDir, 'uploads'), maxBytes: config.UPLOAD_MAX_BYTES }, deps.logger);
}

/**
 * Analyses of audio URLs (POST /api/audio/analyses with {"url"}): fetched through an outbound
 * guard of their own (public addresses only unless OUTBOUND_ALLOW_PRIVATE), closed with `close`.
 */
export function composeUploadFetcher(config: Config, uploads: UploadService): { fetcher: UploadFetcher; close(): Promise<void> } {
  const guard = new OutboundGuard({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE });
  return { fetcher: new UploadFetcher(uploads, guard, { timeoutMs: config.UPLOAD_FETCH_TIMEOUT_MS }), close: () => guard.close() };
}

/** Where uploads are written while they are received and analysed: the GraphQL multipart files go there too (emptied at start). */
export function uploadsDir(config: Config): string {
  return path.join(config.dataDir, 'uploads');
}
