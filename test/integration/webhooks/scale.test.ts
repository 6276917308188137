import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { completedEvent } from '../../../src/analysis/events/analysis-events.channel';
import type { Principal } from '../../../src/auth/api-keys';
import type { Container } from '../../../src/container';
import { trackKey } from '../../../src/core/track-key';
import { bodyOf } from '../../helpers/expect';
import { subscribe, wsClient } from '../../helpers/graphql-ws';
import { REDIS_URL } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver';
import { storedAnalysis } from '../graphql/graphql.helpers';
import { PickyEngine, eventually, scaledSetup, startWorker } from '../scale/scale.helpers';

const MONEY = trackKey('Pink Floyd', 'Money');
const TIME = trackKey('Pink Floyd', 'Time');
const NOISE = trackKey('Broken Band', 'Noise');

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Time.mp3'), 'bytes of time');
  await writeFile(path.join(dir, 'Broken Band - Noise.mp3'), 'not audio at all');
}

/*
 * Two API nodes and a worker on the real Redis and Postgres, as deployed scaled out: every
 * process hears every analysis event (Redis pub/sub) and records its deliveries, both API nodes
 * send what is due, and yet each webhook gets one delivery per event.
 */
describeWith({ redis: true, postgres: true })('webhooks and subscriptions across nodes (two API nodes and a worker on Redis and Postgres)', () => {
  const setup = scaledSetup('webhooks');
  // The nodes share the key that seals the webhook secrets, as a deployment must.
  const env = { ...setup.env, OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_SECRET_KEY: 'a shared key of at least thirty-two characters' };
  let a: TestApp;
  let b: TestApp;
  let worker: Container;
  let receiver: WebhookReceiver;
  let hook: { id: string; secret: string };

  beforeAll(async () => {
    receiver = await startReceiver('/');
    a = await createTestApp({ env, engine: new PickyEngine(), prepareLibrary: library });
    b = await createTestApp({ env, engine: new PickyEngine(), prepareLibrary: library });
    worker = await startWorker(a.dir, env, new PickyEngine());
    hook = bodyOf<{ data: { id: string; secret: string } }>(await request(a.app).post('/api/webhooks').set(a.auth).send({ url: receiver.url }).expect(201)).data;
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await b?.close();
    await a?.close();
    await receiver?.close();
    await setup.cleanup();
  });

  const deliveryRows = () => a.container.database.db.selectFrom('webhook_deliveries').select(['id', 'event', 'status', 'attempt']).where('webhook_id', '=', hook.id).execute();

  it('reads the newest deliveries of several webhooks in one statement on Postgres', async () => {
    const admin: Principal = { id: 'env:1', name: 'test', scope: 'admin', expiresAt: null };
    const other = bodyOf<{ data: { id: string } }>(await request(a.app).post('/api/webhooks').set(a.auth).send({ url: `${receiver.url}other` }).expect(201)).data;
    const sent: string[] = [];
    for (const id of [other.id, other.id, other.id]) {
      sent.push((await a.container.webhooks.test(admin, id)).id);
      await new Promise((r) => setTimeout(r, 2)); // distinct creation times (milliseconds)
    }
    const [log, none] = await b.container.webhooks.recentDeliveriesOf([other.id, 'wh_none'], 2);
    expect(log!.map((d) => d.id)).toEqual([sent[2], sent[1]]);
    expect(none).toEqual([]);
    await receiver.next(3);
    await request(a.app).delete(`/api/webhooks/${other.id}`).set(a.auth).expect(200);
    receiver.messages.length = 0;
  });

  it('delivers an analysis asked for on one node, run by the worker and heard by every process, once', async () => {
    // Made on node A, asked for on node B, analysed by the worker.
    await request(b.app).get(`/api/audio/analysis/${MONEY}?artist=Pink+Floyd&track=Money`).set(b.auth).expect(200);
    await receiver.next(1);
    const message = receiver.messages[0]!;
    expect(new Verifier(hook.secret).verify(message.body, message.headers as Record<string, string>)).toMatchObject({ type: 'analysis.completed', data: { trackKey: MONEY } });

    // Both nodes look for due deliveries again: nothing is left to send.
    expect(await a.container.webhookDispatcher!.runDue()).toBe(0);
    expect(await b.container.webhookDispatcher!.runDue()).toBe(0);
    expect(receiver.messages).toHaveLength(1);
    expect(await deliveryRows()).toEqual([{ id: message.headers['webhook-id'], event: 'analysis.completed', status: 'succeeded', attempt: 1 }]);

    // The same event heard again by every process (announced by node B this time), with the
    // key interested again: it is recorded for that webhook already, so nothing new is sent.
    const stored = (await a.container.store.get(MONEY))!;
    await a.container.webhooks.analysisRequested(MONEY, 'env:1');
    await a.container.webhooks.settled();
    await b.container.events.publish(completedEvent(stored));
    expect(await eventually(async () => (await a.container.database.db.selectFrom('webhook_interests').selectAll().execute()).length === 0)).toBe(true);
    await Promise.all([a.container.webhooks.settled(), b.container.webhooks.settled(), worker.webhooks.settled()]);
    expect(await a.container.webhookDispatcher!.runDue()).toBe(0);
    expect(await deliveryRows()).toHaveLength(1);
    expect(receiver.messages).toHaveLength(1);
  });

  it('delivers analysis.failed once when the worker\'s job fails for good', async () => {
    const before = receiver.messages.length;
    const res = await request(a.app).get(`/api/audio/analysis/${NOISE}?artist=Broken+Band&track=Noise`).set(a.auth).expect(422);
    expect(bodyOf<{ error: { code: string } }>(res).error.code).toBe('AUDIO_UNDECODABLE');
    await receiver.next(before + 1);
    expect(JSON.parse(receiver.messages[before]!.body)).toMatchObject({ type: 'analysis.failed', data: { trackKey: NOISE, error: { code: 'AUDIO_UNDECODABLE' } } });
    await Promise.all([a.container.webhooks.settled(), b.container.webhooks.settled(), worker.webhooks.settled()]);
    expect(await a.container.webhookDispatcher!.runDue()).toBe(0);
    expect(await b.container.webhookDispatcher!.runDue()).toBe(0);
    expect(receiver.of('analysis.failed')).toHaveLength(1);
  });

  it('records the deliveries of an event whose own process could not, a few seconds later, from the processes that heard it', async () => {
    const analysis = storedAnalysis('Pink Floyd', 'Eclipse');
    await a.container.webhooks.analysisRequested(analysis.trackKey, 'env:1');
    await a.container.webhooks.settled();
    const before = receiver.messages.length;
    // An event published by a process that recorded nothing (it died, or its store was away).
    const redis = new Redis(REDIS_URL);
    try {
      await redis.publish(`${setup.prefix}:analysis-events`, JSON.stringify({ origin: 'a process gone', event: completedEvent(analysis) }));
    } finally {
      redis.disconnect();
    }
    await receiver.next(before + 1);
    expect(JSON.parse(receiver.messages[before]!.body)).toMatchObject({ type: 'analysis.completed', data: { trackKey: analysis.trackKey } });
    await Promise.all([a.container.webhooks.settled(), b.container.webhooks.settled(), worker.webhooks.settled()]);
    expect(await a.container.webhookDispatcher!.runDue()).toBe(0);
    expect(receiver.messages).toHaveLength(before + 1);
  });

  it('tells a subscriber on node B of an analysis asked for on node A and run by the worker', async () => {
    const { port } = await b.listen();
    const c = wsClient(port, { authorization: `Bearer ${TEST_API_KEY}` });
    try {
      const s = subscribe<{ analysisCompleted: { trackKey: string; trackName: string } }>(c.client, {
        query: 'subscription($keys: [String!]!) { analysisCompleted(trackKeys: $keys) { trackKey trackName } }',
        variables: { keys: [MONEY, TIME] },
      });
      // Money is stored: sent at once, which says the subscription listens.
      await s.next(1);
      await request(a.app).get(`/api/audio/analysis/${TIME}?artist=Pink+Floyd&track=Time`).set(a.auth).expect(200);
      await s.ended;
      expect(s.results.map((r) => r.data!.analysisCompleted)).toEqual([
        { trackKey: MONEY, trackName: 'Money' },
        { trackKey: TIME, trackName: 'Time' },
      ]);
    } finally {
      await c.dispose();
    }
  });
});
