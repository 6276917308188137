import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Agent as UndiciAgent, FormData, fetch as undiciFetch } from 'undici';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/*
 * A refusal the client reads every time: an upload over UPLOAD_MAX_BYTES is answered 413 while the
 * client is still sending, and the server reads the rest of the body (throwing it away) before it
 * closes the connection. Closing at once makes the kernel reset a connection the client is still
 * writing to, and the client loses the answer it had not read yet: `fetch` then fails with
 * EPIPE, curl ends on `100 Continue`. The sizes are the ones that showed it: a 20 MiB limit, a
 * 21 MiB body, twenty times in a row per client and framing.
 */

const run = promisify(execFile);
const MIB = 1024 * 1024;
const MAX = 20 * MIB;
const BODY = new Uint8Array(21 * MIB);
/** The tries of the issue's cases (fetch and curl with the length declared), and of the other framings. */
const TRIES = 20;
const FEW = 5;
/** A generous bound for a case: twenty 21 MiB bodies on a loaded machine. */
const CASE_MS = 180_000;
/** How long a refused body is read at most (the linger time): HTTP_REQUEST_TIMEOUT_MS, shorter than its default in the last case's server. */
const REQUEST_TIMEOUT_MS = 4000;

/** Each try's outcome, counted: `{ "413 PAYLOAD_TOO_LARGE": 20 }` when every refusal was read. */
async function tally(tries: number, attempt: () => Promise<string>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < tries; i++) {
    const outcome = await attempt().catch((error: unknown) => {
      const cause = (error as { cause?: { code?: string } }).cause;
      return `${error instanceof Error ? error.message : String(error)}${cause?.code ? ` (${cause.code})` : ''}`;
    });
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

/** The status and the contract's error code of an answer, or GraphQL's. */
function outcomeOf(status: number, body: string): string {
  const parsed = JSON.parse(body) as { error?: { code?: string }; errors?: { extensions?: { code?: string } }[] };
  return `${status} ${parsed.error?.code ?? parsed.errors?.[0]?.extensions?.code ?? '?'}`;
}

const curl = async (): Promise<boolean> =>
  run('curl', ['--version']).then(
    () => true,
    () => false,
  );

describe('an upload over UPLOAD_MAX_BYTES: the 413 reaches the client every time', () => {
  let t: TestApp;
  let base: string;
  let dispatcher: UndiciAgent;
  let scratch: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX) } });
    base = `http://127.0.0.1:${(await t.listen()).port}`;
    dispatcher = new UndiciAgent();
    scratch = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-refusal-'));
  });
  afterAll(async () => {
    await dispatcher.close();
    await t.close();
    await rm(scratch, { recursive: true, force: true });
  });

  const uploadsLeft = (): Promise<string[]> => readdir(path.join(t.dir, 'data', 'uploads'));
  const post = async (url: string, init: Parameters<typeof undiciFetch>[1]): Promise<string> => {
    const res = await undiciFetch(url, { method: 'POST', dispatcher, ...init });
    return outcomeOf(res.status, await res.text());
  };

  it('fetch, the audio as the body with its length declared', async () => {
    const counts = await tally(TRIES, () => post(`${base}/api/audio/analyses`, { headers: { ...t.auth, 'content-type': 'audio/mpeg' }, body: BODY }));
    expect(counts).toEqual({ '413 PAYLOAD_TOO_LARGE': TRIES });
    expect(await uploadsLeft()).toEqual([]);
  }, CASE_MS);

  it('fetch, the audio as a stream (chunked, no length declared): refused once the limit is read', async () => {
    const counts = await tally(FEW, () =>
      post(`${base}/api/audio/analyses`, { headers: { ...t.auth, 'content-type': 'audio/mpeg' }, body: new Blob([BODY]).stream(), duplex: 'half' }),
    );
    expect(counts).toEqual({ '413 PAYLOAD_TOO_LARGE': FEW });
    expect(await uploadsLeft()).toEqual([]);
  }, CASE_MS);

  it('fetch, a multipart form (REST) and a GraphQL multipart upload', async () => {
    const form = (): FormData => {
      const data = new FormData();
      data.append('file', new Blob([BODY], { type: 'audio/mpeg' }), 'large.mp3');
      return data;
    };
    const graphql = (): FormData => {
      const data = new FormData();
      data.append('operations', JSON.stringify({ query: 'mutation ($file: Upload!) { analyseUpload(file: $file) { trackKey } }', variables: { file: null } }));
      data.append('map', JSON.stringify({ 0: ['variables.file'] }));
      data.append('0', new Blob([BODY], { type: 'audio/mpeg' }), 'large.mp3');
      return data;
    };
    expect(await tally(FEW, () => post(`${base}/api/audio/analyses`, { headers: t.auth, body: form() }))).toEqual({ '413 PAYLOAD_TOO_LARGE': FEW });
    expect(await tally(FEW, () => post(`${base}/graphql`, { headers: { ...t.auth, 'apollo-require-preflight': 'true' }, body: graphql() }))).toEqual({
      '413 PAYLOAD_TOO_LARGE': FEW,
    });
    expect(await uploadsLeft()).toEqual([]);
  }, CASE_MS);

  it('curl --data-binary and curl -F (which wait for 100 Continue, then send)', async () => {
    if (!(await curl())) {
      process.stdout.write('refusal.test.ts: curl is not installed; its cases are skipped\n');
      return;
    }
    const file = path.join(scratch, 'large.mp3');
    await writeFile(file, BODY);
    const curlPost = async (args: string[]): Promise<string> => {
      // -w prints the final status after the body; a connection cut before it gives no status line.
      const { stdout } = await run('curl', ['-sS', '-H', `Authorization: ${t.auth.Authorization}`, '-w', '\n%{http_code}', ...args, `${base}/api/audio/analyses`], { maxBuffer: MIB });
      const split = stdout.lastIndexOf('\n');
      return outcomeOf(Number(stdout.slice(split + 1)), stdout.slice(0, split));
    };
    expect(await tally(TRIES, () => curlPost(['-H', 'Content-Type: audio/mpeg', '--data-binary', `@${file}`]))).toEqual({ '413 PAYLOAD_TOO_LARGE': TRIES });
    expect(await tally(FEW, () => curlPost(['-F', `file=@${file};type=audio/mpeg`]))).toEqual({ '413 PAYLOAD_TOO_LARGE': FEW });
    expect(await uploadsLeft()).toEqual([]);
  }, CASE_MS);

  it('without a key: 401 read every time, answered Connection: close, the body not read to its end (REST and GraphQL multipart)', async () => {
    const noKey = { 'content-type': 'audio/mpeg' };
    const answers: string[] = [];
    const counts = await tally(TRIES, async () => {
      const res = await undiciFetch(`${base}/api/audio/analyses`, { method: 'POST', dispatcher, headers: noKey, body: BODY });
      answers.push(res.headers.get('connection') ?? '');
      return outcomeOf(res.status, await res.text());
    });
    expect(counts).toEqual({ '401 UNAUTHENTICATED': TRIES });
    // A refusal's connection is not kept for the rest of a body nobody will read.
    expect(new Set(answers)).toEqual(new Set(['close']));
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'mutation ($file: Upload!) { analyseUpload(file: $file) { trackKey } }', variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([BODY], { type: 'audio/mpeg' }), 'large.mp3');
    const graphql = await undiciFetch(`${base}/graphql`, { method: 'POST', dispatcher, headers: { 'apollo-require-preflight': 'true' }, body: form });
    expect(graphql.status).toBe(401);
    expect(graphql.headers.get('connection')).toBe('close');
    await graphql.text();
    // A refusal of a request whose body has all arrived keeps its connection.
    const small = await undiciFetch(`${base}/api/audio/analyses`, { method: 'POST', dispatcher, headers: noKey, body: new Uint8Array(16) });
    expect(small.status).toBe(401);
    expect(small.headers.get('connection')).not.toBe('close');
    await small.text();
    expect(await uploadsLeft()).toEqual([]);
  }, CASE_MS);

  it('reads on after the answer while the client still sends, and closes at HTTP_REQUEST_TIMEOUT_MS a body that never ends', async () => {
    const short = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX), HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    try {
      const { port } = await short.listen();
      const seen = await new Promise<{ answer: string; answeredAfterMs: number; closedAfterMs: number; sentAfterAnswer: number }>((resolve) => {
        // Half-open allowed: the client keeps sending after the server has ended its side, as an uploader does.
        const socket = net.connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
        const started = performance.now();
        let answer = '';
        let answeredAfterMs = -1;
        let sentAfterAnswer = 0;
        // 21 MiB declared, 1 MiB sent at once, then 1 KiB every 100 ms: the body would take minutes to end.
        socket.write(`POST /api/audio/analyses HTTP/1.1\r\nHost: x\r\nAuthorization: ${short.auth.Authorization}\r\nContent-Type: audio/mpeg\r\nContent-Length: ${BODY.length}\r\n\r\n`);
        socket.write(BODY.subarray(0, MIB));
        const trickle = setInterval(() => {
          if (socket.destroyed) return;
          socket.write(BODY.subarray(0, 1024));
          if (answeredAfterMs >= 0) sentAfterAnswer += 1024;
        }, 100);
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          if (answeredAfterMs < 0) answeredAfterMs = performance.now() - started;
        });
        // The server's close shows as a reset on the client's next write.
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(trickle);
          resolve({ answer, answeredAfterMs, closedAfterMs: performance.now() - started, sentAfterAnswer });
        });
      });
      expect(seen.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(seen.answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(seen.answer).toContain('"PAYLOAD_TOO_LARGE"');
      // Answered by the declared length while the body was still coming, which the server read on
      // after its answer (a reset would have ended the client's writes at once), and closed once
      // the bound had passed (the rest of the body would have taken minutes).
      expect(seen.answeredAfterMs).toBeGreaterThan(0);
      expect(seen.sentAfterAnswer).toBeGreaterThan(10 * 1024);
      expect(seen.closedAfterMs).toBeGreaterThan(REQUEST_TIMEOUT_MS - 1000);
      expect(seen.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 10_000);
      expect(await readdir(path.join(short.dir, 'data', 'uploads'))).toEqual([]);
      expect((await undiciFetch(`http://127.0.0.1:${port}/healthz`, { dispatcher })).status).toBe(200);
    } finally {
      await short.close();
    }
  }, CASE_MS);
});
