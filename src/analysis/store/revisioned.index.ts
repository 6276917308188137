import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { RevisionCursor } from './revisions';

/** Rows read per statement while an index loads (SQLite holds the event loop for each: about 20 ms). */
export const LOAD_CHUNK = 10_000;

type Where = ReturnType<typeof sql>;

/**
 * What the in-memory indexes over the analyses table share (the browse index, the sound index):
 * the first load reads the table in chunks by seq, letting requests through between chunks;
 * afterwards each sync reads what changed since the last one (revisions.ts) and applies it.
 * Loads and syncs run one at a time, in order (`tail`); calls to sync() made while one runs
 * share the next one. The subclass says what it reads of a row and how it holds it.
 */
export abstract class RevisionedIndex {
  protected readonly cursor: RevisionCursor;
  /** True once the first load has finished. */
  protected loaded = false;
  private loading: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** The last load or sync started: more reads of the index's own (a tag) chain after it. */
  protected tail: Promise<void> = Promise.resolve();

  /** `onError`: told of each failed load (the next call tries again). */
  constructor(
    protected readonly database: Database,
    protected readonly onError: (error: unknown) => void,
  ) {
    this.cursor = new RevisionCursor(database);
  }

  /** The statement reading the analyses `where` selects, with what the index holds of each (seq and track_key among them). */
  protected abstract rowsSelect(where: Where): Where;

  /** Takes rows read in: a new seq added, a known one's values replaced. */
  protected abstract apply(rows: Record<string, unknown>[]): void | Promise<void>;

  /** After each load and sync (the sound index grows its graph). */
  protected afterRead(): void {}

  /** Loads the index (once; later calls share the load); a failed load may be tried again. */
  load(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.loading ??= this.loadAll().then(
      () => {
        this.loaded = true;
      },
      (error: unknown) => {
        this.loading = undefined;
        this.onError(error);
        throw error;
      },
    );
    return this.loading;
  }

  /** Applies the changes since the last call; calls made while one runs share the next one. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.tail
      .catch(() => {})
      .then(() => {
        this.queued = undefined;
        return this.syncOnce();
      });
    this.queued = next;
    this.tail = next;
    return next;
  }

  private async loadAll(): Promise<void> {
    const started = await this.cursor.mark();
    let after = 0;
    for (;;) {
      const rows = await this.readRows(sql`seq > ${after} order by seq limit ${LOAD_CHUNK}`);
      if (rows.length === 0) break;
      const last = Number(rows[rows.length - 1]!.seq);
      await this.apply(rows);
      after = last;
      // Let requests through between chunks (SQLite reads synchronously).
      await new Promise((resolve) => setImmediate(resolve));
    }
    started();
    this.afterRead();
  }

  private async syncOnce(): Promise<void> {
    const rows = await this.cursor.changed((where) => this.rowsSelect(where));
    if (rows.length > 0) await this.apply(rows);
    this.afterRead();
  }

  private async readRows(where: Where): Promise<Record<string, unknown>[]> {
    return (await sql<Record<string, unknown>>`${this.rowsSelect(where)}`.execute(this.database.db)).rows;
  }
}
