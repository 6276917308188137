import type { Insertable } from 'kysely';
import type { WebhookDeliveriesTable } from '../../src/db/database';
import { MAX_DELIVERY_BATCH, type DueDelivery, type WebhookRow, type WebhookStore } from '../../src/webhooks/webhook.store';
import type { StoreUnderTest } from './sql-database';

const at = (second: number): string => new Date(Date.parse('2030-06-01T00:00:00.000Z') + second * 1000).toISOString();

const webhook = (id: string, fields: Partial<WebhookRow> = {}): WebhookRow => ({
  id,
  key_id: 'k1',
  url: `https://hooks.example/${id}`,
  events: JSON.stringify(['analysis.completed', 'analysis.failed']),
  secret: `sealed-${id}`,
  created_at: at(0),
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  ...fields,
});

type NewDelivery = Insertable<WebhookDeliveriesTable>;

const delivery = (id: string, webhookId: string, fields: Partial<NewDelivery> = {}): NewDelivery => ({
  id,
  webhook_id: webhookId,
  event_id: `event-of-${id}`,
  event: 'analysis.completed',
  payload: JSON.stringify({ type: 'analysis.completed', data: { trackKey: 'bc24aaa5a97c70ed' } }),
  status: 'pending',
  attempt: 0,
  next_attempt_at: at(10),
  response_status: null,
  duration_ms: null,
  error: null,
  created_at: at(10),
  updated_at: at(10),
  ...fields,
});

const ids = (rows: readonly { id: string }[]): string[] => rows.map((r) => r.id);

/**
 * What every webhook store promises WebhookService and the dispatchers, whatever database is
 * behind it. Run against each with a factory of empty stores (sql-stores.*.contract.test.ts).
 */
