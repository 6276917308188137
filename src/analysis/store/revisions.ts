import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database';

/** A statement's rows for the analyses a condition on the `analyses` table selects. */
export type RowsSelect = (where: RawBuilder<unknown>) => RawBuilder<unknown>;

/**
 * Where an in-memory copy of the analyses (the browse index, the sound index) stands in the
 * database's history of writes, and what changed since (migration 0012's `analyses.revision`):
 *  - SQLite: a write sets revision to the table's largest plus one, in its transaction; writers
 *    are serialised, so the revisions commit in order and `revision > last` finds every change.
 *  - Postgres: a write sets revision to its transaction's id (pg_current_xact_id). Transactions
 *    commit out of order, so a read takes `revision ≥ the previous read's snapshot xmin`: every
 *    transaction not finished at that snapshot has an id at least that, so none is missed, and
 *    rows read again are applied again (harmless).
 *  - A row inserted without a revision (a bulk load, an older version of the service) is still
 *    found by its seq, above the largest one seen.
 */
export class RevisionCursor {
  /** SQLite: the largest revision applied; Postgres: the xmin of the last snapshot read. */
  private revision = 0;
  private maxSeq = 0;

  constructor(private readonly database: Database) {}

  /**
   * Where a full load starts: changes committed from here on are read again by the next
   * `changed`. Call before reading the table; apply what it returns after.
   */
  async mark(): Promise<() => void> {
    const db = this.database.db;
    const start =
      this.database.dialect === 'postgres'
        ? (await sql<{ r: string; s: string | null }>`select pg_snapshot_xmin(pg_current_snapshot())::text as r, (select max(seq) from analyses) as s`.execute(db)).rows[0]
        : (await sql<{ r: number | null; s: number | null }>`select (select max(revision) from analyses) as r, (select max(seq) from analyses) as s`.execute(db)).rows[0];
    return () => {
      this.revision = Number(start?.r ?? 0);
      this.maxSeq = Math.max(this.maxSeq, Number(start?.s ?? 0));
    };
  }

  /** A seq applied (the largest seen rises with it). */
  saw(seq: number): void {
    if (seq > this.maxSeq) this.maxSeq = seq;
  }

  /**
   * The rows (by `select`) of the analyses written since the last call, as one read on the
   * indexes (revision, seq); every row has its `seq`.
   */
  async changed(select: RowsSelect): Promise<Record<string, unknown>[]> {
    const db = this.database.db;
    if (this.database.dialect === 'postgres') {
      // The snapshot's xmin, and the rows changed since the last one's, in one statement (one snapshot).
      const { rows } = await sql<Record<string, unknown> & { xmin: string }>`
        select x.xmin, c.* from (select pg_snapshot_xmin(pg_current_snapshot())::text as xmin) as x
        left join (${select(sql`revision >= ${this.revision}`)} union ${select(sql`seq > ${this.maxSeq}`)}) as c on true`.execute(db);
      this.revision = Number(rows[0]?.xmin ?? this.revision);
      return rows.filter((r) => r.seq !== null && r.seq !== undefined);
    }
    const [top] = (await sql<{ r: number | null; s: number | null }>`select (select max(revision) from analyses) as r, (select max(seq) from analyses) as s`.execute(db)).rows;
    const revision = Number(top?.r ?? 0);
    const maxSeq = Number(top?.s ?? 0);
    if (revision <= this.revision && maxSeq <= this.maxSeq) return [];
    const { rows } = await sql<Record<string, unknown>>`${select(sql`revision > ${this.revision}`)} union all ${select(sql`seq > ${this.maxSeq} and revision <= ${this.revision}`)}`.execute(db);
    this.revision = Math.max(this.revision, revision);
    return rows;
  }
}
