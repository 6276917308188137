import { AppError } from '../../../../src/core/errors';
import { silentLogger } from '../../../../src/core/logger';
import { HttpClient, parseRetryAfter, type HttpClientOptions } from '../../../../src/sources/http/http.client';
import { SourceHttpError } from '../../../../src/sources/http/http.errors';
import { FakeServer, hang, sendBytes, sendJson, startFakeServer } from '../../../helpers/fake-http';


let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await server.close();
});

// The fake stands for the source's configured base URL, whose origin is trusted as in production.
const client = (options: Partial<HttpClientOptions> = {}): HttpClient =>
  new HttpClient({
    name: 'test',
    timeoutMs: 1000,
    logger: silentLogger,
    retry: { retries: 2, initialDelayMs: 1, maxDelayMs: 5 },
    outbound: { trustedOrigins: [server.url] },
    ...options,
  });

const failure = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
};

describe('HttpClient.getJson', () => {
  it('when the source answers 500 twice then 200, then it retries and returns the body', async () => {
    let calls = 0;
    server.route('/x', (_req, res) => (++calls < 3 ? sendJson(res, 500, { oops: true }) : sendJson(res, 200, { ok: 1 })));
    const res = await client().getJson<{ ok: number }>(`${server.url}/x`);
    expect(res.body).toEqual({ ok: 1 });
    expect(server.count('/x')).toBe(3);
  });

  it('when the source keeps answering 500, then UPSTREAM_UNAVAILABLE after the retries', async () => {
    server.route('/x', (_req, res) => sendJson(res, 500, {}));
    const error = await failure(client().getJson(`${server.url}/x`));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(server.count('/x')).toBe(3);
  });

  it('when the source answers 429 with Retry-After 0, then it waits as told and retries', async () => {
    let calls = 0;
    server.route('/x', (_req, res) =>
      ++calls === 1 ? sendJson(res, 429, {}, { 'retry-after': '0' }) : sendJson(res, 200, { ok: true }),
    );
    await expect(client().getJson(`${server.url}/x`)).resolves.toMatchObject({ status: 200 });
    expect(server.count('/x')).toBe(2);
  });

  it('when Retry-After is longer than the call may wait, then RATE_LIMITED at once with retryAfterS', async () => {
    server.route('/x', (_req, res) => sendJson(res, 429, {}, { 'retry-after': '120' }));
    const error = await failure(client().getJson(`${server.url}/x`));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfterS).toBe(120);
    expect(server.count('/x')).toBe(1);
  });

  it('when the source answers malformed JSON, then UPSTREAM_UNAVAILABLE without retrying', async () => {
    server.route('/x', (_req, res) => sendJson(res, 200, '{"data": [1, 2'));
    const error = await failure(client().getJson(`${server.url}/x`));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(/malformed JSON/);
    expect(server.count('/x')).toBe(1);
  });

  it('when a 404 comes back, then it is not retried and does not open the circuit', async () => {
    server.route('/x', (_req, res) => sendJson(res, 404, {}));
    const http = client();
    await failure(http.getJson(`${server.url}/x`));
    await failure(http.getJson(`${server.url}/x`));
    expect(server.count('/x')).toBe(2);
    expect(http.circuit).toBe('closed');
  });

  it('when the source hangs, then the call costs its timeout once and the breaker answers the next at once', async () => {
    server.route('/x', hang);
    const http = client({ timeoutMs: 200 });
    const first = await failure(http.getJson(`${server.url}/x`));
    expect(first.code).toBe('UPSTREAM_TIMEOUT');
    expect(http.circuit).toBe('open');
    // The timed-out call was not retried (on a loaded machine it may be cut before it arrives).
    const reached = server.count('/x');
    expect(reached).toBeLessThanOrEqual(1);
    const second = await failure(http.getJson(`${server.url}/x`));
    expect(second.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(second.message).toMatch(/circuit open/);
    // The breaker answered without asking the source.
    expect(server.count('/x')).toBe(reached);
  });

  it('when the circuit is open and the source recovers, then a trial call after halfOpenAfter closes it', async () => {
    let down = true;
    server.route('/x', (_req, res) => (down ? sendJson(res, 500, {}) : sendJson(res, 200, { ok: true })));
    const http = client({ retry: { retries: 0 }, breaker: { halfOpenAfterMs: 1 } });
    await failure(http.getJson(`${server.url}/x`));
    expect(http.circuit).toBe('open');
    down = false;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(http.getJson(`${server.url}/x`)).resolves.toMatchObject({ body: { ok: true } });
    expect(http.circuit).toBe('closed');
  });

  it('when the source cannot be reached, then UPSTREAM_UNAVAILABLE and the circuit opens', async () => {
    const url = server.url;
    await server.close();
    const http = client();
    expect(http.health()).toBeUndefined();
    expect((await failure(http.getJson(`${url}/x`))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(http.circuit).toBe('open');
    // health() says why while the circuit is open: since when, and the failure that opened it.
    expect(http.health()).toMatch(/^circuit open since \d{4}-\d\d-\d\dT[\d:.]+Z: could not be reached/);
  });

  it('when the circuit closes again, then health() is undefined', async () => {
    let down = true;
    server.route('/x', (_req, res) => (down ? sendJson(res, 500, {}) : sendJson(res, 200, { ok: true })));
    const http = client({ retry: { retries: 0 }, breaker: { halfOpenAfterMs: 1 } });
    await failure(http.getJson(`${server.url}/x`));
    expect(http.health()).toMatch(/^circuit open since .*: .*500/);
    down = false;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await http.getJson(`${server.url}/x`);
    expect(http.health()).toBeUndefined();
  });

  it('when the inspect hook rejects a 200 body as retryable, then the call is retried', async () => {
    let calls = 0;
    server.route('/x', (_req, res) => sendJson(res, 200, { n: ++calls }));
    const res = await client().getJson<{ n: number }>(`${server.url}/x`, {
      inspect: (body) => {
        if ((body as { n: number }).n < 2) throw new SourceHttpError('quota', { kind: 'quota', retryable: true, fault: false });
      },
    });
    expect(res.body.n).toBe(2);
  });

  it('sends the configured headers', async () => {
    server.route('/x', (_req, res) => sendJson(res, 200, {}));
    await client({ headers: { 'user-agent': 'trackgraph/1.0 ( me@example.org )' } }).getJson(`${server.url}/x`);
    expect(server.requests[0]?.headers['user-agent']).toBe('trackgraph/1.0 ( me@example.org )');
  });

  it('when the rate limit is used up, then further calls wait rather than reach the source', async () => {
    server.route('/x', (_req, res) => sendJson(res, 200, {}));
    const http = client({ timeoutMs: 300, rateLimit: { max: 2, intervalMs: 60_000 } });
    await http.getJson(`${server.url}/x`);
    await http.getJson(`${server.url}/x`);
    expect((await failure(http.getJson(`${server.url}/x`))).code).toBe('UPSTREAM_TIMEOUT');
    expect(server.count('/x')).toBe(2);
    await http.close();
  });
});

describe('HttpClient.download', () => {
  const audio = (t: string): boolean => t.startsWith('audio/');
  const bytes = new Uint8Array(2048).fill(7);

  it('returns the bytes of an audio file', async () => {
    server.route('/a.mp3', (_req, res) => sendBytes(res, bytes, 'audio/mpeg'));
    const got = await client().download(`${server.url}/a.mp3`, { maxBytes: 4096, acceptContentType: audio });
    expect(got).toEqual(bytes);
  });

  it('when the declared size is over the cap, then AUDIO_UNDECODABLE before reading it', async () => {
    server.route('/a.mp3', (_req, res) => sendBytes(res, bytes, 'audio/mpeg'));
    const error = await failure(client().download(`${server.url}/a.mp3`, { maxBytes: 1024, acceptContentType: audio }));
    expect(error.code).toBe('AUDIO_UNDECODABLE');
    expect(error.message).toMatch(/larger than 1024 bytes/);
  });

  it('when an undeclared (chunked) body grows over the cap, then it is cut off', async () => {
    server.route('/a.mp3', (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(Buffer.alloc(800));
      res.end(Buffer.alloc(800));
    });
    const error = await failure(client().download(`${server.url}/a.mp3`, { maxBytes: 1024, acceptContentType: audio }));
    expect(error.code).toBe('AUDIO_UNDECODABLE');
  });

  it('when the content-type is not audio, then AUDIO_UNDECODABLE', async () => {
    server.route('/a.mp3', (_req, res) => sendBytes(res, bytes, 'text/html'));
    const error = await failure(client().download(`${server.url}/a.mp3`, { maxBytes: 4096, acceptContentType: audio }));
    expect(error.message).toMatch(/text\/html, not audio/);
  });

  it('follows a redirect to http(s)', async () => {
    server.route('/old.mp3', (_req, res) => {
      res.writeHead(302, { location: '/new.mp3' });
      res.end();
    });
    server.route('/new.mp3', (_req, res) => sendBytes(res, bytes, 'audio/mpeg'));
    expect(await client().download(`${server.url}/old.mp3`, { maxBytes: 4096, acceptContentType: audio })).toEqual(bytes);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    server.route('/old.mp3', (_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    });
    const error = await failure(client().download(`${server.url}/old.mp3`, { maxBytes: 4096, acceptContentType: audio }));
    expect(error.message).toMatch(/only http\(s\)/);
  });

  it('refuses a non-http URL without a request', async () => {
    await failure(client().download('ftp://127.0.0.1/a.mp3', { maxBytes: 4096, acceptContentType: audio }));
    expect(server.requests).toHaveLength(0);
  });

  it('stops after too many redirects', async () => {
    server.route('/loop.mp3', (_req, res) => {
      res.writeHead(302, { location: '/loop.mp3' });
      res.end();
    });
    const error = await failure(client({ maxRedirects: 2 }).download(`${server.url}/loop.mp3`, { maxBytes: 4096, acceptContentType: audio }));
    expect(error.message).toMatch(/more than 2 redirects/);
    expect(server.count('/loop.mp3')).toBe(3);
  });
});

describe('HttpClient: JSON answers over the size cap', () => {
  it('when the declared size is over maxJsonBytes, then UPSTREAM_INVALID without retrying, and the circuit stays closed', async () => {
    server.route('/x', (_req, res) => sendJson(res, 200, { data: 'x'.repeat(4096) }));
    const http = client({ maxJsonBytes: 1024 });
    const error = await failure(http.getJson(`${server.url}/x`));
    expect(error.code).toBe('UPSTREAM_INVALID');
    expect(error.message).toMatch(/larger than 1024 bytes/);
    expect(server.count('/x')).toBe(1);
    expect(http.circuit).toBe('closed');
  });

  it('when an undeclared (chunked) JSON body grows over maxJsonBytes, then it is cut off as UPSTREAM_INVALID', async () => {
    server.route('/x', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"data":"${'x'.repeat(800)}`);
      res.end(`${'x'.repeat(800)}"}`);
    });
    expect((await failure(client({ maxJsonBytes: 1024 }).getJson(`${server.url}/x`))).code).toBe('UPSTREAM_INVALID');
  });
});

describe('HttpClient: URLs from data and the outbound guard', () => {
  const audio = (t: string): boolean => t.startsWith('audio/');
  const bytes = new Uint8Array(512).fill(3);
  /** A service on this host that no URL from data may reach (a database, a metadata endpoint). */
  let internal: FakeServer;
  beforeEach(async () => {
    internal = await startFakeServer();
    internal.route('/x.mp3', (_req, res) => sendBytes(res, bytes, 'audio/mpeg'));
  });
  afterEach(async () => {
    await internal.close();
  });

  it('when a download URL leads to a loopback address that is no configured origin, then UPSTREAM_INVALID before any request, not retried, circuit closed', async () => {
    const http = client();
    const error = await failure(http.download(`${internal.url}/x.mp3`, { maxBytes: 4096, acceptContentType: audio }));
    expect(error.code).toBe('UPSTREAM_INVALID');
    expect(error.message).toMatch(/non-public address/);
    expect(error.message).not.toContain('127.0.0.1');
    expect(internal.requests).toHaveLength(0);
    expect(http.circuit).toBe('closed');
    await http.close();
  });

  it.each([
    ['an IP literal', (port: string) => `http://127.0.0.1:${port}/x.mp3`],
    ['a name that resolves to loopback', (port: string) => `http://localhost:${port}/x.mp3`],
    ['a decimal IPv4 spelling', (port: string) => `http://2130706433:${port}/x.mp3`],
  ])('when the trusted origin redirects to a private address (%s), then the hop is refused', async (_label, target) => {
    const port = new URL(internal.url).port;
    server.route('/p.mp3', (_req, res) => {
      res.writeHead(302, { location: target(port) });
      res.end();
    });
    const error = await failure(client().download(`${server.url}/p.mp3`, { maxBytes: 4096, acceptContentType: audio }));
    expect(error.code).toBe('UPSTREAM_INVALID');
    expect(server.count('/p.mp3')).toBe(1);
    expect(internal.requests).toHaveLength(0);
  });

  it('when getJson is redirected by the trusted origin to a private address, then the hop is refused too', async () => {
    internal.route('/secret', (_req, res) => sendJson(res, 200, { secret: true }));
    server.route('/x', (_req, res) => {
      res.writeHead(302, { location: `${internal.url}/secret` });
      res.end();
    });
    expect((await failure(client().getJson(`${server.url}/x`))).code).toBe('UPSTREAM_INVALID');
    expect(internal.requests).toHaveLength(0);
  });

  it('with allowPrivate (OUTBOUND_ALLOW_PRIVATE), the same URL is fetched', async () => {
    const got = await client({ outbound: { allowPrivate: true } }).download(`${internal.url}/x.mp3`, { maxBytes: 4096, acceptContentType: audio });
    expect(got).toEqual(bytes);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
