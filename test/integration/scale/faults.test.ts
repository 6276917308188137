import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { clickTrack } from '../../../measure/audio/signals';
import { syntheticAnalysis } from '../../../measure/store/synthetic-analyses';
import type { Container } from '../../../src/container';
import { trackKey } from '../../../src/core/track-key';
import { POSTGRES_URL, REDIS_URL } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { PickyEngine, eventually, scaledSetup, startApi, startWorker, type LoggedApi, type ScaledSetup } from './scale.helpers';
import { TcpProxy } from './tcp-proxy';

const MONEY = trackKey('Pink Floyd', 'Money');
const MONEY_HINT = '?artist=Pink+Floyd&track=Money';
const STORED = syntheticAnalysis(1);

async function makeLibrary(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-faults-'));
  await mkdir(path.join(dir, 'library'));
  await writeFile(path.join(dir, 'library', 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'library', 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
  return dir;
}

/** Spawns the worker child and resolves once it takes jobs; `onLine` sees its stdout. */
function spawnWorker(env: Record<string, string>, onLine: (line: string) => void): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'slow-worker.child.ts')], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'READY') resolve(child);
        onLine(line);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

describeWith({ redis: true, postgres: true })('faults, on the real Redis and Postgres', () => {
  let dir: string;
  let setup: ScaledSetup | undefined;
  let api: LoggedApi | undefined;
  let worker: Container | undefined;
  let child: ChildProcess | undefined;
  const proxies: TcpProxy[] = [];

  beforeEach(async () => {
    dir = await makeLibrary();
  });
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await worker?.close();
    await api?.close();
    for (const p of proxies.splice(0)) await p.stop();
    await setup?.cleanup();
    await rm(dir, { recursive: true, force: true });
    child = worker = api = setup = undefined;
  });

  it('when a worker is SIGKILLed mid-job, then another picks the job up, finishes it, and it is stored once', async () => {
    setup = scaledSetup('kill');
    api = await startApi(dir, { ...setup.env, ANALYSIS_WAIT_MS: '60000' }, new PickyEngine());
    let started!: () => void;
    const analysing = new Promise<void>((resolve) => (started = resolve));
    child = await spawnWorker(
      { ...setup.env, DATA_DIR: path.join(dir, 'child-data'), LIBRARY_DIR: path.join(dir, 'library'), LIBRARY_WATCH: 'false', SLOW_ENGINE_MS: '600000' },
      (line) => line.startsWith('ANALYZING') && started(),
    );
    const answer = request(api.app).get(`/api/audio/analysis/${MONEY}${MONEY_HINT}`).set(api.auth).then((r) => r);

    await analysing;
    child.kill('SIGKILL');
    const engine = new PickyEngine();
    worker = await startWorker(dir, setup.env, engine);

    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ trackKey: MONEY, trackName: 'Money' });
    expect(engine.analyseCalls).toBe(1);
    expect(await api.container.store.count()).toBe(1);
    // A worker process spawned and started, then the job's lock let go: tens of seconds on a loaded machine.
  }, 90_000);

  it('when a worker is SIGKILLed while it analyses an upload, then another reads the file from the shared UPLOAD_DIR, finishes it, and the file goes', async () => {
    setup = scaledSetup('killupload');
    // The folder every node mounts (docs/DEPLOY.md, "Uploads scaled out").
    const shared = { ...setup.env, UPLOAD_DIR: path.join(dir, 'shared-uploads') };
    api = await startApi(dir, { ...shared, ANALYSIS_WAIT_MS: '60000' }, new PickyEngine());
    let started!: () => void;
    const analysing = new Promise<void>((resolve) => (started = resolve));
    child = await spawnWorker(
      { ...shared, DATA_DIR: path.join(dir, 'child-data'), LIBRARY_DIR: path.join(dir, 'library'), LIBRARY_WATCH: 'false', SLOW_ENGINE_MS: '600000' },
      (line) => line.startsWith('ANALYZING') && started(),
    );
    const wav = Buffer.from(encodeWav([clickTrack({ bpm: 120, seconds: 4 })], 44100));
    const answer = request(api.app)
      .post('/api/audio/analyses?artist=Demo&track=Killed+Mid-Analysis')
      .set(api.auth)
      .set('Content-Type', 'audio/wav')
      .send(wav)
      .then((r) => r);

    await analysing;
    expect(await readdir(shared.UPLOAD_DIR)).toHaveLength(1);
    child.kill('SIGKILL');
    const engine = new PickyEngine();
    worker = await startWorker(dir, shared, engine);

    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ trackKey: trackKey('Demo', 'Killed Mid-Analysis'), trackName: 'Killed Mid-Analysis' });
    expect(engine.analyseCalls).toBe(1);
    expect(await api.container.store.count()).toBe(1);
    expect(await eventually(async () => (await readdir(shared.UPLOAD_DIR)).length === 0)).toBe(true);
    // A worker process spawned and started, then the job's lock let go: tens of seconds on a loaded machine.
  }, 90_000);

  it('when Redis is unreachable, then search answers from the sources, stored analyses from Postgres, readiness says so, and all recovers', async () => {
    const proxy = new TcpProxy(Number(new URL(REDIS_URL).port || 6379));
    proxies.push(proxy);
    await proxy.start();
    setup = scaledSetup('redis_down', { redisUrl: `redis://127.0.0.1:${proxy.port}` });
    const engine = new PickyEngine();
    // The worker reaches Redis directly: it is the API node's view of Redis that is cut here.
    worker = await startWorker(dir, { ...setup.env, CACHE_URL: REDIS_URL, QUEUE_URL: REDIS_URL }, engine);
    api = await startApi(dir, setup.env, engine);
    await api.container.store.save(STORED);
    const get = (url: string) => request(api!.app).get(url).set(api!.auth);

    await proxy.stop();
    const search = await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    expect(search.body.data[0]).toMatchObject({ trackKey: MONEY, artist: 'Pink Floyd' });
    expect(api.logs.some((l) => l.level === 40 && /cache .*bypassed/.test(l.msg))).toBe(true);
    const stored = await get(`/api/audio/analysis/${STORED.trackKey}`).expect(200);
    expect(stored.body.data.trackKey).toBe(STORED.trackKey);
    const ready = await request(api.app).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({ status: 'degraded', checks: { store: 'ok', cache: expect.stringMatching(/^unreachable/), queue: expect.stringMatching(/^unreachable/) } });
    // A new analysis cannot be queued: the client is told to come back.
    const refused = await get(`/api/audio/analysis/${MONEY}${MONEY_HINT}`).expect(503);
    expect(refused.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.headers['retry-after']).toBeDefined();

    await proxy.start();
    // The last readiness answer is part of the expectation, so a failure says which check stayed down.
    let last: unknown;
    const recovered = await eventually(async () => {
      const r = await request(api!.app).get('/readyz');
      last = r.body;
      return r.body.status === 'ready';
    });
    expect({ recovered, last }).toMatchObject({ recovered: true });
    const analysed = await get(`/api/audio/analysis/${MONEY}${MONEY_HINT}`).expect(200);
    expect(analysed.body.data.trackName).toBe('Money');
    expect(engine.analyseCalls).toBe(1);
  });

  it('when Postgres is unreachable, then 503 SERVICE_UNAVAILABLE, nothing half-written, and all recovers', async () => {
    const proxy = new TcpProxy(5432);
    proxies.push(proxy);
    await proxy.start();
    const viaProxy = new URL(POSTGRES_URL!);
    viaProxy.port = String(proxy.port);
    setup = scaledSetup('pg_down', { databaseUrl: viaProxy.toString() });
    const engine = new PickyEngine();
    engine.delayMs = 1000;
    worker = await startWorker(dir, setup.env, engine);
    api = await startApi(dir, { ...setup.env, ANALYSIS_WAIT_MS: '60000' }, engine);
    await api.container.store.save(STORED);
    const get = (url: string) => request(api!.app).get(url).set(api!.auth);

    // An analysis is running when the database goes: its save fails, the job is retried later.
    const pending = get(`/api/audio/analysis/${MONEY}${MONEY_HINT}`).then((r) => r);
    expect(await eventually(async () => engine.analyseCalls > 0)).toBe(true);
    await proxy.stop();

    const down = await get(`/api/audio/analysis/${STORED.trackKey}`).expect(503);
    expect(down.body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    expect(down.headers['retry-after']).toBeDefined();
    const ready = await request(api.app).get('/readyz').expect(503);
    expect(ready.body).toMatchObject({ status: 'not ready', checks: { store: expect.stringMatching(/^unreachable/) } });

    await proxy.start();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ trackKey: MONEY, trackName: 'Money' });
    await get(`/api/audio/analysis/${STORED.trackKey}`).expect(200);
    await request(api.app).get('/readyz').expect(200);
    const rows = await api.container.database.db.selectFrom('analyses').select(['track_key']).execute();
    expect(rows.map((r) => r.track_key).sort()).toEqual([MONEY, STORED.trackKey].sort());
  });
});
