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

/** Library analyses the tagger has submitted and not seen end, at most: the rest wait in its own backlog. */
export const ANALYSES_AT_ONCE = 2;

/**
 * LIBRARY_WRITE_TAGS: the server keeps its library files' tags in line with their analyses, as
 * `npm run index -- --write-tags` does once (docs/TAGS.md, "Written by the server"):
 *
 * - the files the library reads into its index (new or changed ones: at a start, those that
 *   changed while the server was down; then each file the watcher picks up) get their track's
 *   stored analysis in their tags;
 * - a file whose track has no stored analysis (at a start, any file of the library) is analysed,
 *   on the analysis workers like any request but ANALYSES_AT_ONCE at a time, so that clients'
 *   requests are not queued behind a whole library and a shutdown waits for those few only; its
 *   files are tagged when the analysis is stored;
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
  /** Tracks waiting for or being analysed for the library: their files are tagged when the job ends, not again by its event. */
  private readonly analysing = new Set<string>();
  /** Tracks waiting for an analysis slot, in order. */
  private readonly backlog: string[] = [];
  private running = 0;
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
   * No new work is taken, the backlog and the writes queued are dropped; the write under way ends.
   * The analyses submitted are not waited for here (the job runner finishes them); a track left
   * without an analysis is taken up again at the next start.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.backlog.length = 0;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    await this.writes;
  }

  /** Waits for every write queued so far (tests, and a caller that wants the files settled). */
  settled(): Promise<void> {
    return this.writes;
  }

  private async filesIndexed(files: readonly (LibraryFile & { read: boolean })[]): Promise<void> {
    const byTrack = new Map<string, (LibraryFile & { read: boolean })[]>();
    for (const file of files) {
      const copies = byTrack.get(file.trackKey);
      if (copies) copies.push(file);
      else byTrack.set(file.trackKey, [file]);
    }
    const keys = [...byTrack.keys()];
    for (let i = 0; i < keys.length && !this.closed; i += MAX_BATCH_KEYS) {
      const batch = keys.slice(i, i + MAX_BATCH_KEYS);
      const stored = await this.deps.analysis.storedMany(batch, { segments: false });
      batch.forEach((trackKey, j) => {
        const analysis = stored[j];
        if (!analysis) {
          this.analyse(trackKey);
          return;
        }
        // A file the index did not read again holds what was written into it before.
        for (const file of byTrack.get(trackKey)!) if (file.read) this.queueWrite(file, analysis);
      });
    }
  }

  private analyse(trackKey: string): void {
    if (this.closed || this.analysing.has(trackKey)) return;
    this.analysing.add(trackKey);
    this.backlog.push(trackKey);
    this.next();
  }

  /** Starts backlog analyses while fewer than ANALYSES_AT_ONCE run. */
  private next(): void {
    while (!this.closed && this.running < ANALYSES_AT_ONCE && this.backlog.length > 0) {
      const trackKey = this.backlog.shift()!;
      const track = this.deps.library.lookup(trackKey);
      if (!track) {
        this.analysing.delete(trackKey);
        continue;
      }
      this.running++;
      void this.deps.analysis
        .analyseTrack(track)
        .then(
          (analysis) => this.tagFilesOf(analysis),
          (error: unknown) => {
            if (this.closed) return;
            const { code, message } = shownError(error);
            this.deps.logger.warn({ trackKey, file: track.audio?.locator, code, message }, 'library: the analysis failed; tags not written');
          },
        )
        .finally(() => {
          this.running--;
          this.analysing.delete(trackKey);
          this.next();
        });
    }
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
