import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { rawRequest } from '../../helpers/raw-http';
import { TEST_API_KEY, createTestApp, type TestApp } from '../../helpers/test-app';

/** What a client saw on a connection it opened: the bytes answered, and whether the server closed it. */
interface Seen {
  answer: string;
  closedByServer: boolean;
}

/**
 * Opens a connection, lets `behave` write on it (trickling, or nothing at all), and reports what
 * came back once the server closed it, or once `giveUpMs` passed (then closedByServer is false).
 */
function connect(port: number, giveUpMs: number, behave: (socket: net.Socket) => void): Promise<Seen> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer: Buffer.concat(chunks).toString('latin1'), closedByServer });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => behave(socket));
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

describe('slow and idle clients', () => {
  let t: TestApp;
  let port: number;
  const engine = new FakeEngine();
  // Short deadlines so the test runs in seconds; each case would hold its connection for the
  // whole give-up time (10 s, far beyond every deadline) if nothing cut it.
  const GIVE_UP_MS = 10_000;

  beforeAll(async () => {
    engine.tags.set('money.mp3', { artist: 'Pink Floyd', title: 'Money' });
    t = await createTestApp({
      engine,
      prepareLibrary: (dir) => writeFile(path.join(dir, 'money.mp3'), 'audio of money'),
      env: {
        HTTP_HEADERS_TIMEOUT_MS: '300',
        HTTP_REQUEST_TIMEOUT_MS: '800',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '200',
        HTTP_IDLE_TIMEOUT_MS: '2500',
        ANALYSIS_WAIT_MS: '2000',
        SOURCE_TIMEOUT_MS: '1000',
      },
    });
    ({ port } = await t.listen());
  });
  afterAll(() => t.close());

  it('sets each configured deadline on the server main.ts creates', async () => {
    const { server } = await t.listen();
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.timeout]).toEqual([300, 800, 200, 2500]);
  });

  it('closes a connection that sends nothing, with 408', async () => {
    const seen = await connect(port, GIVE_UP_MS, () => undefined);
    expect(seen.closedByServer).toBe(true);
    expect(seen.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection trickling its headers, with 408', async () => {
    const seen = await connect(port, GIVE_UP_MS, (socket) => {
      socket.write('GET /api/audio/search?track=Money HTTP/1.1\r\nHost: x\r\n');
      trickle(socket, `Authorization: Bearer ${TEST_API_KEY}\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n`, 100);
    });
    expect(seen.closedByServer).toBe(true);
    expect(seen.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection trickling a body one byte every 100 ms, with 408', async () => {
    const body = JSON.stringify({ query: `{ trackKey(artist: "${'a'.repeat(200)}", track: "b") }` });
    const seen = await connect(port, GIVE_UP_MS, (socket) => {
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      trickle(socket, body, 100);
    });
    expect(seen.closedByServer).toBe(true);
    expect(seen.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive connection left idle after its answer', async () => {
    const seen = await connect(port, GIVE_UP_MS, (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(seen.closedByServer).toBe(true);
    expect(seen.answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('still answers a request whose answer takes longer than the request deadline to prepare', async () => {
    engine.delayMs = 1200;
    try {
      const res = await rawRequest(port, {
        method: 'GET',
        target: `/api/audio/analysis/${trackKey('Pink Floyd', 'Money')}?artist=Pink+Floyd&track=Money`,
        headers: t.auth,
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ success: true, data: { trackKey: trackKey('Pink Floyd', 'Money') } });
    } finally {
      engine.delayMs = 0;
    }
  });
});
