import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { AnalysisEngine } from '../core/types';
import { LibrarySource } from './library/library.source';
import type { Source } from './source';

export interface SourceFactoryDependencies {
  engine: AnalysisEngine;
  logger: Logger;
  /** Builds the thumbnailUrl of a library track with embedded cover art. */
  artworkUrl: (trackKey: string) => string;
}

/** The sources named by SOURCES, in that order (their priority). */
export function createSources(config: Config, deps: SourceFactoryDependencies): Source[] {
  return config.SOURCES.map((name): Source => {
    const logger = deps.logger;
    switch (name) {
      case 'library':
        return new LibrarySource(
          { root: config.libraryDir, dataDir: config.dataDir, watch: config.LIBRARY_WATCH, artworkUrl: deps.artworkUrl },
          deps.engine,
          logger,
        );
      default:
        throw new Error(`source ${name} is not available in this build`);
    }
  });
}
