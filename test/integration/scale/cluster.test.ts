import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { trackKey } from '../../../src/core/track-key';
import { TEST_API_KEY } from '../../helpers/test-app';
import { encodeWav, sinePad } from '../../../measure/audio/audio-signals';
import { POSTGRES_URL } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { scaledSetup, type ScaledSetup } from './scale.helpers';

/*
 * The scale-out topology as operators run it: two API processes (src/main.ts) and two worker
 * processes (src/worker.ts, `npm run worker`) on the real Redis and Postgres, the real engine
 * analysing small generated WAV files. 200 concurrent requests for 20 keys nobody analysed yet.
 */

const ROOT = path.resolve(__dirname, '../../..');
const KEYS = 20;
const REQUESTS_PER_KEY = 10;
const tracks = Array.from({ length: KEYS }, (_, i) => ({ artist: 'Cluster Artist', track: `Song ${String(i + 1).padStart(2, '0')}` }));

interface Proc {
  child: ChildProcess;
  /** Parsed pino lines so far. */
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** Starts src/<entry>.ts; resolves once it has logged every message of `readyMsgs`. */
function start(entry: 'main' | 'worker', env: Record<string, string>, readyMsgs: readonly string[]): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', `${entry}.ts`)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const proc: Proc = { child, lines: [], exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) {
        if (!part.startsWith('{')) continue;
        const line = JSON.parse(part) as Record<string, unknown>;
        proc.lines.push(line);
        if (readyMsgs.every((m) => proc.lines.some((l) => l.msg === m))) resolve(proc);
      }
    });
    void proc.exited.then((code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API process serves at once and indexes its library meanwhile: the test starts when both are done. */
const LISTENING_AND_INDEXED = ['trackgraph listening', 'library indexed'];

/** Asks until the answer is 200 (following 202 + Retry-After); returns every status seen and the last body. */
async function analyse(port: number, key: string, artist: string, track: string): Promise<{ statuses: number[]; body: Record<string, unknown> | undefined }> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 120; attempt++) {
    const res = await fetch(`http://127.0.0.1:${port}/api/audio/analysis/${key}?artist=${encodeURIComponent(artist)}&track=${encodeURIComponent(track)}`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    statuses.push(res.status);
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status !== 202) return { statuses, body };
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
  return { statuses, body: undefined };
}

describeWith({ redis: true, postgres: true })('two API processes and two workers on Redis and Postgres', () => {
  let dir: string;
  let setup: ScaledSetup;
  const procs: Proc[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-cluster-'));
    const library = path.join(dir, 'library');
    await mkdir(library);
    // Small, distinct files: a 3 s chord pad on a different root for each track.
    for (const [i, t] of tracks.entries()) {
      await writeFile(path.join(library, `${t.artist} - ${t.track}.wav`), encodeWav([sinePad(3, { root: 48 + i })], 44100));
    }
    setup = scaledSetup('cluster');
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await setup.cleanup();
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('analyses each key exactly once, every request ends with its own data, and a worker killed mid-run changes nothing', async () => {
    const common = {
      ...setup.env,
      LIBRARY_DIR: path.join(dir, 'library'),
      LIBRARY_WATCH: 'false',
      API_KEYS: TEST_API_KEY,
      LOG_LEVEL: 'info',
      ANALYSIS_WORKERS: '1',
      RATE_LIMIT: '100000',
      ARTWORK_SECRET: 'cluster-artwork-secret-0123456789',
    };
    const started = await Promise.all([
      start('main', { ...common, PORT: '0', DATA_DIR: path.join(dir, 'api1'), ANALYSIS_WAIT_MS: '2000' }, LISTENING_AND_INDEXED),
      start('main', { ...common, PORT: '0', DATA_DIR: path.join(dir, 'api2'), ANALYSIS_WAIT_MS: '2000' }, LISTENING_AND_INDEXED),
      start('worker', { ...common, DATA_DIR: path.join(dir, 'w1'), WORKER_CONCURRENCY: '1' }, ['trackgraph worker ready']),
      start('worker', { ...common, DATA_DIR: path.join(dir, 'w2'), WORKER_CONCURRENCY: '1', WORKER_PORT: '0' }, ['trackgraph worker ready']),
    ]);
    procs.push(...started);
    const [api1, api2, doomed, survivor] = started;
    const ports = [api1, api2].map((p) => Number(p.lines.find((l) => l.msg === 'trackgraph listening')!.port));

    // Kill the first worker with SIGKILL as soon as it has stored one analysis: it is then
    // in the middle of the next one.
    const killer = (async () => {
      while (!doomed.lines.some((l) => l.msg === 'analysis stored')) await sleep(50);
      doomed.child.kill('SIGKILL');
    })();

    const results = await Promise.all(
      Array.from({ length: KEYS * REQUESTS_PER_KEY }, (_, i) => {
        const t = tracks[i % KEYS]!;
        return analyse(ports[i % 2]!, trackKey(t.artist, t.track), t.artist, t.track).then((r) => ({ ...r, t }));
      }),
    );
    await killer;
    expect(await doomed.exited).toBeNull();

    // Every request ended with 200 and the data of its own key.
    for (const r of results) {
      expect(r.statuses[r.statuses.length - 1]).toBe(200);
      expect(r.statuses.every((s) => s === 200 || s === 202)).toBe(true);
      expect(r.body?.data).toMatchObject({ trackKey: trackKey(r.t.artist, r.t.track), artist: r.t.artist, trackName: r.t.track });
    }
    // The same key answered the same everywhere.
    for (const t of tracks) {
      const bodies = new Set(results.filter((r) => r.t === t).map((r) => JSON.stringify(r.body)));
      expect(bodies.size).toBe(1);
    }

    // Exactly one completed analysis per key across both workers, and one row each.
    const stored = [doomed, survivor].flatMap((p) => p.lines.filter((l) => l.msg === 'analysis stored'));
    expect(stored.filter((l) => l.inserted === false)).toEqual([]);
    expect(stored.map((l) => l.trackKey).sort()).toEqual(tracks.map((t) => trackKey(t.artist, t.track)).sort());
    const pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    try {
      const rows = await pg.query<{ n: string }>(`select count(*) as n from "${setup.schema}".analyses`);
      expect(Number(rows.rows[0]!.n)).toBe(KEYS);
    } finally {
      await pg.end();
    }

    // The surviving worker reports itself on WORKER_PORT.
    const workerPort = Number(survivor.lines.find((l) => l.msg === 'trackgraph worker ready')!.port);
    const ready = await fetch(`http://127.0.0.1:${workerPort}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', cache: 'ok', sources: 'ok', queue: 'ok' } });
    const metrics = await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text();
    const ran = survivor.lines.filter((l) => l.msg === 'analysis stored').length;
    const counted = /^trackgraph_analysis_duration_seconds_count\{[^}]*outcome="stored"[^}]*\} (\d+)$/m.exec(metrics);
    // Jobs it ran: each analysis it stored, plus any it found already stored by the killed worker.
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(ran);
    expect(ran).toBeGreaterThan(0);

    // SIGTERM: each remaining process drains and exits cleanly.
    for (const p of [api1, api2, survivor]) p.child.kill('SIGTERM');
    expect(await Promise.all([api1.exited, api2.exited, survivor.exited])).toEqual([0, 0, 0]);
  }, 120_000);
});
