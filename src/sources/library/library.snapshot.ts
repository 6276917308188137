import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

interface Snapshot<E> {
  version: 1;
  entries: E[];
}

/**
 * The library index's snapshot in DATA_DIR. Writes are coalesced, since a burst of watcher events
 * would otherwise write the whole file once per event: one write at a time, and however many
 * changes arrive while one is under way, one more write after it, of the entries as they are
 * then. Each write goes to a temporary file of its own and is renamed over the snapshot, so a
 * reader (or a crash) finds the old file or the new one, never part of one.
 */
export class LibrarySnapshot<E> {
  /** The write under way. */
  private writing: Promise<void> | undefined;
  /** The write that follows it, asked for while it ran. */
  private next: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly entries: () => E[],
  ) {}

  /** The entries of the snapshot; none when there is none yet or it cannot be read. */
  async load(): Promise<E[]> {
    try {
      const snapshot = JSON.parse(await fs.readFile(this.file, 'utf8')) as Snapshot<E>;
      return snapshot.version === 1 ? snapshot.entries : [];
    } catch {
      return [];
    }
  }

  /** Resolves once a write that began after this call (so holds every change before it) is done. */
  save(): Promise<void> {
    if (this.next) return this.next;
    if (!this.writing) return this.start();
    const after = this.writing.catch(() => undefined).then(() => {
      this.next = undefined;
      return this.start();
    });
    this.next = after;
    return after;
  }

  /** Waits for the write under way and the one asked for after it; their failures were their callers'. */
  async flush(): Promise<void> {
    await (this.next ?? this.writing)?.catch(() => undefined);
  }

  private start(): Promise<void> {
    const run = this.write().finally(() => {
      if (this.writing === run) this.writing = undefined;
    });
    this.writing = run;
    return run;
  }

  private async write(): Promise<void> {
    const snapshot: Snapshot<E> = { version: 1, entries: this.entries() };
    const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    try {
      await fs.writeFile(tmp, JSON.stringify(snapshot));
      await fs.rename(tmp, this.file);
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }
}
