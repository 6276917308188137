import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { CreateWebhookDocument, DeleteWebhookDocument, TestWebhookDocument, WebhooksDocument } from '../../../web/src/gql/graphql';
import { anyNumber, anyString, bodyOf, matching } from '../../helpers/expect';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver';
import { graphql, onlyError, post } from '../graphql/graphql.helpers';

const OTHER_KEY = 'other-key-0123456789';
const MONEY = trackKey('Pink Floyd', 'Money');

/*
 * The webhook part of the admin API over GraphQL, driven by the web dashboard's own documents
 * (web/src/admin/webhooks.graphql): the names the dashboard was built against are the server's.
 */
describe('webhooks over GraphQL, with the dashboard\'s documents', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const other = { Authorization: `Bearer ${OTHER_KEY}` };

  beforeAll(async () => {
    receiver = await startReceiver('/');
    t = await createTestApp({
      engine: new FakeEngine(),
      prepareLibrary: (dir) => writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money'),
      env: { API_KEYS: `${TEST_API_KEY},${OTHER_KEY}`, OUTBOUND_ALLOW_PRIVATE: 'true' },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('makes a webhook (the secret in that answer only), lists it with its delivery log, tests it and deletes it', async () => {
    const made = await graphql(t, CreateWebhookDocument, { url: `${receiver.url}gql`, events: ['analysis.completed'] });
    expect(made.body.errors).toBeUndefined();
    const { secret, webhook } = made.body.data!.createWebhook;
    expect(made.headers['cache-control']).toBe('no-store');
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toEqual({
      id: matching(/^wh_/),
      url: `${receiver.url}gql`,
      events: ['analysis.completed'],
      createdAt: matching(/^\d{4}-\d\d-\d\dT/),
      disabledAt: null,
      disabledReason: null,
      consecutiveFailures: 0,
    });

    const tested = await graphql(t, TestWebhookDocument, { id: webhook.id });
    expect(tested.body.data!.testWebhook).toMatchObject({ event: 'webhook.test', attempt: 0, status: 'PENDING', responseStatus: null, nextAttemptAt: anyString() });
    await receiver.next(1);
    expect(new Verifier(secret).verify(receiver.messages[0]!.body, receiver.messages[0]!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });

    // As the page does: ask again until the test delivery has an outcome.
    let listed = await graphql(t, WebhooksDocument, { deliveries: 10 });
    for (let i = 0; i < 100 && listed.body.data!.webhooks[0]!.deliveries[0]!.status === 'PENDING'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      listed = await graphql(t, WebhooksDocument, { deliveries: 10 });
    }
    expect(listed.body.data!.webhooks).toEqual([
      {
        ...webhook,
        deliveries: [{ id: tested.body.data!.testWebhook.id, event: 'webhook.test', attempt: 1, status: 'SUCCEEDED', responseStatus: 200, durationMs: anyNumber(), createdAt: anyString(), nextAttemptAt: null }],
      },
    ]);
    // Another key sees none of it, and cannot touch it.
    expect((await graphql(t, WebhooksDocument, {}, other)).body.data!.webhooks).toEqual([]);
    expect(onlyError(await graphql(t, DeleteWebhookDocument, { id: webhook.id }, other))).toEqual({ code: 'NOT_FOUND', message: `no webhook ${webhook.id}`, path: ['deleteWebhook'] });
    expect(onlyError(await graphql(t, TestWebhookDocument, { id: webhook.id }, other)).code).toBe('NOT_FOUND');

    expect((await graphql(t, DeleteWebhookDocument, { id: webhook.id })).body.data).toEqual({ deleteWebhook: webhook.id });
    expect((await graphql(t, WebhooksDocument, {})).body.data!.webhooks).toEqual([]);
  });

  it('delivers analysis.completed for an analysis the key asked for over GraphQL', async () => {
    const { secret, webhook } = (await graphql(t, CreateWebhookDocument, { url: `${receiver.url}asked` })).body.data!.createWebhook;
    await request(t.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(t.auth).expect(200);
    const before = receiver.messages.length;
    const res = await post<{ analysis: { trackKey: string; tempo: number } }>(t, { query: `{ analysis(trackKey: "${MONEY}") { trackKey tempo } }` });
    expect(res.body.data).toEqual({ analysis: { trackKey: MONEY, tempo: anyNumber() } });
    await receiver.next(before + 1);
    const message = receiver.messages[before]!;
    expect(message.path).toBe('/asked');
    expect(new Verifier(secret).verify(message.body, message.headers as Record<string, string>)).toMatchObject({
      type: 'analysis.completed',
      data: { trackKey: MONEY, analysis: { trackKey: MONEY, tempo: res.body.data!.analysis.tempo } },
    });
    await graphql(t, DeleteWebhookDocument, { id: webhook.id });
  });

  it('lists several webhooks with their own newest deliveries, read in one batch', async () => {
    const make = async (name: string) => (await graphql(t, CreateWebhookDocument, { url: `${receiver.url}${name}` })).body.data!.createWebhook.webhook.id;
    const [a, b, c] = [await make('a'), await make('b'), await make('c')];
    const sent: string[] = [];
    for (const id of [a, a, a, b]) {
      sent.push((await graphql(t, TestWebhookDocument, { id })).body.data!.testWebhook.id);
      await new Promise((r) => setTimeout(r, 2)); // distinct creation times (milliseconds), so "newest" has one answer
    }
    const batches = jest.spyOn(t.container.webhooks, 'recentDeliveriesOf');
    try {
      const listed = (await graphql(t, WebhooksDocument, { deliveries: 2 })).body.data!.webhooks;
      const logOf = (id: string) => listed.find((w) => w.id === id)!.deliveries.map((d) => d.id);
      expect(logOf(a)).toEqual([sent[2], sent[1]]);
      expect(logOf(b)).toEqual([sent[3]]);
      expect(logOf(c)).toEqual([]);
      expect(batches).toHaveBeenCalledTimes(1);
      expect(batches.mock.calls[0]![0]).toEqual(expect.arrayContaining([a, b, c]));
    } finally {
      batches.mockRestore();
      for (const id of [a, b, c]) await graphql(t, DeleteWebhookDocument, { id });
    }
  });

  it('refuses bad arguments with the REST codes and messages', async () => {
    expect(onlyError(await graphql(t, CreateWebhookDocument, { url: 'ftp://example.com/' }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'url must be http or https (got ftp)',
      path: ['createWebhook'],
    });
    expect(onlyError(await graphql(t, CreateWebhookDocument, { url: 'https://example.com/', events: ['analysis.started'] })).message).toMatch(/unknown event/);
    expect(onlyError(await graphql(t, TestWebhookDocument, { id: 'wh_missing' })).code).toBe('NOT_FOUND');
    const { webhook } = (await graphql(t, CreateWebhookDocument, { url: `${receiver.url}first` })).body.data!.createWebhook;
    expect(onlyError(await graphql(t, WebhooksDocument, { deliveries: 101 }))).toMatchObject({ code: 'INVALID_ARGUMENT', message: matching(/1 to 100/) });
    await graphql(t, DeleteWebhookDocument, { id: webhook.id });
  });

  it('takes mutations by POST only (a GET is refused, as Apollo refuses it)', async () => {
    const res = await request(t.app)
      .get(`/graphql?query=${encodeURIComponent('mutation { deleteWebhook(id: "wh_1") }')}`)
      .set(t.auth)
      .set('apollo-require-preflight', 'true')
      .expect(405);
    expect(bodyOf<{ errors: { message: string }[] }>(res).errors[0]!.message).toMatch(/GET requests only support query operations/);
  });
});
