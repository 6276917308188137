import type { Kysely } from 'kysely';
import type { Database, DatabaseSchema } from '../db/database';

/** Counts of one (day, key), as they travel from memory to the store. */
export interface UsageCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  keyId: string;
  requests: number;
  analyses: number;
  /** Uploads begun (POST /api/audio/analyses), refused or not once their body was read. */
  uploads: number;
  /** Bytes received of those uploads. */
  uploadBytes: number;
}

/** An empty count of a key on a day. */
export const zeroCount = (day: string, keyId: string): UsageCount => ({ day, keyId, requests: 0, analyses: 0, uploads: 0, uploadBytes: 0 });

/** Adds `c`'s counts to `into`'s. */
export function addCounts(into: UsageCount, c: UsageCount): void {
  into.requests += c.requests;
  into.analyses += c.analyses;
  into.uploads += c.uploads;
  into.uploadBytes += c.uploadBytes;
}

/** Requests, analyses and uploads per key per UTC day, added to in batches and read back by day. */
export interface UsageStore {
  /** Adds counts to the stored ones (a day and key not stored yet starts from them), all or none. */
  add(counts: readonly UsageCount[]): Promise<void>;
  /**
   * Adds a batch of counts once: the batch id is recorded with the counts, all or none, and a
   * batch already recorded is not added again (a node that stopped between the store and Redis,
   * or two nodes draining one batch). Returns whether the counts were added.
   */
  addBatch(batchId: string, counts: readonly UsageCount[], now: number): Promise<boolean>;
  /** Forgets batch ids recorded before `before` (epoch ms; a batch is drained within minutes, not days). */
  pruneBatches(before: number): Promise<void>;
  /** Stored counts from `since` (a day, inclusive), of one key or of all, in no particular order. */
  read(since: string, keyId?: string): Promise<UsageCount[]>;
}

/** Rows per statement when counts are added (6 parameters each). */
const ROWS_PER_STATEMENT = 150;

/** The tables api_key_usage and api_key_usage_batches (migration 0005) on SQLite or Postgres. */
export class SqlUsageStore implements UsageStore {
  constructor(private readonly database: Pick<Database, 'db'>) {}

  async add(counts: readonly UsageCount[]): Promise<void> {
    // One statement is atomic by itself; more are made one transaction.
    if (counts.length <= ROWS_PER_STATEMENT) await addTo(this.database.db, counts);
    else await this.database.db.transaction().execute((trx) => addTo(trx, counts));
  }

  async addBatch(batchId: string, counts: readonly UsageCount[], now: number): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const recorded = await trx
        .insertInto('api_key_usage_batches')
        .values({ batch_id: batchId, flushed_at: new Date(now).toISOString() })
        .onConflict((oc) => oc.column('batch_id').doNothing())
        .executeTakeFirst();
      if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await addTo(trx, counts);
      return true;
    });
  }

  async pruneBatches(before: number): Promise<void> {
    await this.database.db.deleteFrom('api_key_usage_batches').where('flushed_at', '<', new Date(before).toISOString()).execute();
  }

  async read(since: string, keyId?: string): Promise<UsageCount[]> {
    let query = this.database.db
      .selectFrom('api_key_usage')
      .select(['key_id', 'day', 'requests', 'analyses', 'uploads', 'upload_bytes'])
      .where('day', '>=', since);
    if (keyId !== undefined) query = query.where('key_id', '=', keyId);
    const rows = await query.execute();
    return rows.map((r) => ({
      keyId: r.key_id,
      day: r.day,
      requests: Number(r.requests),
      analyses: Number(r.analyses),
      uploads: Number(r.uploads),
      uploadBytes: Number(r.upload_bytes),
    }));
  }
}

/** Adds counts to the stored ones, ROWS_PER_STATEMENT rows per statement, on `db` (a transaction, or not). */
async function addTo(db: Kysely<DatabaseSchema>, counts: readonly UsageCount[]): Promise<void> {
  for (let i = 0; i < counts.length; i += ROWS_PER_STATEMENT) {
    await db
      .insertInto('api_key_usage')
      .values(
        counts
          .slice(i, i + ROWS_PER_STATEMENT)
          .map((c) => ({ key_id: c.keyId, day: c.day, requests: c.requests, analyses: c.analyses, uploads: c.uploads, upload_bytes: c.uploadBytes })),
      )
      .onConflict((oc) =>
        oc.columns(['key_id', 'day']).doUpdateSet((eb) => ({
          requests: eb('api_key_usage.requests', '+', eb.ref('excluded.requests')),
          analyses: eb('api_key_usage.analyses', '+', eb.ref('excluded.analyses')),
          uploads: eb('api_key_usage.uploads', '+', eb.ref('excluded.uploads')),
          upload_bytes: eb('api_key_usage.upload_bytes', '+', eb.ref('excluded.upload_bytes')),
        })),
      )
      .execute();
  }
}
