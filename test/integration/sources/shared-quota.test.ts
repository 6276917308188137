import { silentLogger } from '../../../src/core/logger';
import { SharedRedis } from '../../../src/ops/redis';
import { HttpClient } from '../../../src/sources/http/http.client';
import { SharedQuotas } from '../../../src/sources/http/shared-quota';
import { REDIS_URL, deleteRedisKeys, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';

/**
 * Two HttpClients stand for one source on two API nodes: each has its own limiter (2 requests
 * per second) and its own Redis connection, as two processes would.
 */
const WINDOW_MS = 1000;

function node(calls: number[], sharedQuotas?: SharedQuotas): HttpClient {
  return new HttpClient({
    name: 'catalogue',
    timeoutMs: 10_000,
    logger: silentLogger,
    rateLimit: { max: 2, intervalMs: WINDOW_MS },
    ...(sharedQuotas ? { sharedQuotas } : {}),
    fetch: async () => {
      calls.push(Date.now());
      return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
}

/** The most calls that started within `spanMs` of each other. */
function densest(calls: number[], spanMs: number): number {
  const sorted = [...calls].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]! - sorted[i]! < spanMs) j++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describeWith({ redis: true })('a source quota shared through Redis', () => {
  const prefix = uniqueName('quota');
  const clients: SharedRedis[] = [];
  const nodes: HttpClient[] = [];
  const quotas = (url = REDIS_URL): SharedQuotas => {
    const redis = new SharedRedis(url, silentLogger);
    clients.push(redis);
    return new SharedQuotas(redis.commands, prefix);
  };
  /** Until its connection is up a node counts in memory (the insurance limiter), as at boot. */
  const connected = (): Promise<unknown> =>
    Promise.all(clients.map((c) => c.connected(10_000)));
  const start = (calls: number[], shared?: SharedQuotas): HttpClient => {
    const client = node(calls, shared);
    nodes.push(client);
    return client;
  };

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.close()));
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await deleteRedisKeys(prefix);
  });

  it('when two nodes each send 3 requests at once, then together they keep to 2 per window', async () => {
    const calls: number[] = [];
    const [a, b] = [start(calls, quotas()), start(calls, quotas())];
    await connected();
    const requests = [a, b].flatMap((n) => [1, 2, 3].map(() => n.getJson('http://catalogue.test/search')));
    await Promise.all(requests);
    expect(calls).toHaveLength(6);
    // Admitted at the start of three successive windows, two at a time.
    expect(densest(calls, WINDOW_MS / 2)).toBeLessThanOrEqual(2);
    expect(Math.max(...calls) - Math.min(...calls)).toBeGreaterThanOrEqual(WINDOW_MS * 1.5);
  });

  it('when the nodes count alone (no shared quota), then they send twice the quota (the case above guards against)', async () => {
    const calls: number[] = [];
    const [a, b] = [start(calls), start(calls)];
    await Promise.all([a, b].flatMap((n) => [1, 2].map(() => n.getJson('http://catalogue.test/search'))));
    expect(densest(calls, WINDOW_MS / 2)).toBe(4);
  });

  it('when Redis is unreachable, then requests still go out, each node pacing itself', async () => {
    const calls: number[] = [];
    const [a, b] = [start(calls, quotas('redis://127.0.0.1:1')), start(calls, quotas('redis://127.0.0.1:1'))];
    await Promise.all([a, b].flatMap((n) => [1, 2].map(() => n.getJson('http://catalogue.test/search'))));
    expect(calls).toHaveLength(4);
  });

  it('when a caller gives up while its node waits for the shared window, then its request is not sent', async () => {
    const calls: number[] = [];
    const [a, b] = [start(calls, quotas()), start(calls, quotas())];
    await connected();
    // Node a uses the window's two requests; node b's own limiter still has room, the shared quota not.
    await Promise.all([a.getJson('http://catalogue.test/a1'), a.getJson('http://catalogue.test/a2')]);
    const controller = new AbortController();
    const waiting = b.getJson('http://catalogue.test/b1', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('gave up')), 50);
    await expect(waiting).rejects.toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS * 1.2));
    expect(calls).toHaveLength(2);
  });
});
