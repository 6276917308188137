import path from 'node:path';
import type { AnalysisService } from '../analysis/analysis.service';
import type { AnalysisStore } from '../analysis/store/store';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { UploadUsage } from '../core/observers';
import type { AnalysisEngine } from '../core/types';
import type { MetadataCache } from '../search/metadata-cache';
import { UploadQuota } from '../uploads/upload.quota';
import { UploadService } from '../uploads/upload.service';
import { UploadSource } from '../uploads/upload.source';

/** Uploaded audio waits in DATA_DIR/uploads while it is analysed: the runner's `upload` audio source. */
export function uploadedAudio(config: Config): UploadSource {
  return new UploadSource(path.join(config.dataDir, 'uploads'));
}

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
    { dir: path.join(config.dataDir, 'uploads'), maxBytes: config.UPLOAD_MAX_BYTES, ...(config.UPLOAD_KEEP ? { keepIn: config.libraryDir } : {}) },
    deps.logger,
    quota,
  );
}
