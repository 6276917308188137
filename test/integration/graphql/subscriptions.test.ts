import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { anyNumber, bodyOf, containing, matching } from '../../helpers/expect';
import { subscribe as subscribeTo, wsClient, type WsClient } from '../../helpers/graphql-ws';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';

const MONEY = trackKey('Pink Floyd', 'Money');
const TIME = trackKey('Pink Floyd', 'Time');
const BREATHE = trackKey('Pink Floyd', 'Breathe');

async function library(dir: string): Promise<void> {
  for (const title of ['Money', 'Time', 'Breathe']) await writeFile(path.join(dir, `Pink Floyd - ${title}.mp3`), `bytes of ${title}`);
}

/** What analysisCompleted sends. */
interface Completed {
  analysisCompleted: { trackKey: string } & Record<string, unknown>;
}
const subscribe = (client: WsClient['client'], payload: Parameters<typeof subscribeTo>[1]) => subscribeTo<Completed>(client, payload);

/** A GraphQL error as a client gets it. */
interface ErrorShape {
  message: string;
  extensions?: { code?: string };
}

const ANALYSIS_COMPLETED = `subscription Completed($keys: [String!]!) {
  analysisCompleted(trackKeys: $keys) { id trackKey trackName tempo keyString energy mood { happy sad } }
}`;

describe('GraphQL subscriptions over graphql-ws at /graphql', () => {
  let t: TestApp;
  let port: number;
  const clients: WsClient[] = [];
  const auth = { authorization: `Bearer ${TEST_API_KEY}` };
  const connect = (params?: Record<string, unknown>): WsClient => {
    const c = wsClient(port, params);
    clients.push(c);
    return c;
  };
  /** The REST analysis of a Pink Floyd track (which starts it when it is not stored). */
  const analyse = (title: string) => request(t.app).get(`/api/audio/analysis/${trackKey('Pink Floyd', title)}?artist=Pink+Floyd&track=${title}`).set(t.auth).expect(200);

  beforeAll(async () => {
    t = await createTestApp({
      engine: new FakeEngine(),
      prepareLibrary: library,
      env: { GRAPHQL_MAX_SUBSCRIPTIONS: '2', GRAPHQL_MAX_COST: '600', GRAPHQL_MAX_DEPTH: '3' },
    });
    ({ port } = await t.listen());
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await t.close();
  });

  it('refuses a connection whose key is not valid: closed with 4403 and the reason', async () => {
    const c = connect({ authorization: 'Bearer not-a-key-of-this-server' });
    const s = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await expect(s.ended).rejects.toMatchObject({ code: 4403 });
    expect(c.closes).toEqual([{ code: 4403, reason: 'Forbidden: unknown or revoked API key' }]);
    expect(s.results).toEqual([]);
  });

  it('serves nothing on a connection without a key: its subscribe is refused and it is closed with 4403', async () => {
    const c = connect();
    await c.connected;
    const s = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await expect(s.ended).rejects.toBeDefined();
    expect(c.closes[0]).toEqual({ code: 4403, reason: matching('Forbidden: missing authorization in the connection_init payload') });
    expect(s.results).toEqual([]);
  });

  it('sends the analysis of a watched key when its analysis completes, the same as the query answers, then completes', async () => {
    const c = connect(auth);
    const s = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await c.connected;
    const rest = bodyOf<{ data: Record<string, unknown> }>(await analyse('Money')).data;
    await s.ended;
    expect(s.results).toHaveLength(1);
    const sent = s.results[0]!.data!.analysisCompleted;
    expect(sent).toEqual({
      id: `TrackAnalysis:${MONEY}`,
      trackKey: MONEY,
      trackName: 'Money',
      tempo: rest.tempo,
      keyString: rest.keyString,
      energy: rest.energy,
      mood: { happy: (rest.mood as { happy: number }).happy, sad: (rest.mood as { sad: number }).sad },
    });
  });

  it('sends a key stored already at once, the others as they complete (each once), and completes after the last', async () => {
    const c = connect({ Authorization: `Bearer ${TEST_API_KEY}` });
    // Either case, repeated: each key is sent once.
    const s = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY, TIME.toUpperCase(), TIME] } });
    await s.next(1);
    expect(s.results[0]!.data!.analysisCompleted.trackKey).toBe(MONEY);
    await analyse('Time');
    await s.ended;
    expect(s.results.map((r) => r.data!.analysisCompleted.trackKey)).toEqual([MONEY, TIME]);
  });

  it.each([
    ['a malformed key', { query: ANALYSIS_COMPLETED, variables: { keys: ['not-a-key'] } }, 'INVALID_ARGUMENT', /trackKey must be 16 lowercase hexadecimal/],
    ['no keys', { query: ANALYSIS_COMPLETED, variables: { keys: [] } }, 'INVALID_ARGUMENT', /1 to 100 keys/],
    ['a query', { query: '{ trackKey(artist: "a", track: "b") }' }, 'BAD_REQUEST', /send a query as an HTTP POST to \/graphql/],
    ['a mutation', { query: 'mutation { deleteWebhook(id: "wh_1") }' }, 'BAD_REQUEST', /send a mutation as an HTTP POST/],
    ['an unknown field', { query: 'subscription { analysisStarted }' }, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "analysisStarted"/],
    ['a document over the depth limit', { query: 'subscription { analysisCompleted(trackKeys: ["bc24aaa5a97c70ed"]) { timeline { sections { start } beats { start } } } }' }, 'GRAPHQL_VALIDATION_FAILED', /more than 3 levels deep/],
    ['a document over the cost limit', { query: ANALYSIS_COMPLETED, variables: { keys: Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(16, '0')) } }, 'GRAPHQL_VALIDATION_FAILED', /costs \d+, more than the 600 allowed/],
    ['variables of the wrong type', { query: ANALYSIS_COMPLETED, variables: { keys: 42 } }, 'BAD_USER_INPUT', /keys/],
  ])('refuses %s with an error naming it, keeping the connection', async (_name, payload, code, message) => {
    const c = connect(auth);
    const s = subscribe(c.client, payload);
    let errors: readonly ErrorShape[];
    try {
      await s.ended;
      errors = s.results[0]?.errors ?? [];
    } catch (e) {
      errors = e as ErrorShape[];
    }
    expect(errors).toEqual([containing({ message: matching(message), extensions: containing({ code }) })]);
    // The connection stays up for the next subscription.
    const ok = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await ok.ended;
    expect(ok.results[0]!.data!.analysisCompleted.trackKey).toBe(MONEY);
    expect(c.closes).toEqual([]);
  });

  it('holds GRAPHQL_MAX_SUBSCRIPTIONS subscriptions per connection at once', async () => {
    const c = connect(auth);
    const first = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [BREATHE] } });
    const second = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [BREATHE] } });
    const third = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [BREATHE] } });
    await expect(third.ended).rejects.toEqual([
      containing({ message: matching(/holds 2 subscriptions already/), extensions: { code: 'BAD_REQUEST', maxSubscriptions: 2 } }),
    ]);
    first.stop();
    second.stop();
    await Promise.all([first.ended, second.ended]);
  });

  it('takes no new subscription on a connection whose key was revoked since it opened', async () => {
    await analyse('Money');
    const { key, info } = await t.container.apiKeys.create({ name: 'subscriber' });
    const c = connect({ authorization: `Bearer ${key}` });
    const before = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await before.ended;
    expect(before.results).toHaveLength(1);
    await t.container.apiKeys.revoke(info.id);
    const after = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await expect(after.ended).rejects.toBeDefined();
    expect(after.results).toEqual([]);
    expect(c.closes).toEqual([{ code: 4403, reason: 'Forbidden: unknown or revoked API key' }]);
  });

  it('takes no new subscription on a connection whose key expired since it opened', async () => {
    await analyse('Money');
    const { key } = await t.container.apiKeys.create({ name: 'short-lived', expiresAt: new Date(Date.now() + 1500).toISOString() });
    const c = connect({ authorization: `Bearer ${key}` });
    const before = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await before.ended;
    expect(before.results).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const after = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
    await expect(after.ended).rejects.toBeDefined();
    expect(after.results).toEqual([]);
    expect(c.closes).toEqual([{ code: 4403, reason: 'Forbidden: unknown or revoked API key' }]);
  });

  it('answers a subscription sent over HTTP with 400, saying where subscriptions are served', async () => {
    const res = await request(t.app).post('/graphql').set(t.auth).send({ query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } }).expect(400);
    expect(bodyOf<{ errors: unknown }>(res).errors).toEqual([containing({ message: matching(/over WebSocket \(graphql-ws\) at \/graphql/), extensions: { code: 'BAD_REQUEST' } })]);
  });
});

