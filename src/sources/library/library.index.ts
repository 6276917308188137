import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AUDIO_EXTENSIONS } from '../../core/audio-formats';
import { DURATION_MAX_MS, NAME_MAX_LENGTH } from '../../core/contract.schema';
import type { Logger } from '../../core/logger';
import { trackKey } from '../../core/track-key';
import type { AudioProbe } from '../../core/types';
import { LibrarySnapshot } from './library.snapshot';

export interface LibraryEntry {
  /** Path relative to the library root, with forward slashes. */
  relPath: string;
  trackKey: string;
  artist: string;
  trackName: string;
  album?: string;
  durationMs?: number;
  hasPicture: boolean;
  size: number;
  mtimeMs: number;
}

export type Probe = (absolutePath: string) => Promise<AudioProbe>;

/** Files a scan reads (stats and probes) at once. */
export const PROBES_AT_ONCE = 4;

/**
 * The library's files and what their tags say, kept in memory and snapshotted to DATA_DIR so a
 * restart only probes files that are new or changed (size or mtime).
 */
export class LibraryIndex {
  private readonly byPath = new Map<string, LibraryEntry>();
  /** Rebuilt when asked for after a change (keysStale), not once per change: watcher events come in bursts. */
  private byKey = new Map<string, LibraryEntry>();
  private keysStale = false;
  private readonly snapshot: LibrarySnapshot<LibraryEntry>;
  private scanning: { done: number; total: number } | undefined;
  /** File reads under way, so a shutdown can wait for them while the engine is still open. */
  private readonly inFlight = new Set<Promise<boolean>>();

  constructor(
    readonly root: string,
    snapshotFile: string,
    private readonly probe: Probe,
    private readonly logger: Logger,
    private readonly concurrency = PROBES_AT_ONCE,
  ) {
    this.snapshot = new LibrarySnapshot(snapshotFile, () => [...this.byPath.values()]);
  }

  get size(): number {
    return this.byPath.size;
  }

  entries(): IterableIterator<LibraryEntry> {
    return this.byPath.values();
  }

  /** The entry of a file, by its path relative to the root. */
  entry(relPath: string): LibraryEntry | undefined {
    return this.byPath.get(relPath.split(path.sep).join('/'));
  }

  byTrackKey(key: string): LibraryEntry | undefined {
    if (this.keysStale) this.rebuildKeys();
    return this.byKey.get(key);
  }

  /** Absolute path of an entry, refusing anything that would resolve outside the root. */
  absolutePath(relPath: string): string {
    const abs = path.resolve(this.root, relPath);
    const rel = path.relative(this.root, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`path escapes the library: ${relPath}`);
    return abs;
  }

