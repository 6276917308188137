import type { LookupAddress } from 'node:dns';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { completedEvent, failedEvent } from '../../../src/analysis/events/analysis-events.channel';
import type { Principal } from '../../../src/auth/api-keys';
import { AppError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { trackKey } from '../../../src/core/track-key';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateToLatest } from '../../../src/db/migrations';
import { OutboundGuard } from '../../../src/net/outbound.guard';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../../../src/webhooks/webhook.dispatcher';
import { MAX_ATTEMPTS } from '../../../src/webhooks/webhook.schedule';
import { SecretBox } from '../../../src/webhooks/webhook.secrets';
import { WebhookSender } from '../../../src/webhooks/webhook.sender';
import { WebhookService, type WebhookDelivery } from '../../../src/webhooks/webhook.service';
import { SqlWebhookStore } from '../../../src/webhooks/webhook.store';
import { anyString, bodyOf } from '../../helpers/expect';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { hang, startFakeServer, type FakeServer } from '../../helpers/fake-http';
import { createTestApp } from '../../helpers/test-app';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver';
import { storedAnalysis } from '../graphql/graphql.helpers';

/*
 * Delivery, retries and disabling on a clock the test moves: the dispatcher is not started, and
 * each pass (runDue) sends what is due at the test's time, so a schedule of a day runs at once.
 */

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const KEY: Principal = { id: 'key-1', name: 'test', scope: 'read', expiresAt: null };
const S = 1000;

interface Rig {
  database: Database;
  store: SqlWebhookStore;
  service: WebhookService;
  dispatcher: WebhookDispatcher;
  secrets: SecretBox;
  guard: OutboundGuard;
  clock: { now: number };
  close(): Promise<void>;
}

async function rig(dir: string, options: Partial<WebhookDispatcherOptions> & { resolve?: (host: string) => Promise<LookupAddress[]> } = {}): Promise<Rig> {
  const database = openDatabase(undefined, dir);
  await migrateToLatest(database);
  const store = new SqlWebhookStore(database);
  const secrets = new SecretBox('a key of at least thirty-two characters');
  const clock = { now: T0 };
  const now = () => clock.now;
  const guard = new OutboundGuard(options.resolve ? { allowPrivate: false, resolve: options.resolve } : { allowPrivate: true });
  const service = new WebhookService(store, secrets, guard, silentLogger, { now });
  const timeoutMs = options.timeoutMs ?? 2000;
  const dispatcher = new WebhookDispatcher(
    store,
    service,
    new WebhookSender(guard, { timeoutMs }),
    secrets,
    { maxFailures: 20, random: () => 0.5, ...options, timeoutMs, now },
    silentLogger,
  );
  return {
    database,
    store,
    service,
    dispatcher,
    secrets,
    guard,
    clock,
    async close() {
      await dispatcher.close();
      await service.close();
      await guard.close();
      await database.close();
    },
  };
}

/** An analysis.completed event the key asked for (its interest recorded first). */
async function completed(r: Rig, title: string): Promise<number> {
  await r.service.analysisRequested(trackKey('Band', title), KEY.id);
  return r.service.fanOut(completedEvent(storedAnalysis('Band', title), r.clock.now));
}

const only = async (r: Rig, webhookId: string): Promise<WebhookDelivery> => {
  const [delivery, ...rest] = await r.service.deliveries(KEY, webhookId);
  expect(rest).toEqual([]);
  return delivery!;
};

