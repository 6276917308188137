import http from 'node:http';
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent as UndiciAgent, fetch as undiciFetch, type Response as UndiciResponse } from 'undici';
import { wsClient } from '../../helpers/graphql-ws';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';

/*
 * Connections that send nothing, or stop before the end of their headers, are cut within
 * HTTP_HEADERS_TIMEOUT_MS whatever else the server is doing: after it has answered requests on
 * kept-alive connections (left open), while traffic goes on, a thousand at a time, and on a
 * kept-alive connection whose next request stalls. Each case runs twice: on the server as main.ts
 * makes it, and with Node's own check of the deadlines switched off (server.headersTimeout and
 * requestTimeout set to 0 after creation), so that the deadline createHttpServer keeps itself is
 * what is tested, whatever Node's check does. What must not be cut (a slow body after complete
 * headers, a WebSocket) is tested with Node's check off too: then nothing else could save it.
 */

const HEADERS_MS = 1500;
/** The deadline, and the margin a cut may take beyond it. */
const CUT_WITHIN_MS = HEADERS_MS + 1000;
/**
 * How late this process's timers have run since the case began (the event loop's longest delay,
 * ms): the server, in this process, can cut no sooner than its timers fire, so on a loaded
 * machine the margin grows by what the loop lost, measured in the same run rather than guessed.
 */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const cutWithin = (): number => CUT_WITHIN_MS + loopDelay.max / 1e6;
/** How long a case waits for a cut before it reports the connection as left open. */
const GIVE_UP_MS = CUT_WITHIN_MS + 3000;

/** What a client saw on a connection it opened. */
interface Seen {
  answer: string;
  closedByServer: boolean;
  /**
   * From the connection's establishment ('connect': with a thousand opened at once, some wait a
   * second in the kernel for a place in the listen backlog before that), or from `mark()`, to its
   * close, ms.
   */
  ms: number;
  /** When the client saw the close (performance.now()), and the connection's local port (the server's remotePort). */
  closedAt: number;
  localPort: number;
}

/**
 * Opens a connection, lets `behave` write on it, and reports what came back once the server closed
 * it, or once `giveUpMs` passed (then closedByServer is false). `behave` may call `mark()` to
 * measure from then on (the moment a kept-alive connection stalls) instead of from the connect.
 */
function connect(port: number, giveUpMs: number, behave: (socket: net.Socket, mark: () => void) => void = () => undefined): Promise<Seen> {
  return new Promise((resolve) => {
    let start = performance.now();
    let localPort = 0;
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      const closedAt = performance.now();
      resolve({ answer: Buffer.concat(chunks).toString('latin1'), closedByServer, ms: Math.round(closedAt - start), closedAt, localPort });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      start = performance.now();
      localPort = socket.localPort ?? 0;
      behave(socket, () => (start = performance.now()));
    });
  });
}

/** Writes `text` one byte every `everyMs` while the socket is open. */
function trickle(socket: net.Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) clearInterval(timer);
    else socket.write(text[i++]!);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

/** Cut as the issue asks: closed by the server (after a 408, or with nothing said) within the deadline + 1 s. */
function expectCut(seen: Seen, answeredBefore = ''): void {
  expect(seen.closedByServer).toBe(true);
  expect(seen.answer.slice(answeredBefore.length)).toMatch(/^(HTTP\/1\.1 408 [\s\S]*)?$/);
  expect(seen.ms).toBeLessThanOrEqual(cutWithin());
}

/** GET `path` through `agent`, resolving with the status once the body is read. */
function get(port: number, agent: http.Agent, path = '/healthz'): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** 20 requests over at most 4 kept-alive connections, which stay open afterwards. */
async function keptAliveTraffic(port: number): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const statuses = await Promise.all(Array.from({ length: 20 }, () => get(port, agent)));
  expect(statuses).toEqual(Array(20).fill(200));
  return agent;
}