  /**
   * Brings the index in line with the folder: probes new and changed files, drops removed ones.
   * Once `signal` aborts, no further file is probed; what was probed is kept (and snapshotted).
   * `read` collects the paths of the files probed (new, or changed since the snapshot).
   */
  async scan(signal?: AbortSignal, options: { reportProgress?: boolean; read?: string[] } = {}): Promise<{ added: number; removed: number; total: number }> {
    await this.loadSnapshot();
    const files = await this.listAudioFiles();
    const present = new Set(files);
    let removed = 0;
    for (const rel of [...this.byPath.keys()]) {
      if (!present.has(rel)) {
        this.byPath.delete(rel);
        removed++;
      }
    }
    let added = 0;
    let next = 0;
    const progress = { done: 0, total: files.length };
    // A scan that checks an index already in use (reportProgress false) leaves progress() alone.
    if (options.reportProgress !== false) this.scanning = progress;
    const worker = async (): Promise<void> => {
      while (next < files.length && !signal?.aborted) {
        const rel = files[next++]!;
        if (await this.refresh(rel)) {
          added++;
          options.read?.push(rel);
        }
        progress.done++;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, files.length) }, worker));
      this.keysStale = true;
      await this.snapshot.save();
    } finally {
      if (this.scanning === progress) this.scanning = undefined;
    }
    return { added, removed, total: this.byPath.size };
  }

  /** Files checked so far by the scan under way, or undefined when none is. */
  progress(): { done: number; total: number } | undefined {
    return this.scanning ? { ...this.scanning } : undefined;
  }

  /** Re-reads one file (added or changed); returns true when the index changed. */
  refresh(relPath: string, rebuild = false): Promise<boolean> {
    const running = this.refreshNow(relPath, rebuild);
    this.inFlight.add(running);
    const done = (): void => void this.inFlight.delete(running);
    running.then(done, done);
    return running;
  }

  /** Waits for every file read under way (the scan's and the watcher's) to be recorded, and the snapshot written. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    await this.snapshot.flush();
  }

  private async refreshNow(relPath: string, rebuild: boolean): Promise<boolean> {
    const rel = relPath.split(path.sep).join('/');
    if (!AUDIO_EXTENSIONS.has(path.extname(rel).toLowerCase())) return false;
    let stat;
    try {
      stat = await fs.stat(this.absolutePath(rel));
    } catch {
      return this.remove(rel, rebuild);
    }
    const known = this.byPath.get(rel);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return false;
    const entry = await this.describe(rel, stat.size, stat.mtimeMs);
    this.byPath.set(rel, entry);
    if (rebuild) {
      this.keysStale = true;
      await this.snapshot.save();
    }
    return true;
  }

  async remove(relPath: string, rebuild = true): Promise<boolean> {
    const rel = relPath.split(path.sep).join('/');
    const had = this.byPath.delete(rel);
    if (had && rebuild) {
      this.keysStale = true;
      await this.snapshot.save();
    }
    return had;
  }

  private async describe(rel: string, size: number, mtimeMs: number): Promise<LibraryEntry> {
    let tags: AudioProbe = {};
    try {
      tags = await this.probe(this.absolutePath(rel));
    } catch (error) {
      this.logger.warn({ file: rel, err: error }, 'could not read tags; naming the file from its path');
    }
    const fromName = nameFromPath(rel);
    const artist = clean(tags.artist) ?? clean(fromName.artist) ?? 'Unknown Artist';
    const trackName = clean(tags.title) ?? clean(fromName.trackName) ?? 'Untitled';
    const album = clean(tags.album);
    const durationMs = tags.durationMs === undefined ? undefined : Math.round(tags.durationMs);
    return {
      relPath: rel,
      trackKey: trackKey(artist, trackName),
      artist,
      trackName,
      ...(album ? { album } : {}),
      ...(durationMs !== undefined && durationMs >= 1 && durationMs <= DURATION_MAX_MS ? { durationMs } : {}),
      hasPicture: tags.picture !== undefined,
      size,
      mtimeMs,
    };
  }

  /** Two files with the same artist and title share a key; the first path in order wins. */
  private rebuildKeys(): void {
    const keys = new Map<string, LibraryEntry>();
    const sorted = [...this.byPath.values()].sort((a, b) => a.relPath.localeCompare(b.relPath));
    for (const e of sorted) if (!keys.has(e.trackKey)) keys.set(e.trackKey, e);
    this.byKey = keys;
    this.keysStale = false;
  }

  private async listAudioFiles(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.root, { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.logger.warn({ dir: this.root }, 'library folder does not exist; the library is empty');
        return [];
      }
      throw error;
    }
    return names
      .filter((n) => AUDIO_EXTENSIONS.has(path.extname(n).toLowerCase()))
      .map((n) => n.split(path.sep).join('/'))
      .sort();
  }

  private async loadSnapshot(): Promise<void> {
    if (this.byPath.size > 0) return;
    // No snapshot yet, or an unreadable one, loads nothing: the scan probes every file.
    for (const e of await this.snapshot.load()) this.byPath.set(e.relPath, e);
  }
}

/**
 * A tag (or a file name) as a name: control characters read as spaces (a tag is data from
 * outside, and they could forge log lines), trimmed; blank or longer than a name may be
 * (src/core/contract.schema.ts) counts as absent.
 */
function clean(value: string | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  const v = value?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return v && v.length <= NAME_MAX_LENGTH ? v : undefined;
}

/**
 * Names a file without tags: "Artist - Title.ext"; "NN - Title.ext" or "Title.ext" take the
 * artist from the folder two levels up (Artist/Album/NN - Title.ext), else "Unknown Artist".
 */
export function nameFromPath(relPath: string): { artist: string; trackName: string } {
  const parts = relPath.split('/');
  const base = path.basename(parts[parts.length - 1]!, path.extname(relPath)).trim();
  const folderArtist = parts.length >= 3 ? parts[parts.length - 3] : parts.length === 2 ? parts[0] : undefined;
  const m = /^(.+?)\s+-\s+(.+)$/.exec(base);
  if (m && !/^\d{1,3}$/.test(m[1]!.trim())) return { artist: m[1]!.trim(), trackName: m[2]!.trim() };
  const title = m ? m[2]!.trim() : base;
  return { artist: folderArtist?.trim() || 'Unknown Artist', trackName: title || base };
}
