import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { AppError } from '../../../src/core/errors';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { anyNumber, anyString, bodyOf, matching } from '../../helpers/expect';
import { captureLogs } from '../../helpers/log-capture';
import { SqlWebhookStore } from '../../../src/webhooks/webhook.store';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { startReceiver, type ReceivedMessage, type WebhookReceiver } from '../../helpers/webhook-receiver';

const OTHER_KEY = 'other-key-0123456789';
const MONEY = trackKey('Pink Floyd', 'Money');
const CYMBALINE = trackKey('Pink Floyd', 'Cymbaline');

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
  await writeFile(path.join(dir, 'Pink Floyd - Time.mp3'), 'bytes of time');
}

/** The body a receiver got, parsed. */
const messageOf = (m: ReceivedMessage) => JSON.parse(m.body) as { type: string; timestamp: string; data: Record<string, unknown> };
/** The data of a `{success, data}` answer, and the error of a failed one. */
const data = <T = Record<string, unknown>>(res: { body: unknown }): T => bodyOf<{ data: T }>(res).data;
const failure = (res: { body: unknown }) => bodyOf<{ error: { code: string; message: string } }>(res).error;

interface Made {
  id: string;
  secret: string;
  createdAt: string;
}

/** Asks `probe` every 20 ms until it answers true (at most 5 s). */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the condition never held');
}

