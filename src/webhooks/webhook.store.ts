import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../db/database';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** How many webhooks' delivery logs one read takes. */
export const MAX_DELIVERY_BATCH = 100;

/** Where a delivery stands. */
export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

/** A delivery that is due, as the dispatchers see it: with what its attempt needs of its webhook (absent when deleted). */
export interface DueDelivery {
  id: string;
  next_attempt_at: string;
  webhook_id: string;
  event: string;
  payload: string;
  attempt: number;
  webhook: Pick<WebhookRow, 'url' | 'secret' | 'disabled_at'> | undefined;
}

/** The interests in a key's analysis, and the enabled webhooks of the keys that hold them. */
export interface Interested {
  interests: { key_id: string; created_at: string }[];
  webhooks: Pick<WebhookRow, 'id' | 'events'>[];
}

/** The outcome of one attempt, as the delivery keeps it. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  attempt: number;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  at: string;
}

/**
 * Webhooks of API keys, their deliveries (the pending ones are the retry queue, shared by every
 * node) and the interests of API keys in analyses not stored yet. Times are ISO-8601 text.
 */
export interface WebhookStore {
  insertWebhook(row: WebhookRow): Promise<void>;
  countWebhooks(keyId: string): Promise<number>;
  /** The webhooks of one key, or of every key (undefined), oldest first (then by id). */
  listWebhooks(keyId: string | undefined): Promise<WebhookRow[]>;
  getWebhook(id: string): Promise<WebhookRow | undefined>;
  /** Deletes a webhook and its deliveries; false when there was none. */
  deleteWebhook(id: string): Promise<boolean>;
  /**
   * Records (or refreshes, with the time `at`) that a key asked for an analysis of trackKey not
   * stored yet; nothing when the key has no enabled webhook: only keys with webhooks have anyone to tell.
   */
  recordInterest(trackKey: string, keyId: string, at: string): Promise<void>;
  /** The interests in trackKey, and the enabled webhooks of the keys that hold them. */
  interested(trackKey: string): Promise<Interested>;
  /** Removes the interests read (a pair refreshed since then stays). */
  consumeInterests(trackKey: string, read: readonly { key_id: string; created_at: string }[]): Promise<void>;
  /** Inserts deliveries; one already recorded for the same (event, webhook) is left as it is. Returns how many were new. */
  insertDeliveries(rows: readonly Insertable<WebhookDeliveriesTable>[]): Promise<number>;
  getDelivery(id: string): Promise<DeliveryRow | undefined>;
  /**
   * The newest `limit` deliveries of each of the webhooks (each listed once), by webhook id, then
   * newest first. RangeError for more than MAX_DELIVERY_BATCH webhooks.
   */
  deliveries(webhookIds: readonly string[], limit: number): Promise<DeliveryRow[]>;
  /** At most `limit` deliveries due at `now`, the longest waiting first, each with what its attempt needs of its webhook. */
  due(now: string, limit: number): Promise<DueDelivery[]>;
  /**
   * Takes a due delivery for one attempt by moving its due time to `leaseUntil`, on the condition
   * that it is still due when `delivery` says: of several nodes trying at once, one succeeds. If
   * the node dies while sending, the delivery is due again after the lease.
   */
  claim(delivery: DueDelivery, leaseUntil: string): Promise<boolean>;
  /** Keeps the outcome of an attempt on the delivery. */
  recordAttempt(id: string, outcome: AttemptOutcome): Promise<void>;
  /** A success: the webhook's failures in a row start again from 0, and a disabled webhook is enabled again when `enable`. */
  recordSuccess(webhookId: string, enable: boolean): Promise<void>;
  /** Counts one more failure in a row; returns the count this failure made (0 when the webhook is gone). */
  recordFailure(webhookId: string): Promise<number>;
  /**
   * Disables an enabled webhook with its reason, and fails its deliveries still waiting (test
   * events aside); false when it was disabled already (another node got there first) or is gone.
   */
  disable(webhookId: string, reason: string, at: string): Promise<boolean>;
  /** Deletes finished deliveries created before `deliveriesBefore` and interests older than `interestsBefore`. */
  prune(deliveriesBefore: string, interestsBefore: string): Promise<void>;
}

/**
 * The webhook tables (migration 0006) on SQLite or Postgres. Every write that several nodes may
 * race on is one conditional statement.
 */
export class SqlWebhookStore implements WebhookStore {
  private readonly db: Database['db'];

  constructor(database: Pick<Database, 'db'>) {
    this.db = database.db;
  }