export function describeWebhookStoreContract(label: string, factory: () => Promise<StoreUnderTest<WebhookStore>>): void {
  describe(`webhook store contract: ${label}`, () => {
    let under: StoreUnderTest<WebhookStore>;
    let store: WebhookStore;
    beforeEach(async () => {
      under = await factory();
      store = under.store;
    });
    afterEach(() => under.close());

    it('when nothing is stored, then nothing is listed, counted, due or interested', async () => {
      expect(await store.listWebhooks(undefined)).toEqual([]);
      expect(await store.countWebhooks('k1')).toBe(0);
      expect(await store.getWebhook('w1')).toBeUndefined();
      expect(await store.getDelivery('d1')).toBeUndefined();
      expect(await store.due(at(100), 10)).toEqual([]);
      expect(await store.deliveries([], 10)).toEqual([]);
      expect(await store.interested('bc24aaa5a97c70ed')).toEqual({ interests: [], webhooks: [] });
    });

    it('gives back every field of a webhook, lists them oldest first (then by id), of one key or all, and counts a key\'s', async () => {
      const w3 = webhook('w3', { created_at: at(3), key_id: 'k2', disabled_at: at(4), disabled_reason: 'too many failures', consecutive_failures: 20 });
      const w2 = webhook('w2', { created_at: at(1) });
      const w1 = webhook('w1', { created_at: at(1) });
      const w0 = webhook('w0', { created_at: at(2) });
      for (const w of [w3, w2, w1, w0]) await store.insertWebhook(w);
      expect(await store.getWebhook('w3')).toEqual(w3);
      expect(await store.listWebhooks(undefined)).toEqual([w1, w2, w0, w3]);
      expect(await store.listWebhooks('k1')).toEqual([w1, w2, w0]);
      expect(await store.listWebhooks('k9')).toEqual([]);
      expect(await store.countWebhooks('k1')).toBe(3);
      expect(await store.countWebhooks('k2')).toBe(1);
    });

    it('when a webhook is deleted, then its deliveries go with it and another webhook\'s stay', async () => {
      await store.insertWebhook(webhook('w1'));
      await store.insertWebhook(webhook('w2'));
      await store.insertDeliveries([delivery('d1', 'w1'), delivery('d2', 'w1', { status: 'succeeded', next_attempt_at: null }), delivery('d3', 'w2')]);
      expect(await store.deleteWebhook('w1')).toBe(true);
      expect(await store.getWebhook('w1')).toBeUndefined();
      expect(await store.getDelivery('d1')).toBeUndefined();
      expect(await store.getDelivery('d2')).toBeUndefined();
      expect(await store.deliveries(['w1', 'w2'], 10).then(ids)).toEqual(['d3']);
      expect(ids(await store.due(at(100), 10))).toEqual(['d3']);
      expect(await store.deleteWebhook('w1')).toBe(false);
    });

    it('records a delivery of an event to a webhook once, gives back every field, and says how many were new', async () => {
      await store.insertWebhook(webhook('w1'));
      await store.insertWebhook(webhook('w2'));
      const d1 = delivery('d1', 'w1', { event_id: 'e1' });
      expect(await store.insertDeliveries([d1, delivery('d2', 'w2', { event_id: 'e1' })])).toBe(2);
      // The same event heard again (another node, another id): nothing new.
      expect(await store.insertDeliveries([delivery('d3', 'w1', { event_id: 'e1' }), delivery('d4', 'w1', { event_id: 'e2' })])).toBe(1);
      expect(await store.insertDeliveries([])).toBe(0);
      expect(await store.getDelivery('d1')).toEqual(d1);
      expect(await store.getDelivery('d3')).toBeUndefined();
      expect(await store.getDelivery('d4')).toBeDefined();
    });

    it('reads the newest deliveries of many webhooks at once, at most `limit` each, by webhook then newest first', async () => {
      await store.insertWebhook(webhook('wa'));
      await store.insertWebhook(webhook('wb'));
      await store.insertDeliveries([
        delivery('a1', 'wa', { created_at: at(1) }),
        delivery('a2', 'wa', { created_at: at(2) }),
        delivery('a3', 'wa', { created_at: at(3) }),
        delivery('a4', 'wa', { created_at: at(3) }),
        delivery('b1', 'wb', { created_at: at(5) }),
      ]);
      expect(ids(await store.deliveries(['wb', 'wa', 'wb', 'none'], 3))).toEqual(['a4', 'a3', 'a2', 'b1']);
      expect(ids(await store.deliveries(['wa'], 1))).toEqual(['a4']);
      await expect(store.deliveries(Array.from({ length: MAX_DELIVERY_BATCH + 1 }, (_, i) => `w${i}`), 1)).rejects.toBeInstanceOf(RangeError);
    });

    it('records an interest only for a key with an enabled webhook, and answers it with that key\'s enabled webhooks', async () => {
      await store.insertWebhook(webhook('w1', { key_id: 'k1' }));
      await store.insertWebhook(webhook('w2', { key_id: 'k1', disabled_at: at(1), disabled_reason: 'off' }));
      await store.insertWebhook(webhook('w3', { key_id: 'k1' }));
      await store.insertWebhook(webhook('w4', { key_id: 'k2', disabled_at: at(1), disabled_reason: 'off' }));
      for (const keyId of ['k1', 'k2', 'k3']) await store.recordInterest('track-a', keyId, at(5));
      const found = await store.interested('track-a');
      expect(found.interests).toEqual([{ key_id: 'k1', created_at: at(5) }]);
      expect(found.webhooks.map((w) => w.id).sort()).toEqual(['w1', 'w3']);
      expect(found.webhooks[0]!.events).toBe(webhook('w1').events);
      expect(await store.interested('track-b')).toEqual({ interests: [], webhooks: [] });
    });

    it('consumes the interests read, and keeps one refreshed since', async () => {
      await store.insertWebhook(webhook('w1', { key_id: 'k1' }));
      await store.insertWebhook(webhook('w2', { key_id: 'k2' }));
      await store.recordInterest('track-a', 'k1', at(5));
      await store.recordInterest('track-a', 'k2', at(5));
      const read = (await store.interested('track-a')).interests;
      await store.recordInterest('track-a', 'k2', at(6));
      await store.consumeInterests('track-a', read);
      expect((await store.interested('track-a')).interests).toEqual([{ key_id: 'k2', created_at: at(6) }]);
      await store.consumeInterests('track-a', []);
      expect((await store.interested('track-a')).interests).toHaveLength(1);
    });

    it('answers the deliveries due, longest waiting first, with what their attempts need of their webhooks', async () => {
      await store.insertWebhook(webhook('w1', { disabled_at: at(1), disabled_reason: 'off' }));
      await store.insertDeliveries([
        delivery('later', 'w1', { next_attempt_at: at(30) }),
        delivery('second', 'w1', { next_attempt_at: at(20) }),
        delivery('first', 'w1', { next_attempt_at: at(10) }),
        delivery('done', 'w1', { status: 'succeeded', next_attempt_at: null }),
        delivery('orphan', 'gone', { next_attempt_at: at(15) }),
      ]);
      const due = await store.due(at(20), 10);
      expect(ids(due)).toEqual(['first', 'orphan', 'second']);
      expect(due[0]).toEqual({
        id: 'first',
        next_attempt_at: at(10),
        webhook_id: 'w1',
        event: 'analysis.completed',
        payload: delivery('first', 'w1').payload,
        attempt: 0,
        webhook: { url: 'https://hooks.example/w1', secret: 'sealed-w1', disabled_at: at(1) },
      } satisfies DueDelivery);
      expect(due[1]!.webhook).toBeUndefined();
      expect(ids(await store.due(at(20), 1))).toEqual(['first']);
    });

    it('when several nodes claim one due delivery, then one gets it and it is not due again before its lease ends', async () => {
      await store.insertWebhook(webhook('w1'));
      await store.insertDeliveries([delivery('d1', 'w1', { next_attempt_at: at(10) })]);
      const [due] = await store.due(at(10), 10);
      const claims = await Promise.all([1, 2, 3, 4].map(() => store.claim(due!, at(70))));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.due(at(69), 10)).toEqual([]);
      expect(ids(await store.due(at(70), 10))).toEqual(['d1']);
      // A claim made with what was seen before the lease finds it moved.
      expect(await store.claim(due!, at(130))).toBe(false);
    });

    it('keeps the outcome of an attempt on the delivery', async () => {
      await store.insertWebhook(webhook('w1'));
      await store.insertDeliveries([delivery('d1', 'w1')]);
      await store.recordAttempt('d1', { status: 'retrying', attempt: 1, nextAttemptAt: at(40), responseStatus: 503, durationMs: 120, error: 'answered 503', at: at(11) });
      expect(await store.getDelivery('d1')).toMatchObject({ status: 'retrying', attempt: 1, next_attempt_at: at(40), response_status: 503, duration_ms: 120, error: 'answered 503', updated_at: at(11), created_at: at(10) });
      await store.recordAttempt('d1', { status: 'succeeded', attempt: 2, nextAttemptAt: null, responseStatus: 204, durationMs: 80, error: null, at: at(41) });
      expect(await store.getDelivery('d1')).toMatchObject({ status: 'succeeded', attempt: 2, next_attempt_at: null, response_status: 204, error: null });
      expect(await store.due(at(100), 10)).toEqual([]);
    });

    it('counts failures in a row, each increment answering its own count, and a success starts them again (enabling when asked)', async () => {
      await store.insertWebhook(webhook('w1'));
      const counts = await Promise.all([1, 2, 3, 4, 5].map(() => store.recordFailure('w1')));
      expect(counts.sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await store.recordFailure('gone')).toBe(0);
      await store.disable('w1', 'too many failures', at(50));
      await store.recordSuccess('w1', false);
      expect(await store.getWebhook('w1')).toMatchObject({ consecutive_failures: 0, disabled_at: at(50), disabled_reason: 'too many failures' });
      expect(await store.recordFailure('w1')).toBe(1);
      await store.recordSuccess('w1', true);
      expect(await store.getWebhook('w1')).toMatchObject({ consecutive_failures: 0, disabled_at: null, disabled_reason: null });
    });

    it('disables a webhook once, failing its waiting deliveries but its test event and leaving finished ones', async () => {
      await store.insertWebhook(webhook('w1'));
      await store.insertWebhook(webhook('w2'));
      await store.insertDeliveries([
        delivery('waiting', 'w1'),
        delivery('test', 'w1', { event: 'webhook.test' }),
        delivery('done', 'w1', { status: 'succeeded', next_attempt_at: null }),
        delivery('other', 'w2'),
      ]);
      expect(await store.disable('w1', 'the URL answered 410', at(60))).toBe(true);
      expect(await store.getWebhook('w1')).toMatchObject({ disabled_at: at(60), disabled_reason: 'the URL answered 410' });
      expect(await store.getDelivery('waiting')).toMatchObject({ status: 'failed', next_attempt_at: null, error: 'not sent: the webhook was disabled', updated_at: at(60) });
      expect(await store.getDelivery('test')).toMatchObject({ status: 'pending', next_attempt_at: at(10) });
      expect(await store.getDelivery('done')).toMatchObject({ status: 'succeeded', error: null });
      expect(await store.getDelivery('other')).toMatchObject({ status: 'pending' });
      expect(await store.disable('w1', 'again', at(61))).toBe(false);
      expect(await store.disable('gone', 'again', at(61))).toBe(false);
      expect((await store.getWebhook('w1'))?.disabled_reason).toBe('the URL answered 410');
    });

    it('prunes finished deliveries and interests older than their limits, and nothing else', async () => {
      await store.insertWebhook(webhook('w1'));
      await store.insertDeliveries([
        delivery('old-done', 'w1', { status: 'succeeded', next_attempt_at: null, created_at: at(1) }),
        delivery('old-waiting', 'w1', { created_at: at(1) }),
        delivery('new-done', 'w1', { status: 'failed', next_attempt_at: null, created_at: at(20) }),
      ]);
      await store.recordInterest('track-old', 'k1', at(1));
      await store.recordInterest('track-new', 'k1', at(20));
      await store.prune(at(10), at(10));
      expect(ids(await store.deliveries(['w1'], 10)).sort()).toEqual(['new-done', 'old-waiting']);
      expect((await store.interested('track-old')).interests).toEqual([]);
      expect((await store.interested('track-new')).interests).toHaveLength(1);
    });
  });
}
