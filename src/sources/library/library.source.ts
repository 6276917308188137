import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import { AUDIO_EXTENSIONS } from '../../core/audio-formats';
import { AppError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { AnalysisEngine, AudioInput, TrackCandidate, TrackMetadata } from '../../core/types';
import { matchScorer, normaliseText, normalisedNames, type NormalisedNames } from '../../core/ranking';
import type { ArtworkSource, AudioSource, MetadataSource, SearchQuery, StartableSource, SourceStartOptions } from '../source';
import { LibraryIndex, type LibraryEntry } from './library.index';
import { writeTags, type TagValues, type TagWriteOutcome } from './library.tags';

/** A library file: its path relative to the folder, and the track its tags name. */
export interface LibraryFile {
  relPath: string;
  trackKey: string;
}

/**
 * Told of the library's files once indexed: every file after the first scan, each with whether it
 * was read (new, or changed since the index last read it); then each file the watcher picks up
 * (read).
 */
export type LibraryIndexedListener = (files: (LibraryFile & { read: boolean })[]) => void;

export interface LibrarySourceOptions {
  root: string;
  dataDir: string;
  watch: boolean;
  /** Builds the thumbnailUrl of a track whose file has embedded cover art. */
  artworkUrl: (trackKey: string) => string;
  /** Lowest match_score a library file needs to be a search candidate. */
  minScore?: number;
  /** The other enabled sources, in order: named when the library is empty, to say what searches reach meanwhile. */
  otherSources?: readonly string[];
}

/**
 * The user's own music folder: searched by tags (or file names), audio read from disk,
 * cover art read from the file. Indexed at start and kept current by a file watcher.
 */
export class LibrarySource implements MetadataSource, AudioSource, ArtworkSource, StartableSource {
  readonly name = 'library';
  private readonly index: LibraryIndex;
  private watcher: FSWatcher | undefined;
  private readonly stopping = new AbortController();
  /** The background index, while one runs (its errors are logged, never thrown). */
  private initial: Promise<void> | undefined;
  /** start() was called, and its first scan has ended (readiness waits for it). */
  private started = false;
  private indexed = false;
  /** The scan once the watcher is ready (its errors are logged, never thrown). */
  private rescan: Promise<void> | undefined;
  private readonly minScore: number;
  /** Each entry's names as search compares them (an entry object is replaced when its file changes). */
  private readonly names = new WeakMap<LibraryEntry, NormalisedNames>();
  private readonly indexedListeners = new Set<LibraryIndexedListener>();

  constructor(
    private readonly options: LibrarySourceOptions,
    private readonly engine: AnalysisEngine,
    private readonly logger: Logger,
  ) {
    this.index = new LibraryIndex(
      path.resolve(options.root),
      path.join(options.dataDir, 'library-index.json'),
      (file) => engine.probe({ path: file }),
      logger,
    );
    this.minScore = options.minScore ?? 0.35;
  }

  /**
   * Indexes the folder, then watches it. With `background`, returns at once and indexes while
   * the server answers: files already in the index snapshot are searchable from the start, new
   * ones as each is probed; `pending()` says how far it got (readiness shows it).
   */
  async start(options: SourceStartOptions = {}): Promise<void> {
    this.started = true;
    await this.ensureFolder();
    const read: string[] = [];
    const initial = this.index.scan(this.stopping.signal, { read }).then((result) => {
      this.indexed = true;
      this.logger.info({ dir: this.index.root, ...result }, 'library indexed');
      if (result.total === 0 && !this.stopping.signal.aborted) this.sayEmpty();
      const wasRead = new Set(read);
      this.tellIndexed(this.files().map((f) => ({ ...f, read: wasRead.has(f.relPath) })));
      if (this.options.watch && !this.stopping.signal.aborted) this.watch();
    });
    if (!options.background) {
      await initial;
      return;
    }
    this.logger.info({ dir: this.index.root }, 'library: indexing in the background');
    this.initial = initial.catch((error: unknown) => {
      this.indexed = true;
      this.logger.error({ err: error, dir: this.index.root }, 'library indexing failed');
    });
  }

  /** A first start has no folder yet: it is made, so that files dropped in are picked up. */
  private async ensureFolder(): Promise<void> {
    try {
      await mkdir(this.index.root);
    } catch {
      // Already there (the usual case), or it cannot be made (no parent, no permission): the scan says so.
      return;
    }
    this.logger.info({ dir: this.index.root }, 'library folder created');
  }

  /** Where to put music, and what searches reach until then. */
  private sayEmpty(): void {
    const dir = this.index.root;
    const others = this.options.otherSources ?? [];
    const pickedUp = this.options.watch ? 'they are picked up without a restart' : 'restart (or run `npm run index`) to index them';
    const meanwhile =
      others.length > 0
        ? `searches reach ${others.join(', ')} meanwhile`
        : 'nothing else is searched (SOURCES=library): add deezer to SOURCES to search its catalogue';
    this.logger.warn(
      { dir, formats: [...AUDIO_EXTENSIONS].join(' '), sources: ['library', ...others] },
      `the library is empty: put audio files in ${dir} (tagged, or named "Artist - Title.ext"); ${pickedUp}; ${meanwhile}`,
    );
  }

  /**
   * From start() until the first scan is done: the folder being listed, then how many files are
   * read; later, a rescan's progress (a changed snapshot, say).
   */
  pending(): string | undefined {
    const p = this.index.progress();
    if (p) return `indexing: ${p.done} of ${p.total} files`;
    return this.started && !this.indexed ? 'indexing: listing the folder' : undefined;
  }

  async close(): Promise<void> {
    // Indexing stops taking files (scan and watcher alike) and the reads under way finish while
    // the engine is still open: a probe failing because the pool closed would be kept as the
    // file's tags.
    this.stopping.abort();
    await this.watcher?.close();
    this.watcher = undefined;
    await this.initial;
    await this.rescan;
    await this.index.close();
  }

  search(query: SearchQuery): Promise<TrackCandidate[]> {
    const scored: { entry: LibraryEntry; score: number; exact: number }[] = [];
    const score = matchScorer(query);
    const asked = normaliseText(query.track);
    for (const entry of this.index.entries()) {
      let names = this.names.get(entry);
      if (!names) this.names.set(entry, (names = normalisedNames(entry)));
      const entryScore = score(names);
      if (entryScore >= this.minScore) scored.push({ entry, score: entryScore, exact: normaliseText(entry.trackName) === asked ? 1 : 0 });
    }
    // The search service's order for one source (score, the title as asked, then the key), so the
    // first N here are the first N of its ranking and pages cut from it stay consistent.
    scored.sort((a, b) => b.score - a.score || b.exact - a.exact || a.entry.trackKey.localeCompare(b.entry.trackKey));
    return Promise.resolve(scored.slice(0, query.limit).map(({ entry }) => this.toCandidate(entry)));
  }

  fetchAudio(track: TrackMetadata): Promise<AudioInput> {
    const missing = (): Promise<never> => Promise.reject(new AppError('NO_AUDIO_SOURCE', `track ${track.trackKey} has no audio in the library`));
    const locator = track.audio?.locator;
    if (track.audio?.source !== this.name || !locator) return missing();
    try {
      return Promise.resolve({ path: this.index.absolutePath(locator) });
    } catch {
      return missing();
    }
  }

  async artwork(track: TrackMetadata): Promise<{ mime: string; data: Uint8Array } | undefined> {
    const entry = this.index.byTrackKey(track.trackKey);
    if (!entry?.hasPicture) return undefined;
    const probe = await this.engine.probe({ path: this.index.absolutePath(entry.relPath) });
    return probe.picture;
  }

  /** The library entry of a key, for callers that hold a key but no cached metadata. */
  lookup(trackKey: string): TrackMetadata | undefined {
    const entry = this.index.byTrackKey(trackKey);
    return entry ? { ...this.toCandidate(entry), trackKey: entry.trackKey } : undefined;
  }

  /** Every indexed track, one per trackKey (the file that wins the key), for the index CLI. */
  tracks(): TrackMetadata[] {
    const tracks: TrackMetadata[] = [];
    for (const entry of this.index.entries()) {
      if (this.index.byTrackKey(entry.trackKey) === entry) tracks.push({ ...this.toCandidate(entry), trackKey: entry.trackKey });
    }
    return tracks.sort((a, b) => (a.audio!.locator < b.audio!.locator ? -1 : 1));
  }

  /** Every indexed file, copies of one track included, with its track key: the files tags are written to. */
  files(): LibraryFile[] {
    return [...this.index.entries()].map((e) => ({ relPath: e.relPath, trackKey: e.trackKey })).sort((a, b) => (a.relPath < b.relPath ? -1 : 1));
  }

  /** The files of one track (copies of a song share its key). */
  filesOf(trackKey: string): LibraryFile[] {
    const files: LibraryFile[] = [];
    for (const e of this.index.entries()) if (e.trackKey === trackKey) files.push({ relPath: e.relPath, trackKey });
    return files.sort((a, b) => (a.relPath < b.relPath ? -1 : 1));
  }

  /** Tells `listener` of files as they are indexed (LibraryIndexedListener); returns its unsubscribe. */
  onIndexed(listener: LibraryIndexedListener): () => void {
    this.indexedListeners.add(listener);
    return () => this.indexedListeners.delete(listener);
  }

  /** The indexed files among `relPaths`, which the index has just read. */
  private filesRead(relPaths: readonly string[]): Parameters<LibraryIndexedListener>[0] {
    return relPaths.flatMap((rel) => {
      const entry = this.index.entry(rel);
      return entry ? [{ relPath: entry.relPath, trackKey: entry.trackKey, read: true }] : [];
    });
  }

  private tellIndexed(files: Parameters<LibraryIndexedListener>[0]): void {
    if (files.length === 0 || this.stopping.signal.aborted) return;
    for (const listener of this.indexedListeners) {
      try {
        listener(files);
      } catch (error) {
        this.logger.error({ err: error }, 'library: a listener of indexed files failed');
      }
    }
  }

  /** Brings a library file's tags to `values` (library.tags.ts), its audio checked through the engine's probe. */
  writeTags(relPath: string, values: TagValues, options: { dryRun?: boolean } = {}): Promise<TagWriteOutcome> {
    return writeTags(this.index.absolutePath(relPath), values, { ...options, probe: (file) => this.engine.probe({ path: file }) });
  }

  private toCandidate(entry: LibraryEntry): TrackCandidate {
    return {
      artist: entry.artist,
      trackName: entry.trackName,
      ...(entry.album ? { album: entry.album } : {}),
      ...(entry.durationMs !== undefined ? { durationMs: entry.durationMs } : {}),
      ...(entry.hasPicture ? { thumbnailUrl: this.options.artworkUrl(entry.trackKey) } : {}),
      source: this.name,
      sourceId: entry.relPath,
      audio: { source: this.name, locator: entry.relPath },
    };
  }

  private watch(): void {
    const root = this.index.root;
    const watcher = chokidar.watch(root, {
      ignoreInitial: true,
      awaitWriteFinish: { stabilityThreshold: 500, pollInterval: 100 },
      ignored: (file, stats) => stats?.isFile() === true && !AUDIO_EXTENSIONS.has(path.extname(file).toLowerCase()),
    });
    const onChange = (file: string): void => {
      const relPath = path.relative(root, file);
      this.index
        .refresh(relPath, true)
        .then((changed) => {
          const files = changed ? this.filesRead([relPath]) : [];
          if (files.length === 0) return;
          this.logger.info({ file }, 'library file indexed');
          this.tellIndexed(files);
        })
        .catch((error: unknown) => this.logger.warn({ file, err: error }, 'library update failed'));
    };
    watcher.on('add', onChange).on('change', onChange);
    watcher.on('unlink', (file) => {
      this.index.remove(path.relative(root, file)).catch((error: unknown) => {
        this.logger.warn({ file, err: error }, 'library update failed');
      });
    });
    watcher.on('error', (error) => this.logger.warn({ err: error }, 'library watcher error'));
    // Files added after the first scan but before the watcher had read the folder count as
    // already there for it: one more scan once it is ready catches them (unchanged files cost a
    // stat). The library is ready by then, and readiness does not wait for this one.
    watcher.on('ready', () => {
      const read: string[] = [];
      this.rescan = this.index
        .scan(this.stopping.signal, { reportProgress: false, read })
        .then((result) => {
          if (result.added + result.removed > 0) this.logger.info({ dir: root, ...result }, 'library indexed');
          this.tellIndexed(this.filesRead(read));
        })
        .then(
          () => undefined,
          (error: unknown) => this.logger.warn({ err: error, dir: root }, 'library update failed'),
        );
    });
    this.watcher = watcher;
  }
}