describe('webhook delivery on a clock the test moves', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let r: Rig;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-webhooks-'));
    receiver = await startReceiver('/');
  });
  afterEach(async () => {
    await r?.close();
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('retries a failed delivery on the schedule, with the same webhook-id and a signature of each attempt\'s own time, until it succeeds', async () => {
    r = await rig(dir);
    const { webhook, secret } = await r.service.create(KEY, { url: receiver.url });
    receiver.answer = () => (receiver.messages.length <= 2 ? 500 : 200);
    expect(await completed(r, 'One')).toBe(1);

    expect(await r.dispatcher.runDue()).toBe(1);
    expect(await only(r, webhook.id)).toMatchObject({ status: 'retrying', attempt: 1, responseStatus: 500, error: 'HTTP 500', nextAttemptAt: new Date(T0 + 5 * S).toISOString() });
    expect((await r.service.list(KEY))[0]!.consecutiveFailures).toBe(1);

    // Not a moment before it is due.
    r.clock.now = T0 + 5 * S - 1;
    expect(await r.dispatcher.runDue()).toBe(0);
    r.clock.now = T0 + 5 * S;
    expect(await r.dispatcher.runDue()).toBe(1);
    expect(await only(r, webhook.id)).toMatchObject({ status: 'retrying', attempt: 2, nextAttemptAt: new Date(T0 + 25 * S).toISOString() });

    r.clock.now = T0 + 25 * S;
    expect(await r.dispatcher.runDue()).toBe(1);
    expect(await only(r, webhook.id)).toMatchObject({ status: 'succeeded', attempt: 3, responseStatus: 200, error: null, nextAttemptAt: null });
    expect((await r.service.list(KEY))[0]!.consecutiveFailures).toBe(0);

    expect(receiver.messages).toHaveLength(3);
    const ids = new Set(receiver.messages.map((m) => m.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(receiver.messages.map((m) => Number(m.headers['webhook-timestamp']))).toEqual([T0 / S, T0 / S + 5, T0 / S + 25]);
    const verifier = new Verifier(secret);
    for (const m of receiver.messages) {
      const id = String(m.headers['webhook-id']);
      const at = new Date(Number(m.headers['webhook-timestamp']) * S);
      expect(m.headers['webhook-signature']).toBe(verifier.sign(id, at, m.body));
      expect(m.body).toBe(receiver.messages[0]!.body);
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts, waiting from about 5 s to about a day between them`, async () => {
    r = await rig(dir);
    const { webhook } = await r.service.create(KEY, { url: receiver.url });
    receiver.answer = 503;
    await completed(r, 'Two');
    const waits: number[] = [];
    for (;;) {
      expect(await r.dispatcher.runDue()).toBe(1);
      const delivery = await only(r, webhook.id);
      if (delivery.status !== 'retrying') break;
      const next = Date.parse(delivery.nextAttemptAt!);
      waits.push(next - r.clock.now);
      r.clock.now = next;
    }
    expect(await only(r, webhook.id)).toMatchObject({ status: 'failed', attempt: MAX_ATTEMPTS, responseStatus: 503, nextAttemptAt: null });
    expect(receiver.messages).toHaveLength(MAX_ATTEMPTS);
    // The jitter is at its middle here (random 0.5): the schedule itself.
    expect(waits).toEqual([5, 20, 80, 320, 1280, 5120, 20480, 81920].map((s) => s * S));
    expect(waits[0]).toBeLessThanOrEqual(10 * S);
    expect(waits.at(-1)! / 3600 / S).toBeCloseTo(22.76, 1);
    expect(waits.reduce((a, b) => a + b, 0) / 3600 / S).toBeCloseTo(30.35, 1);
    // Nothing more is ever sent for it.
    r.clock.now += 7 * 24 * 3600 * S;
    expect(await r.dispatcher.runDue()).toBe(0);
  });

  it('disables a webhook after WEBHOOK_MAX_FAILURES failed attempts in a row, with the reason; its waiting deliveries fail unsent; a successful test enables it again', async () => {
    r = await rig(dir, { maxFailures: 3, concurrency: 1 });
    const { webhook } = await r.service.create(KEY, { url: receiver.url });
    receiver.answer = 503;
    await completed(r, 'Three');
    await completed(r, 'Four');
    expect(await r.dispatcher.runDue()).toBe(2);
    r.clock.now = T0 + 5 * S;
    // The first retry is the third failure in a row: the webhook is disabled, and the second
    // delivery, due at the same time, is failed without being sent.
    expect(await r.dispatcher.runDue()).toBe(1);
    expect(receiver.messages).toHaveLength(3);
    const [disabled] = await r.service.list(KEY);
    expect(disabled).toMatchObject({ disabledAt: new Date(T0 + 5 * S).toISOString(), disabledReason: '3 failed attempts in a row; the last: HTTP 503', consecutiveFailures: 3 });
    const log = await r.service.deliveries(KEY, webhook.id);
    expect(log.map((d) => [d.status, d.attempt, d.error]).sort()).toEqual([
      ['failed', 1, 'not sent: the webhook was disabled'],
      ['failed', 2, 'HTTP 503'],
    ]);
    // A disabled webhook hears of no new event.
    expect(await completed(r, 'Five')).toBe(0);

    // A test is sent to a disabled webhook: a failure is told once, and does not count.
    await r.service.test(KEY, webhook.id);
    expect(await r.dispatcher.runDue()).toBe(1);
    expect((await r.service.deliveries(KEY, webhook.id))[0]).toMatchObject({ event: 'webhook.test', status: 'failed', attempt: 1, nextAttemptAt: null });
    expect((await r.service.list(KEY))[0]).toMatchObject({ consecutiveFailures: 3, disabledReason: anyString() });
    // Once the receiver is fixed, a test that succeeds enables it again.
    receiver.answer = 200;
    await r.service.test(KEY, webhook.id);
    expect(await r.dispatcher.runDue()).toBe(1);
    expect((await r.service.list(KEY))[0]).toMatchObject({ disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
    expect(await completed(r, 'Six')).toBe(1);
  });

  it('sends each attempt once with two dispatchers (two nodes) on one store', async () => {
    r = await rig(dir);
    const second = await rig(dir);
    try {
      await r.service.create(KEY, { url: receiver.url });
      for (let i = 0; i < 20; i++) await completed(r, `Song ${i}`);
      const [a, b] = await Promise.all([r.dispatcher.runDue(), second.dispatcher.runDue()]);
      expect(a + b).toBe(20);
      expect(receiver.messages).toHaveLength(20);
      expect(new Set(receiver.messages.map((m) => m.headers['webhook-id'])).size).toBe(20);
    } finally {
      await second.close();
    }
  });

  it('records an event heard twice (by two processes, or announced again) once per webhook', async () => {
    r = await rig(dir);
    const { webhook } = await r.service.create(KEY, { url: receiver.url });
    const analysis = storedAnalysis('Band', 'Seven');
    await r.service.analysisRequested(analysis.trackKey, KEY.id);
    const event = completedEvent(analysis, T0);
    // The same stored row announced by another process is the same event.
    const again = completedEvent(analysis, T0 + 3);
    expect(again.id).toBe(event.id);
    const recorded = await Promise.all([r.service.fanOut(event), r.service.fanOut(again)]);
    expect(recorded.reduce((x, y) => x + y, 0)).toBe(1);
    await r.service.analysisRequested(analysis.trackKey, KEY.id);
    expect(await r.service.fanOut(event)).toBe(0);
    expect(await r.service.deliveries(KEY, webhook.id)).toHaveLength(1);
  });

  it('tells analysis.failed with the error code and message, and only the keys that asked', async () => {
    r = await rig(dir);
    const { webhook } = await r.service.create(KEY, { url: receiver.url, events: ['analysis.failed'] });
    const key = trackKey('Band', 'Eight');
    expect(await r.service.fanOut(failedEvent(key, new AppError('NO_AUDIO_SOURCE', 'no audio found'), T0))).toBe(0);
    await r.service.analysisRequested(key, KEY.id);
    await r.service.analysisRequested(key, 'someone-else');
    expect(await r.service.fanOut(failedEvent(key, new Error('a bug'), T0))).toBe(1);
    expect(await r.dispatcher.runDue()).toBe(1);
    expect(JSON.parse(receiver.messages[0]!.body)).toEqual({
      type: 'analysis.failed',
      timestamp: new Date(T0).toISOString(),
      data: { trackKey: key, error: { code: 'INTERNAL', message: 'the analysis failed; it has been logged' } },
    });
    expect(await only(r, webhook.id)).toMatchObject({ status: 'succeeded' });
  });
});

describe('what a webhook attempt will not do', () => {
  let dir: string;
  let server: FakeServer;
  let r: Rig;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-webhooks-'));
    server = await startFakeServer();
  });
  afterEach(async () => {
    await r?.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('connect to a target that resolves to a private address by the time it is sent (DNS changed since it was made)', async () => {
    let answer: LookupAddress[] = [{ address: '93.184.216.34', family: 4 }];
    r = await rig(dir, { resolve: () => Promise.resolve(answer) });
    const { webhook } = await r.service.create(KEY, { url: 'http://hooks.example.test/in' });
    answer = [{ address: '10.0.0.7', family: 4 }];
    await completed(r, 'Nine');
    expect(await r.dispatcher.runDue()).toBe(1);
    expect(await only(r, webhook.id)).toMatchObject({
      status: 'retrying',
      responseStatus: null,
      error: 'not sent: refused to connect to hooks.example.test (10.0.0.7: private address); webhooks reach public addresses only',
    });
  });

  it('follow a redirect: a 3xx is a failed attempt', async () => {
    server.route('/hook', (_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    r = await rig(dir);
    const { webhook } = await r.service.create(KEY, { url: `${server.url}/hook` });
    await completed(r, 'Ten');
    await r.dispatcher.runDue();
    expect(await only(r, webhook.id)).toMatchObject({ status: 'retrying', responseStatus: 302, error: 'HTTP 302: redirects are not followed' });
    expect(server.count('/hook')).toBe(1);
    expect(server.count('/elsewhere')).toBe(0);
  });

  it('wait for a receiver longer than WEBHOOK_TIMEOUT_MS', async () => {
    server.route('/slow', hang);
    r = await rig(dir, { timeoutMs: 1000 });
    const { webhook } = await r.service.create(KEY, { url: `${server.url}/slow` });
    await completed(r, 'Eleven');
    await r.dispatcher.runDue();
    expect(await only(r, webhook.id)).toMatchObject({ status: 'retrying', responseStatus: null, error: 'timed out after 1000 ms' });
  });

  it('read an answer that never ends: past the cap it is let go, and the 2xx counts', async () => {
    let streaming: NodeJS.Timeout | undefined;
    server.route('/endless', (_req, res, raw) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      streaming = setInterval(() => res.write(Buffer.alloc(16 * 1024, 'x')), 5);
      raw.socket.on('close', () => clearInterval(streaming));
    });
    r = await rig(dir, { timeoutMs: 10_000 });
    const { webhook } = await r.service.create(KEY, { url: `${server.url}/endless` });
    await completed(r, 'Twelve');
    await r.dispatcher.runDue();
    clearInterval(streaming);
    expect(await only(r, webhook.id)).toMatchObject({ status: 'succeeded', responseStatus: 200, error: null });
  });
});

describe('a restart', () => {
  it('leaves a delivery waiting in the store, which the next instance sends with the same webhook-id', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-restart-'));
    const receiver = await startReceiver('/');
    const library = (lib: string) => writeFile(path.join(lib, 'Pink Floyd - Money.mp3'), 'bytes of money');
    const env = { OUTBOUND_ALLOW_PRIVATE: 'true' };
    try {
      const first = await createTestApp({ dir, engine: new FakeEngine(), prepareLibrary: library, env });
      receiver.answer = 503;
      const made = await request(first.app).post('/api/webhooks').set(first.auth).send({ url: receiver.url }).expect(201);
      const { id, secret } = bodyOf<{ data: { id: string; secret: string } }>(made).data;
      await request(first.app).get(`/api/audio/analysis/${trackKey('Pink Floyd', 'Money')}?artist=Pink+Floyd&track=Money`).set(first.auth).expect(200);
      await receiver.next(1);
      let log: WebhookDelivery[] = [];
      for (let i = 0; i < 250 && log[0]?.status !== 'retrying'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        log = bodyOf<{ data: WebhookDelivery[] }>(await request(first.app).get(`/api/webhooks/${id}/deliveries`).set(first.auth)).data;
      }
      expect(log[0]).toMatchObject({ status: 'retrying', attempt: 1 });
      await first.close();

      // The receiver is back; the new instance's clock is past the retry's time.
      receiver.answer = 200;
      const second = await createTestApp({ dir, engine: new FakeEngine(), prepareLibrary: library, env, now: () => Date.now() + 60_000 });
      try {
        await receiver.next(2);
        const [before, after] = receiver.messages;
        expect(after!.headers['webhook-id']).toBe(before!.headers['webhook-id']);
        expect(new Verifier(secret).verify(after!.body, after!.headers as Record<string, string>)).toMatchObject({ type: 'analysis.completed' });
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