/** Requests one after another on kept-alive connections until stop(), which says how many were answered 200. */
function ongoingTraffic(port: number, agent: http.Agent): { stop(): Promise<number> } {
  let running = true;
  let answered = 0;
  const loop = (async () => {
    while (running) {
      if ((await get(port, agent)) === 200) answered++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return answered;
    },
  };
}

/** A silent connection, one stalled halfway through its request line and one trickling its headers, at once. */
function threeStalled(port: number): Promise<Seen[]> {
  return Promise.all([
    connect(port, GIVE_UP_MS),
    connect(port, GIVE_UP_MS, (socket) => socket.write('GET /api/audio/sea')),
    connect(port, GIVE_UP_MS, (socket) => trickle(socket, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(100)}\r\n\r\n`, 100)),
  ]);
}

/**
 * `fetch` (undici, as Node ships it): it keeps its connections alive and idle in a pool of its
 * own, and reuses or drops them in orders Node's http.Agent does not. Each client has its own
 * pool, closed by close().
 */
function fetchClient(port: number): { get(path?: string): Promise<number>; postUnauthorised(bytes: number): Promise<number>; close(): Promise<void> } {
  const dispatcher = new UndiciAgent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
  const base = `http://127.0.0.1:${port}`;
  const status = (res: UndiciResponse): Promise<number> => res.arrayBuffer().then(() => res.status);
  return {
    get: (path = '/healthz') => undiciFetch(`${base}${path}`, { dispatcher }).then(status),
    // Refused (401) before a byte of its body is read: answered `Connection: close`, the rest of the
    // body read and thrown away, then the connection closed (closeAfterAnswer, http-server.ts).
    postUnauthorised: (bytes) => undiciFetch(`${base}/api/audio/analyses`, { method: 'POST', dispatcher, headers: { 'content-type': 'audio/mpeg' }, body: new Uint8Array(bytes) }).then(status),
    close: () => dispatcher.close(),
  };
}

/** The ways a connection can stall in its headers: each writes something, then stops. */
const STALLS: Record<string, (socket: net.Socket, mark: () => void) => void> = {
  silent: () => undefined,
  'half a request line': (socket) => socket.write('GET /api/au'),
  trickling: (socket) => trickle(socket, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(100)}\r\n\r\n`, 100),
  // Answered, kept alive, resting past the deadline, then its next request stalls.
  'kept alive, rested, then stalled': (socket, mark) => {
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.once('data', () =>
      setTimeout(() => {
        mark();
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Stalled: ');
      }, HEADERS_MS + 200),
    );
  },
  // Answered (401, `Connection: close`) before its body was read; the body then ends, and a next
  // request begins, which the server must not wait for: it closes once the body has ended.
  'refused before its body, then a next request begun': (socket, mark) => {
    const body = 200_000;
    socket.write(`POST /api/audio/analyses HTTP/1.1\r\nHost: x\r\nContent-Type: audio/mpeg\r\nContent-Length: ${body}\r\n\r\n`);
    socket.once('data', () => {
      socket.write(Buffer.alloc(body));
      setTimeout(() => {
        mark();
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Stalled: ');
      }, 200);
    });
  },
  // A whole request with half of the next behind it, in one write (pipelined).
  'pipelined, the second half-sent': (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTT'),
  // A body whose last bytes arrive with the start of the next request (with a key: answered 200
  // and kept alive, so that the next request's headers are what the deadline watches).
  'the next request right behind a body': (socket) => {
    const body = '{"query":"{ __typename }"}';
    socket.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    setTimeout(() => socket.write(`${body.slice(5)}GET /healthz HTTP/1.1\r\nHost: x\r\nX-Stalled: `), 50);
  },
};

/** A fixed shuffle (a linear congruential generator): the same orders in every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe.each([
  ['the server main.ts makes', true],
  ["the server's own deadline alone (Node's check off)", false],
])('silent and stalled connections (HTTP_HEADERS_TIMEOUT_MS), on %s', (_name, nodeCheck) => {
  let t: TestApp;
  /** Each case on a server of its own, so that no case sees another's connections. */
  let port: number;
  let server: http.Server;
  let agent: http.Agent | undefined;
  /** Measured cut times, by case, printed with SILENT_SOCKETS_REPORT=1. */
  const report: Record<string, number | number[]> = {};

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        HTTP_REQUEST_TIMEOUT_MS: '5000',
        // Kept-alive connections outlive every case, and stay open around the silent ones.
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '10000',
      },
    });
  });
  beforeEach(async () => {
    loopDelay.reset();
    const listening = await t.listen();
    port = listening.port;
    server = listening.server;
    if (!nodeCheck) {
      listening.server.headersTimeout = 0;
      listening.server.requestTimeout = 0;
    }
  });
  afterEach(() => {
    agent?.destroy();
    agent = undefined;
  });
  afterAll(async () => {
    await t.close();
    if (process.env.SILENT_SOCKETS_REPORT) process.stdout.write(`silent-sockets, ${_name}: cut after (ms) ${JSON.stringify(report)}\n`);
  });

  it('cuts a silent connection, one stalled in its request line and one trickling its headers, after kept-alive traffic', async () => {
    agent = await keptAliveTraffic(port);
    const [silent, halfLine, trickling] = await threeStalled(port);
    Object.assign(report, { 'after traffic: silent, half line, trickle': [silent!.ms, halfLine!.ms, trickling!.ms] });
    expectCut(silent!);
    expectCut(halfLine!);
    expectCut(trickling!);
  });

  it('cuts them after fetch traffic (undici), its connections left idle in its pool', async () => {
    const client = fetchClient(port);
    try {
      const statuses = await Promise.all(Array.from({ length: 20 }, () => client.get()));
      expect(statuses).toEqual(Array(20).fill(200));
      const [silent, halfLine, trickling] = await threeStalled(port);
      Object.assign(report, { 'after fetch: silent, half line, trickle': [silent!.ms, halfLine!.ms, trickling!.ms] });
      expectCut(silent!);
      expectCut(halfLine!);
      expectCut(trickling!);
    } finally {
      await client.close();
    }
  });

  it.each([1, 2, 3])('cuts every kind of stalled connection, opened in a shuffled order among fetch traffic (order %i)', async (seed) => {
    const client = fetchClient(port);
    try {
      // Requests answered, some refused before their bodies are read, throughout.
      let running = true;
      const statuses: number[] = [];
      const traffic = (async () => {
        for (let i = 0; running; i++) {
          statuses.push(await (i % 3 === 2 ? client.postUnauthorised(150_000) : client.get()));
          await new Promise((r) => setTimeout(r, 15));
        }
      })();
      const kinds = shuffled(Object.keys(STALLS), seed);
      const seen = await Promise.all(
        kinds.map((kind, i) =>
          new Promise((r) => setTimeout(r, i * 120)).then(() => connect(port, 2 * HEADERS_MS + GIVE_UP_MS, STALLS[kind]).then((s) => [kind, s] as const)),
        ),
      );
      running = false;
      await traffic;
      report[`shuffled ${seed}`] = seen.map(([, s]) => s.ms);
      const late = seen.filter(([, s]) => !s.closedByServer || s.ms > cutWithin()).map(([kind, s]) => `${kind}: ${s.closedByServer ? `cut after ${s.ms} ms` : 'left open'}`);
      expect(late).toEqual([]);
      // What the server said on each: its answers to the requests made before the stall, then a 408 or nothing.
      for (const [, s] of seen) expect(s.answer).toMatch(/^(HTTP\/1\.1 (200|401) [\s\S]*)?(HTTP\/1\.1 408 [\s\S]*)?$/);
      // The refused upload: closed once its body ended, not kept for the next request.
      expect(seen.find(([kind]) => kind.startsWith('refused'))![1].answer).toMatch(/^HTTP\/1\.1 401 [^\r]*\r\n(?:[^\r]+\r\n)*Connection: close\r\n/);
      expect(statuses.length).toBeGreaterThan(10);
      expect(new Set(statuses)).toEqual(new Set([200, 401]));
    } finally {
      await client.close();
    }
  });

  it('cuts them while kept-alive traffic goes on', async () => {
    agent = await keptAliveTraffic(port);
    const traffic = ongoingTraffic(port, agent);
    const [silent, halfLine, trickling] = await threeStalled(port);
    const answered = await traffic.stop();
    Object.assign(report, { 'during traffic: silent, half line, trickle': [silent!.ms, halfLine!.ms, trickling!.ms] });
    expectCut(silent!);
    expectCut(halfLine!);
    expectCut(trickling!);
    expect(answered).toBeGreaterThan(10);
  });

  it('leaves a kept-alive connection resting past the deadline, and cuts it when its next request stalls', async () => {
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = '{"status":"ok"}';
    const seen = await connect(port, 2 * HEADERS_MS + GIVE_UP_MS, (socket, mark) => {
      let received = '';
      let answered = 0;
      socket.write(request);
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        const now = received.split(answer).length - 1;
        if (now === answered) return;
        answered = now;
        // Answered and kept alive, it rests longer than the headers deadline, then asks again;
        // once answered again, it begins a third request and stalls in its headers.
        if (answered === 1) setTimeout(() => socket.write(request), HEADERS_MS + 300);
        else if (answered === 2) {
          mark();
          socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Stalled: ');
        }
      });
    });
    report['kept alive, next request stalled'] = seen.ms;
    expect(seen.answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expectCut(seen, seen.answer.slice(0, seen.answer.lastIndexOf(answer) + answer.length));
  });

  it('cuts 1,000 silent connections opened at once, answering requests meanwhile', async () => {
    agent = await keptAliveTraffic(port);
    // A thousand connections at once wait in the kernel's accept queue until the server's loop
    // takes them, longer the busier the machine: the deadline runs from that accept, so each
    // connection is timed from its accept (or its connect, whichever is later), as the server's
    // own clock does, in this same process.
    const acceptedAt = new Map<number, number>();
    const accepted = (socket: net.Socket): void => void acceptedAt.set(socket.remotePort ?? 0, performance.now());
    server.on('connection', accepted);
    let closed = 0;
    const silent = Array.from({ length: 1000 }, () =>
      connect(port, GIVE_UP_MS + 1000).then((s) => {
        closed++;
        return s;
      }),
    );
    // While they are open: a kept-alive connection and a new one are both answered.
    await new Promise((r) => setTimeout(r, 200));
    expect(await get(port, agent)).toBe(200);
    const fresh = new http.Agent({ keepAlive: false });
    expect(await get(port, fresh)).toBe(200);
    expect(closed).toBe(0);
    const seen = (await Promise.all(silent)).map((s) => {
      const at = acceptedAt.get(s.localPort);
      return at === undefined ? s : { ...s, ms: Math.round(Math.min(s.ms, s.closedAt - at)) };
    });
    server.off('connection', accepted);
    expect(seen.filter((s) => !acceptedAt.has(s.localPort))).toHaveLength(0);
    const times = seen.map((s) => s.ms).sort((a, b) => a - b);
    report['1,000 silent, from accept: fastest, median, slowest'] = [times[0]!, times[500]!, times[999]!];
    expect(seen.filter((s) => !s.closedByServer)).toHaveLength(0);
    expect(times[999]).toBeLessThanOrEqual(cutWithin());
    for (const s of seen) expectCut(s);
  });

  if (nodeCheck) return;

  it('does not cut a request whose headers are in while its body takes longer than the headers deadline', async () => {
    const body = JSON.stringify({ query: '{ trackKey(artist: "Pink Floyd", track: "Money") }' });
    const seen = await connect(port, 6000, (socket) => {
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // The body in 10 pieces over 2.25 s: past the headers deadline.
      const pieces = 10;
      const size = Math.ceil(body.length / pieces);
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed) return clearInterval(timer);
        socket.write(body.slice(i * size, (i + 1) * size));
        if (++i === pieces) clearInterval(timer);
      }, 250);
    });
    expect(seen.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(seen.answer).toContain('"trackKey"');
    expect(seen.ms).toBeGreaterThan(2000);
  });

  it('does not cut an upgraded connection (a GraphQL subscription WebSocket)', async () => {
    const ws = wsClient(port, { authorization: `Bearer ${TEST_API_KEY}` });
    try {
      await ws.connected;
      await new Promise((r) => setTimeout(r, CUT_WITHIN_MS));
      expect(ws.closes).toEqual([]);
    } finally {
      await ws.dispose();
    }
  });
});

afterAll(() => loopDelay.disable());