describe('webhooks over REST (embedded: in-process jobs, SQLite)', () => {
  let t: TestApp;
  let engine: FakeEngine;
  let receiver: WebhookReceiver;
  const logs = captureLogs('debug');
  const other = { Authorization: `Bearer ${OTHER_KEY}` };

  beforeAll(async () => {
    engine = new FakeEngine();
    receiver = await startReceiver('/');
    t = await createTestApp({
      engine,
      prepareLibrary: library,
      logger: logs.logger,
      // The receiver listens on 127.0.0.1.
      env: { API_KEYS: `${TEST_API_KEY},${OTHER_KEY}`, OUTBOUND_ALLOW_PRIVATE: 'true' },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const create = (body: unknown, auth: Record<string, string> = t.auth) => request(t.app).post('/api/webhooks').set(auth).send(body as object);
  const deliveries = (id: string, auth: Record<string, string> = t.auth) => request(t.app).get(`/api/webhooks/${id}/deliveries`).set(auth);
  const analyse = (key: string, auth: Record<string, string> = t.auth) => request(t.app).get(`/api/audio/analysis/${key}?artist=Pink+Floyd&track=${key === MONEY ? 'Money' : key === CYMBALINE ? 'Cymbaline' : 'Time'}`).set(auth);

  it('makes a webhook: 201 with the secret, which no later answer, log line or stored row shows', async () => {
    const res = await create({ url: `${receiver.url}made` }).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: { id: matching(/^wh_[0-9a-f]{24}$/), url: `${receiver.url}made`, events: ['analysis.completed', 'analysis.failed'], secret: matching(/^whsec_[A-Za-z0-9+/]{43}=$/), createdAt: anyString() },
    });
    const { id, secret, createdAt } = data<Made>(res);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    // The answer holds the signing secret: no cache may keep it (nor the listing).
    expect(res.headers['cache-control']).toBe('no-store');

    const list = await request(t.app).get('/api/webhooks').set(t.auth).expect(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(data<unknown[]>(list)).toContainEqual({ id, url: `${receiver.url}made`, events: ['analysis.completed', 'analysis.failed'], createdAt, disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
    const row = await t.container.database.db.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(secret.slice(6));
    expect(logs.text()).not.toContain(secret.slice(6));
    await request(t.app).delete(`/api/webhooks/${id}`).set(t.auth).expect(200);
  });

  it('tells the webhooks of the key that asked when its analysis completes, signed as Standard Webhooks says; other keys hear nothing', async () => {
    const mine = data<{ id: string; secret: string }>(await create({ url: `${receiver.url}mine` }).expect(201));
    const theirs = data<{ id: string }>(await create({ url: `${receiver.url}theirs` }, other).expect(201));
    const before = receiver.messages.length;

    const analysed = await analyse(MONEY).expect(200);
    await receiver.next(before + 1);
    const message = receiver.messages[before]!;
    expect(message.path).toBe('/mine');

    // What a receiver does: verify with the secret, with a Standard Webhooks library.
    const verified = new Verifier(mine.secret).verify(message.body, message.headers as Record<string, string>);
    expect(verified).toEqual({ type: 'analysis.completed', timestamp: anyString(), data: { trackKey: MONEY, analysis: data(analysed) } });
    expect(() => new Verifier(mine.secret).verify(message.body.replace('Money', 'Honey'), message.headers as Record<string, string>)).toThrow(/No matching signature/);
    expect(message.headers['content-type']).toBe('application/json');
    expect(message.headers['webhook-id']).toMatch(/^msg_/);

    const log = data<unknown[]>(await deliveries(mine.id).expect(200));
    expect(log).toEqual([
      {
        id: message.headers['webhook-id'],
        event: 'analysis.completed',
        attempt: 1,
        status: 'succeeded',
        responseStatus: 200,
        durationMs: anyNumber(),
        error: null,
        createdAt: anyString(),
        nextAttemptAt: null,
      },
    ]);
    // Recorded in the same statement as the key that asked's: the other key's webhook has none.
    expect(data(await deliveries(theirs.id, other).expect(200))).toEqual([]);
    // Asking again for a stored analysis records no interest: nothing more will be sent for it.
    await analyse(MONEY).expect(200);
    expect(await t.container.database.db.selectFrom('webhook_interests').selectAll().execute()).toEqual([]);
    await request(t.app).delete(`/api/webhooks/${mine.id}`).set(t.auth).expect(200);
    await request(t.app).delete(`/api/webhooks/${theirs.id}`).set(other).expect(200);
  });

  it('sends messages that the verification example of docs/API.md accepts, and no altered one', async () => {
    const doc = await readFile(path.resolve(__dirname, '../../../docs/API.md'), 'utf8');
    const snippet = /<!-- webhook-verify[^>]*-->\s*```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(snippet).toBeDefined();
    // The snippet as written, its import handed in.
    const body = snippet!.replace(/^import .*$/m, '');
    type Verify = (secret: string, headers: Record<string, unknown>, body: string) => boolean;
    const verify = runInNewContext(`${body}\nverify;`, { createHmac, timingSafeEqual, Buffer }) as Verify;

    const hook = data<Made>(await create({ url: `${receiver.url}doc` }).expect(201));
    const before = receiver.messages.length;
    await request(t.app).post(`/api/webhooks/${hook.id}/test`).set(t.auth).expect(202);
    await receiver.next(before + 1);
    const { headers, body: sent } = receiver.messages[before]!;
    expect(verify(hook.secret, headers, sent)).toBe(true);
    expect(verify(hook.secret, headers, sent.replace('webhook.test', 'webhook.tesT'))).toBe(false);
    expect(verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, headers, sent)).toBe(false);
    expect(verify(hook.secret, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 3600) }, sent)).toBe(false);
    await request(t.app).delete(`/api/webhooks/${hook.id}`).set(t.auth).expect(200);
  });

  it('tells analysis.failed with the code and message the request got, only to webhooks that asked for it', async () => {
    const failedOnly = data<{ id: string; secret: string }>(await create({ url: `${receiver.url}failed`, events: ['analysis.failed'] }).expect(201));
    const completedOnly = data<{ id: string }>(await create({ url: `${receiver.url}completed`, events: ['analysis.completed'] }).expect(201));
    const before = receiver.messages.length;
    engine.failWith = new AppError('AUDIO_UNDECODABLE', 'the file is not audio');
    try {
      const res = await analyse(CYMBALINE).expect(422);
      expect(failure(res).code).toBe('AUDIO_UNDECODABLE');
    } finally {
      engine.failWith = undefined;
    }
    await receiver.next(before + 1);
    const message = receiver.messages[before]!;
    expect(message.path).toBe('/failed');
    expect(new Verifier(failedOnly.secret).verify(message.body, message.headers as Record<string, string>)).toEqual({
      type: 'analysis.failed',
      timestamp: anyString(),
      data: { trackKey: CYMBALINE, error: { code: 'AUDIO_UNDECODABLE', message: 'the file is not audio' } },
    });
    expect(data(await deliveries(completedOnly.id).expect(200))).toEqual([]);

    // The key asks again and the analysis now completes: the other webhook hears that.
    await analyse(CYMBALINE).expect(200);
    await receiver.next(before + 2);
    expect(receiver.messages[before + 1]!.path).toBe('/completed');
    expect(messageOf(receiver.messages[before + 1]!)).toMatchObject({ type: 'analysis.completed', data: { trackKey: CYMBALINE } });
    await request(t.app).delete(`/api/webhooks/${failedOnly.id}`).set(t.auth).expect(200);
    await request(t.app).delete(`/api/webhooks/${completedOnly.id}`).set(t.auth).expect(200);
  });

  it('sends a test event on request: 202 with the pending delivery, then its outcome in the log', async () => {
    const hook = data<{ id: string; secret: string }>(await create({ url: `${receiver.url}test` }).expect(201));
    const before = receiver.messages.length;
    const res = await request(t.app).post(`/api/webhooks/${hook.id}/test`).set(t.auth).expect(202);
    expect(data(res)).toMatchObject({ id: matching(/^msg_/), event: 'webhook.test', attempt: 0, status: 'pending' });
    await receiver.next(before + 1);
    const message = receiver.messages[before]!;
    expect(message.headers['webhook-id']).toBe(data<{ id: string }>(res).id);
    expect(new Verifier(hook.secret).verify(message.body, message.headers as Record<string, string>)).toEqual({
      type: 'webhook.test',
      timestamp: anyString(),
      data: { webhookId: hook.id },
    });
    await until(async () => data<{ status: string }[]>(await deliveries(hook.id))[0]?.status === 'succeeded');
    expect(data<unknown[]>(await deliveries(hook.id))[0]).toMatchObject({ attempt: 1, responseStatus: 200 });
    await request(t.app).delete(`/api/webhooks/${hook.id}`).set(t.auth).expect(200);
  });

  it('shows, tests and deletes only the calling key\'s webhooks: another key\'s are 404 like missing ones', async () => {
    const hook = data<{ id: string }>(await create({ url: `${receiver.url}owned` }).expect(201));
    expect(data(await request(t.app).get('/api/webhooks').set(other).expect(200))).toEqual([]);
    for (const res of [
      await request(t.app).delete(`/api/webhooks/${hook.id}`).set(other),
      await request(t.app).post(`/api/webhooks/${hook.id}/test`).set(other),
      await deliveries(hook.id, other),
      await request(t.app).delete('/api/webhooks/wh_000000000000000000000000').set(t.auth),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: matching(/^no webhook wh_/) } });
    }
    expect((await request(t.app).delete(`/api/webhooks/${hook.id}`).set(t.auth).expect(200)).body).toEqual({ success: true, data: { id: hook.id } });
    expect(data(await request(t.app).get('/api/webhooks').set(t.auth).expect(200))).toEqual([]);
    await request(t.app).delete(`/api/webhooks/${hook.id}`).set(t.auth).expect(404);
  });

  it.each([
    ['no body', undefined, /^the body must be a JSON object \{url, events\?\}/],
    ['an array', [], /^the body must be a JSON object/],
    ['no url', {}, /^url is required$/],
    ['a URL that is not a string', { url: 42 }, /url must be a string/],
    ['a relative URL', { url: '/hooks' }, /not an absolute URL/],
    ['another scheme', { url: 'ftp://example.com/hooks' }, /http or https/],
    ['credentials in the URL', { url: 'https://user:pass@example.com/hooks' }, /user name or password/],
    ['a URL too long', { url: `https://example.com/${'a'.repeat(2100)}` }, /at most 2048/],
    ['an unknown event', { url: 'https://example.com/hooks', events: ['analysis.started'] }, /unknown event "analysis.started"/],
    ['no events', { url: 'https://example.com/hooks', events: [] }, /at least one of/],
    ['events that are not a list', { url: 'https://example.com/hooks', events: 'analysis.failed' }, /events must be a list/],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_name, body, message) => {
    const res = await (body === undefined ? request(t.app).post('/api/webhooks').set(t.auth) : create(body)).expect(400);
    expect(res.body).toEqual({ success: false, error: { code: 'INVALID_ARGUMENT', message: matching(message) } });
  });

  it('refuses a body that is not JSON with 400, and every route without a key with 401', async () => {
    const res = await request(t.app).post('/api/webhooks').set(t.auth).set('Content-Type', 'application/json').send('{"url":').expect(400);
    expect(failure(res)).toEqual({ code: 'INVALID_ARGUMENT', message: 'the request body is not valid JSON' });
    for (const r of [
      request(t.app).get('/api/webhooks'),
      request(t.app).post('/api/webhooks').send({ url: receiver.url }),
      request(t.app).delete('/api/webhooks/wh_1'),
      request(t.app).post('/api/webhooks/wh_1/test'),
      request(t.app).get('/api/webhooks/wh_1/deliveries'),
    ]) {
      expect(failure(await r.expect(401)).code).toBe('UNAUTHENTICATED');
    }
    expect(failure(await request(t.app).get('/api/webhooks/wh_1/deliveries?limit=0').set(t.auth).expect(400)).message).toBe('limit must be at least 1');
  });

  it('allows 10 webhooks per key', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(data<Made>(await create({ url: `${receiver.url}n${i}` }, other).expect(201)).id);
    const res = await create({ url: `${receiver.url}n10` }, other).expect(400);
    expect(failure(res).message).toMatch(/at most 10 webhooks/);
    for (const id of ids) await request(t.app).delete(`/api/webhooks/${id}`).set(other).expect(200);
  });
});

describe('webhook targets: only public addresses (OUTBOUND_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
  });
  afterAll(() => t.close());

  it.each([
    ['http://127.0.0.1:8080/hooks', /127\.0\.0\.1/, 'loopback'],
    // The name resolves to either loopback address first, as the system's resolver has it.
    ['http://localhost:9000/hooks', /(127\.0\.0\.1|::1)/, 'loopback'],
    ['http://[::1]/hooks', /::1/, 'loopback'],
    ['https://10.1.2.3/hooks', /10\.1\.2\.3/, 'private'],
    ['http://192.168.0.10/hooks', /192\.168\.0\.10/, 'private'],
    ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254/, 'linkLocal'],
    ['http://[::ffff:127.0.0.1]:6379/', /::ffff:7f00:1/, 'loopback'],
    ['http://0.0.0.0/', /0\.0\.0\.0/, 'unspecified'],
  ])('refuses %s (it leads to %s, a %s address) with 400 and stores nothing', async (url, address, range) => {
    const res = await request(t.app).post('/api/webhooks').set(t.auth).send({ url }).expect(400);
    expect(failure(res)).toEqual({ code: 'INVALID_ARGUMENT', message: matching(new RegExp(`^url leads to ${address.source}, a ${range} address: webhooks reach public addresses only`)) });
    expect(data(await request(t.app).get('/api/webhooks').set(t.auth).expect(200))).toEqual([]);
  });
});

describe('interests in analyses not stored yet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(() => t.close());

  it('are written only for keys with an enabled webhook: a request of any other key writes nothing', async () => {
    const store = new SqlWebhookStore(t.container.database);
    const interests = () => t.container.database.db.selectFrom('webhook_interests').select(['track_key', 'key_id']).execute();
    await store.recordInterest(MONEY, 'env:1', new Date().toISOString());
    expect(await interests()).toEqual([]);

    const made = await request(t.app).post('/api/webhooks').set(t.auth).send({ url: 'http://127.0.0.1:9/hooks' }).expect(201);
    await store.recordInterest(MONEY, 'env:1', new Date().toISOString());
    expect(await interests()).toEqual([{ track_key: MONEY, key_id: 'env:1' }]);
    await store.consumeInterests(MONEY, [{ key_id: 'env:1', created_at: (await t.container.database.db.selectFrom('webhook_interests').select('created_at').executeTakeFirstOrThrow()).created_at }]);
    await request(t.app).delete(`/api/webhooks/${data<{ id: string }>(made).id}`).set(t.auth).expect(200);
  });
});