describe('a subscription\'s socket and the HTTP server around it', () => {
  it('charges each subscription to its key\'s rate limit, a refusal counted in the metrics as GraphQL\'s', async () => {
    const t: TestApp = await createTestApp({ engine: new FakeEngine(), prepareLibrary: library, env: { RATE_LIMIT: '2' } });
    const { port } = await t.listen();
    const c = wsClient(port, { authorization: `Bearer ${TEST_API_KEY}` });
    try {
      const first = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
      const second = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
      const third = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [MONEY] } });
      await expect(third.ended).rejects.toEqual([
        containing({ message: matching(/rate limit/i), extensions: containing({ code: 'RATE_LIMITED', retryAfter: anyNumber() }) }),
      ]);
      const metrics = await request(t.app).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/^trackgraph_rate_limited_total\{[^}]*edge="graphql"[^}]*\} 1$/m);
      first.stop();
      second.stop();
    } finally {
      await c.dispose();
      await t.close();
    }
  });

  it('outlives the HTTP idle timeout, and is told 1001 Going away when the server shuts down', async () => {
    const t: TestApp = await createTestApp({
      engine: new FakeEngine(),
      prepareLibrary: library,
      // HTTP connections silent for 400 ms are cut.
      env: { HTTP_IDLE_TIMEOUT_MS: '400', ANALYSIS_WAIT_MS: '300', SOURCE_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '300', HTTP_HEADERS_TIMEOUT_MS: '300' },
    });
    const { port } = await t.listen();
    const c = wsClient(port, { authorization: `Bearer ${TEST_API_KEY}` });
    try {
      const s = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [TIME] } });
      await c.connected;
      // Three idle timeouts of silence.
      await new Promise((r) => setTimeout(r, 1200));
      expect(c.closes).toEqual([]);
      await request(t.app).get(`/api/audio/analysis/${TIME}?artist=Pink+Floyd&track=Time`).set(t.auth).expect(200);
      await s.ended;
      expect(s.results[0]!.data!.analysisCompleted.trackKey).toBe(TIME);

      const waiting = subscribe(c.client, { query: ANALYSIS_COMPLETED, variables: { keys: [BREATHE] } });
      await t.close();
      expect(c.closes).toEqual([{ code: 1001, reason: 'Going away' }]);
      await expect(waiting.ended).rejects.toMatchObject({ code: 1001 });
    } finally {
      await c.dispose();
    }
  });
});