  async insertWebhook(row: WebhookRow): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  async countWebhooks(keyId: string): Promise<number> {
    const row = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number | string>().as('n')).where('key_id', '=', keyId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async listWebhooks(keyId: string | undefined): Promise<WebhookRow[]> {
    let query = this.db.selectFrom('webhooks').selectAll();
    if (keyId !== undefined) query = query.where('key_id', '=', keyId);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  async getWebhook(id: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      const result = await tx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** One statement, which writes nothing when the key has no enabled webhook (most keys). */
  async recordInterest(trackKey: string, keyId: string, at: string): Promise<void> {
    await this.db
      .insertInto('webhook_interests')
      .columns(['track_key', 'key_id', 'created_at'])
      .expression(
        this.db
          .selectFrom('webhooks')
          .select([sql<string>`${trackKey}`.as('track_key'), sql<string>`${keyId}`.as('key_id'), sql<string>`${at}`.as('created_at')])
          .where('key_id', '=', keyId)
          .where('disabled_at', 'is', null)
          .limit(1),
      )
      .onConflict((oc) => oc.columns(['track_key', 'key_id']).doUpdateSet({ created_at: at }))
      .execute();
  }

  /** One query: each interest joined with the enabled webhooks of its key. */
  async interested(trackKey: string): Promise<Interested> {
    const rows = await this.db
      .selectFrom('webhook_interests as i')
      .leftJoin('webhooks as w', (join) => join.onRef('w.key_id', '=', 'i.key_id').on('w.disabled_at', 'is', null))
      .select(['i.key_id', 'i.created_at', 'w.id', 'w.events'])
      .where('i.track_key', '=', trackKey)
      .execute();
    const interests = new Map<string, { key_id: string; created_at: string }>();
    const webhooks: Pick<WebhookRow, 'id' | 'events'>[] = [];
    for (const r of rows) {
      interests.set(r.key_id, { key_id: r.key_id, created_at: r.created_at });
      if (r.id !== null && r.events !== null) webhooks.push({ id: r.id, events: r.events });
    }
    return { interests: [...interests.values()], webhooks };
  }

  async consumeInterests(trackKey: string, read: readonly { key_id: string; created_at: string }[]): Promise<void> {
    if (read.length === 0) return;
    await this.db
      .deleteFrom('webhook_interests')
      .where('track_key', '=', trackKey)
      .where((eb) => eb.or(read.map((r) => eb.and([eb('key_id', '=', r.key_id), eb('created_at', '=', r.created_at)]))))
      .execute();
  }

  async insertDeliveries(rows: readonly Insertable<WebhookDeliveriesTable>[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result = await this.db
      .insertInto('webhook_deliveries')
      .values([...rows])
      .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  async getDelivery(id: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * One statement: a UNION ALL of one bounded read per webhook, so each part walks the
   * (webhook_id, created_at) index and stops at `limit` however long the webhook's log is. At
   * most MAX_DELIVERY_BATCH webhooks at a time (SQLite allows 500 parts).
   */
  async deliveries(webhookIds: readonly string[], limit: number): Promise<DeliveryRow[]> {
    if (webhookIds.length > MAX_DELIVERY_BATCH) throw new RangeError(`at most ${MAX_DELIVERY_BATCH} webhooks at a time`);
    const newest = (webhookId: string) =>
      this.db
        .selectFrom((db) =>
          db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).as('d'),
        )
        .selectAll();
    const [first, ...rest] = [...new Set(webhookIds)];
    if (first === undefined) return [];
    return rest
      .reduce((query, id) => query.unionAll(newest(id)), newest(first))
      .orderBy('webhook_id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** One query: the deliveries with their webhooks. */
  async due(now: string, limit: number): Promise<DueDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.next_attempt_at', 'd.webhook_id', 'd.event', 'd.payload', 'd.attempt', 'w.url', 'w.secret', 'w.disabled_at', 'w.id as found'])
      .where('d.next_attempt_at', '<=', now)
      .orderBy('d.next_attempt_at')
      .limit(limit)
      .execute();
    return rows.flatMap((r) =>
      r.next_attempt_at === null
        ? []
        : [
            {
              id: r.id,
              next_attempt_at: r.next_attempt_at,
              webhook_id: r.webhook_id,
              event: r.event,
              payload: r.payload,
              attempt: r.attempt,
              webhook: r.found !== null && r.url !== null && r.secret !== null ? { url: r.url, secret: r.secret, disabled_at: r.disabled_at } : undefined,
            },
          ],
    );
  }

  async claim(delivery: DueDelivery, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: leaseUntil })
      .where('id', '=', delivery.id)
      .where('next_attempt_at', '=', delivery.next_attempt_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recordAttempt(id: string, outcome: AttemptOutcome): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempt: outcome.attempt,
        next_attempt_at: outcome.nextAttemptAt,
        response_status: outcome.responseStatus,
        duration_ms: outcome.durationMs,
        error: outcome.error,
        updated_at: outcome.at,
      })
      .where('id', '=', id)
      .execute();
  }

  async recordSuccess(webhookId: string, enable: boolean): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({ consecutive_failures: 0, ...(enable ? { disabled_at: null, disabled_reason: null } : {}) })
      .where('id', '=', webhookId)
      .execute();
  }

  async recordFailure(webhookId: string): Promise<number> {
    // One statement: the count returned is the one this increment made, whatever other nodes do.
    const row = await this.db
      .updateTable('webhooks')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', webhookId)
      .returning('consecutive_failures')
      .executeTakeFirst();
    return row?.consecutive_failures ?? 0;
  }

  async disable(webhookId: string, reason: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('webhooks')
        .set({ disabled_at: at, disabled_reason: reason })
        .where('id', '=', webhookId)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await tx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, error: 'not sent: the webhook was disabled', updated_at: at })
        .where('webhook_id', '=', webhookId)
        .where('next_attempt_at', 'is not', null)
        .where('event', '!=', 'webhook.test')
        .execute();
      return true;
    });
  }

  async prune(deliveriesBefore: string, interestsBefore: string): Promise<void> {
    await this.db.deleteFrom('webhook_deliveries').where('next_attempt_at', 'is', null).where('created_at', '<', deliveriesBefore).execute();
    await this.db.deleteFrom('webhook_interests').where('created_at', '<', interestsBefore).execute();
  }
}
