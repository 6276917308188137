import { MAX_BATCH_KEYS, type AnalysisService } from './analysis.service';
import { ANALYSIS_COMPLETED, ANALYSIS_REPLACED, type AnalysisEventListener } from '../core/analysis-events';
import { shownError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { StoredAnalysis } from '../core/types';
import type { LibraryFile, LibrarySource } from '../sources/library/library.source';
import { tagValuesFor, type TagOptions } from '../sources/library/library.tags';

export interface LibraryTaggerDeps {
  library: Pick<LibrarySource, 'onIndexed' | 'filesOf' | 'lookup' | 'writeTags'>;
  analysis: Pick<AnalysisService, 'storedMany' | 'analyseTrack'>;
  events: { subscribe(listener: AnalysisEventListener): () => void };
  logger: Logger;
}

/**
 * LIBRARY_WRITE_TAGS: the server keeps its library files' tags in line with their analyses, as
 * `npm run index -- --write-tags` does once (docs/TAGS.md, "Written by the server"):
 *
 * - the files the library reads into its index (new or changed ones: at a start, those that
 *   changed while the server was down; then each file the watcher picks up) get their track's
 *   stored analysis in their tags; a track with none is analysed first, on the analysis workers
 *   like any request, and its files are tagged when it is stored;
 * - an analysis stored or replaced anywhere in the deployment (a client's request, a
 *   re-analysis) is written into the library files of its track.
 *
 * Writes run one at a time, each through library.tags.ts (a copy written, checked and renamed
 * over the file; a file already holding the values is not touched). A written file is picked up
 * by the watcher as changed and comes back here: its tags hold the values by then and nothing is
 * written, so it ends there.
 */
export class LibraryTagger {
  private readonly unsubscribes: (() => void)[] = [];
  /** The writes, in order: each starts when the one before it has ended. */
  private writes: Promise<void> = Promise.resolve();
  /** Tracks being analysed for the library: their files are tagged when the job ends, not again by its event. */
  private readonly analysing = new Set<string>();
  private closed = false;

  constructor(
    private readonly deps: LibraryTaggerDeps,
    private readonly options: TagOptions,
  ) {}

  start(): void {
    this.unsubscribes.push(
      this.deps.library.onIndexed((files) => {
        this.filesIndexed(files).catch((error: unknown) => this.deps.logger.warn({ err: error }, 'library: stored analyses could not be read; tags not written'));
      }),
      this.deps.events.subscribe((event) => {
        // Not waited for: the event's publisher goes on while the files are written.
        if ((event.type === ANALYSIS_COMPLETED || event.type === ANALYSIS_REPLACED) && !this.analysing.has(event.trackKey)) this.tagFilesOf(event.analysis);
      }),
    );
  }

  /**
   * No new work is taken and the writes queued are dropped; the write under way ends. An analysis
   * still running is not waited for: the files of a track analysed after this are tagged at the
   * next start only if they change, or by `npm run index -- --write-tags`.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    await this.writes;
  }

  /** Waits for every write queued so far (tests, and a caller that wants the files settled). */
  settled(): Promise<void> {
    return this.writes;
  }

  private async filesIndexed(files: readonly LibraryFile[]): Promise<void> {
    const keys = [...new Set(files.map((f) => f.trackKey))];
    for (let i = 0; i < keys.length && !this.closed; i += MAX_BATCH_KEYS) {
      const batch = keys.slice(i, i + MAX_BATCH_KEYS);
      const stored = await this.deps.analysis.storedMany(batch, { segments: false });
      batch.forEach((trackKey, j) => {
        const analysis = stored[j];
        if (!analysis) {
          this.analyse(trackKey);
          return;
        }
        for (const file of files) if (file.trackKey === trackKey) this.queueWrite(file, analysis);
      });
    }
  }

  private analyse(trackKey: string): void {
    if (this.closed || this.analysing.has(trackKey)) return;
    const track = this.deps.library.lookup(trackKey);
    if (!track) return;
    this.analysing.add(trackKey);
    this.deps.analysis.analyseTrack(track).then(
      (analysis) => {
        this.analysing.delete(trackKey);
        this.tagFilesOf(analysis);
      },
      (error: unknown) => {
        this.analysing.delete(trackKey);
        if (this.closed) return;
        const { code, message } = shownError(error);
        this.deps.logger.warn({ trackKey, file: track.audio?.locator, code, message }, 'library: the analysis failed; tags not written');
      },
    );
  }

  private tagFilesOf(analysis: StoredAnalysis): void {
    if (this.closed) return;
    for (const file of this.deps.library.filesOf(analysis.trackKey)) this.queueWrite(file, analysis);
  }

  private queueWrite(file: LibraryFile, analysis: StoredAnalysis): void {
    this.writes = this.writes.then(() => this.write(file, analysis));
  }

  private async write(file: LibraryFile, analysis: StoredAnalysis): Promise<void> {
    if (this.closed) return;
    const { logger } = this.deps;
    try {
      const { values } = tagValuesFor(analysis.features, this.options);
      const outcome = await this.deps.library.writeTags(file.relPath, values);
      const changes = outcome.changes.map((c) => `${c.field} ${c.from ?? '(none)'} → ${c.to}`).join(', ');
      if (outcome.status === 'written') logger.info({ file: file.relPath, changes }, 'library: tags written');
      else if (outcome.status === 'failed') logger.warn({ file: file.relPath, reason: outcome.reason }, 'library: tags not written (the file is left as it was)');
    } catch (error) {
      logger.warn({ file: file.relPath, err: error }, 'library: tags not written (the file is left as it was)');
    }
  }
}
