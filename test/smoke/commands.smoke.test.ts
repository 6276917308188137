import { existsSync } from 'node:fs';
import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { trackKey } from '../../src/core/track-key';
import { readWithMusicMetadata } from '../helpers/music-metadata';
import { POSTGRES_URL, REDIS_URL, deleteRedisKeys, dropSchema, uniqueName } from '../../measure/store/infra';
import { HAVE_TEST_MODELS, TEST_MODELS_DIR } from '../../measure/models/test-models';
import { fixtureLibrary, freePort, getJson, logLines, npmRun, run, start, tempDir, userEnv, waitFor, type Started } from './smoke.helpers';

/*
 * Every command README and docs/ name, run as a user runs it: `npm start` from a fresh data
 * folder and again, the CLIs through npm (tsx) and the built entry points with node, each
 * answer read, not only its exit code. The benchmarks' own smoke runs are in benches.smoke.test.ts;
 * docs.smoke.test.ts fails when the documents name a script no smoke test runs.
 */

jest.setTimeout(300_000);

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** The first admin key a fresh start writes to DATA_DIR/first-admin-key.txt (stdout is not a terminal here). */
async function firstKey(dataDir: string): Promise<string> {
  const text = await readFile(path.join(dataDir, 'first-admin-key.txt'), 'utf8');
  const key = /\b(tg_[A-Za-z0-9_-]{20,})\b/.exec(text)?.[1];
  if (!key) throw new Error(`no key in first-admin-key.txt: ${text}`);
  return key;
}

/** Waits until a started server answers /readyz "ready" (its library indexed), or fails with its output. */
async function ready(server: Started, port: number): Promise<void> {
  await waitFor(
    'the server to be ready',
    120_000,
    async () => {
      const { status, body } = await getJson(`http://127.0.0.1:${port}/readyz`);
      return status === 200 && (body as { status: string }).status === 'ready' ? true : undefined;
    },
    () => (server.child.exitCode !== null ? `it exited (${server.child.exitCode}):\n${server.output()}` : undefined),
  );
}

describe('npm start, first run and second start', () => {
  let dataDir: string;
  let libraryDir: string;

  beforeAll(async () => {
    const dir = await tempDir('start');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    dataDir = path.join(dir, 'data');
    libraryDir = path.join(dir, 'library');
    await fixtureLibrary(libraryDir);
  });

  it('npm start builds, serves the library, makes the first admin key once and says where it is', async () => {
    const port = await freePort();
    const server = start('npm', ['start'], userEnv({ PORT: String(port), DATA_DIR: dataDir, LIBRARY_DIR: libraryDir }));
    cleanups.push(() => server.stop());
    await ready(server, port);
    const key = await firstKey(dataDir);
    const logs = logLines(server.output());
    expect(logs.some((l) => l.msg === 'trackgraph listening' && l.port === port)).toBe(true);
    // The key itself never reaches the log, only where to read it.
    expect(server.output()).not.toContain(key);

    const search = await getJson(`http://127.0.0.1:${port}/api/audio/search?track=Money&artist=Pink+Floyd`, key);
    expect(search.status).toBe(200);
    const found = (search.body as { data: { trackKey: string; trackName: string }[] }).data;
    expect(found.map((r) => r.trackName)).toContain('Money');
    const money = found.find((r) => r.trackName === 'Money')!;
    expect(money.trackKey).toBe(trackKey('Pink Floyd', 'Money'));

    const analysis = await waitFor('the analysis of Money', 60_000, async () => {
      const { status, body } = await getJson(`http://127.0.0.1:${port}/api/audio/analysis/${money.trackKey}`, key);
      return status === 200 && (body as { data: unknown }).data ? (body as { data: { tempo: number; key: number } }).data : undefined;
    });
    expect(analysis.tempo).toBeGreaterThan(40);
    expect(analysis.tempo).toBeLessThan(220);
    // SIGTERM to npm and the server: the server drains and says so (npm itself ends by the signal).
    await server.stop();
    expect(logLines(server.output()).some((l) => l.msg === 'stopped')).toBe(true);
  });

  it('a second start (the built tree, node dist/src/main.js) makes no key and serves what the first stored', async () => {
    const key = await firstKey(dataDir);
    await unlink(path.join(dataDir, 'first-admin-key.txt'));
    const port = await freePort();
    const server = start(process.execPath, ['dist/src/main.js'], userEnv({ PORT: String(port), DATA_DIR: dataDir, LIBRARY_DIR: libraryDir }));
    cleanups.push(() => server.stop());
    await ready(server, port);
    expect(existsSync(path.join(dataDir, 'first-admin-key.txt'))).toBe(false);
    expect(logLines(server.output()).some((l) => typeof l.msg === 'string' && l.msg.startsWith('first admin key'))).toBe(false);
    const stored = await getJson(`http://127.0.0.1:${port}/api/audio/analyses?keys=${trackKey('Pink Floyd', 'Money')}`, key);
    expect(stored.status).toBe(200);
    expect((stored.body as { data: ({ tempo: number } | null)[] }).data[0]?.tempo).toBeGreaterThan(0);
    expect(await server.stop()).toBe(0);
  });

  const withModels = HAVE_TEST_MODELS ? it : it.skip;
  withModels('with MODELS_DIR, a fresh start answers the moods from the models, says so, and records the tagger’s tags', async () => {
    const dir = await tempDir('start-models');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const port = await freePort();
    const env = userEnv({ PORT: String(port), DATA_DIR: path.join(dir, 'data'), LIBRARY_DIR: libraryDir, MODELS_DIR: TEST_MODELS_DIR });
    const server = start(process.execPath, ['dist/src/main.js'], env);
    cleanups.push(() => server.stop());
    await ready(server, port);
    const readiness = await getJson(`http://127.0.0.1:${port}/readyz`);
    expect(readiness.body).toMatchObject({ status: 'ready', checks: { models: 'ok' } });
    const key = await firstKey(path.join(dir, 'data'));
    const money = trackKey('Pink Floyd', 'Money');
    await getJson(`http://127.0.0.1:${port}/api/audio/search?track=Money&artist=Pink+Floyd`, key);
    const res = await waitFor('the analysis of Money by the models', 120_000, async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/audio/analysis/${money}`, { headers: { Authorization: `Bearer ${key}` } });
      return r.status === 200 ? r : undefined;
    });
    expect(res.headers.get('trackgraph-analysis-method')).toMatch(/^models:musicnn-msd-2(\/r\d+)?$/);
    expect(res.headers.get('trackgraph-engine')).toMatch(/^trackgraph-engine\/\d+ models:musicnn-msd-2/);
    const data = ((await res.json()) as { data: { mood: Record<string, number>; tags: { name: string; probability: number }[] } }).data;
    for (const v of Object.values(data.mood)) expect(v).toBeGreaterThanOrEqual(0);
    expect(data.tags).toHaveLength(50);
    expect(data.tags.map((t) => t.probability)).toEqual([...data.tags.map((t) => t.probability)].sort((a, b) => b - a));
    expect(await server.stop()).toBe(0);
  });
});

describe('npm run index, npm run analyse', () => {
  it('npm run index -- <dir> analyses every file, and a second run skips what is stored', async () => {
    const dir = await tempDir('index');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const files = await fixtureLibrary(path.join(dir, 'music'));
    const env = userEnv({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn' });
    const first = await npmRun('index', [path.join(dir, 'music')], env, 240_000);
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.code).toBe(0);
    expect(first.stdout + first.stderr).toContain(`${files.length} tracks, 0 already stored, ${files.length} analysed, 0 failed`);
    const second = await npmRun('index', [path.join(dir, 'music')], env, 240_000);
    expect(second.code).toBe(0);
    expect(second.stdout + second.stderr).toContain(`${files.length} tracks, ${files.length} already stored, 0 analysed, 0 failed`);

    // --reanalyse --dry-run: an analysis made to look older is counted per engine, nothing is analysed.
    const aged = new SQLite(path.join(dir, 'data', 'trackgraph.sqlite'));
    aged.prepare("update analyses set engine = 'trackgraph-engine/1' where track_key = (select min(track_key) from analyses)").run();
    aged.close();
    const reanalyse = await npmRun('index', ['--reanalyse', '--dry-run'], { ...env, LIBRARY_DIR: path.join(dir, 'music') }, 240_000);
    expect(reanalyse.code).toBe(0);
    expect(reanalyse.stdout).toMatch(/reanalyse \(dry run, nothing analysed\): 1 to redo \(1 by trackgraph-engine\/1\); current engine trackgraph-engine\/\d+/);

    // --write-tags: a dry run lists the changes and leaves every byte; the real run writes them
    // (read back by music-metadata); a third run finds nothing to change.
    const original = await Promise.all(files.map((f) => readFile(f)));
    // Every key written (--min-key-confidence 0): the fixture songs' keys need not be sure ones.
    const dry = await npmRun('index', ['--write-tags', '--min-key-confidence', '0', '--dry-run', path.join(dir, 'music')], env, 240_000);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`tags (dry run, nothing written): ${files.length} to write, 0 unchanged, 0 skipped, 0 failed`);
    expect(dry.stdout).toMatch(/would write: money\.mp3: BPM (\S+) → \d+, INITIALKEY \S+ → [A-G]#?m?, INITIALKEY_OPENKEY \S+ → \d{1,2}[dm], MOOD_HAPPY \S+ → \d\.\d\d/);
    (await Promise.all(files.map((f) => readFile(f)))).forEach((b, i) => expect(b.equals(original[i]!)).toBe(true));
    const written = await npmRun('index', ['--write-tags', '--min-key-confidence', '0', path.join(dir, 'music')], env, 240_000);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`tags: ${files.length} written, 0 unchanged, 0 skipped, 0 failed`);
    expect(written.stdout).toContain('keys left out (key confidence under 0, --min-key-confidence): 0');
    const money = await readWithMusicMetadata(files.find((f) => f.endsWith('money.mp3'))!);
    expect(money.bpm).toBeGreaterThan(40);
    expect(money.native.TKEY).toMatch(/^[A-G]#?m?$/);
    expect(money.native['TXXX:MOOD_HAPPY']).toMatch(/^[01]\.\d\d$/);
    const again = await npmRun('index', ['--write-tags', path.join(dir, 'music')], env, 240_000);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`tags: 0 written, ${files.length} unchanged, 0 skipped, 0 failed`);
    // The default threshold: a key left out keeps the one the file has; the count is said.
    expect(again.stdout).toMatch(/^keys left out \(key confidence under 0\.85, --min-key-confidence\): \d+$/m);
    // --bpm-range: the BPM each file would get counted in the octave above 200 (every tempo the engine reads lies under it);
    // --key-notation camelot: the initial key in Camelot's notation.
    const ranged = await npmRun('index', ['--write-tags', '--bpm-range', '200-400', '--key-notation', 'camelot', '--min-key-confidence', '0', '--dry-run', path.join(dir, 'music')], env, 240_000);
    expect(ranged.code).toBe(0);
    expect(ranged.stdout).toMatch(/would write: money\.mp3: BPM \d+ → \d+, INITIALKEY [A-G]#?m? → \d{1,2}[AB]$/m);
    const bpmChange = /would write: money\.mp3: BPM (\d+) → (\d+)/.exec(ranged.stdout);
    expect(Number(bpmChange?.[2])).toBeGreaterThanOrEqual(200);
    expect(Number(bpmChange?.[2])).toBeLessThanOrEqual(400);
    expect(Number(bpmChange?.[1])).toBe(money.bpm);
  });

  it('npm run analyse -- --json <files> prints one contract analysis per file, and a clear error for a file that is not audio', async () => {
    const dir = await tempDir('analyse');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const files = await fixtureLibrary(dir);
    const notAudio = path.join(dir, 'notes.mp3');
    await writeFile(notAudio, 'these are words, not audio\n'.repeat(50));
    const ran = await npmRun('analyse', ['--json', ...files, notAudio], userEnv({ LOG_LEVEL: 'warn' }), 240_000);
    const lines = ran.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { file: string; data?: { tempo: number; keyString: string; trackKey: string }; error?: { code: string } });
    expect(lines).toHaveLength(files.length + 1);
    for (const f of files) {
      const line = lines.find((l) => l.file === f || l.file.endsWith(path.basename(f)));
      expect(line?.data?.tempo).toBeGreaterThan(40);
      expect(line?.data?.keyString).toMatch(/^[A-G]/);
      expect(line?.data?.trackKey).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(lines.find((l) => l.file.endsWith('notes.mp3'))?.error?.code).toBe('AUDIO_UNDECODABLE');
    // Some file failed: the exit status says so.
    expect(ran.code).toBe(1);
    // --bpm-range: every tempo counted within the range.
    const ranged = await npmRun('analyse', ['--json', '--bpm-range', '100-199', ...files], userEnv({ LOG_LEVEL: 'warn' }), 240_000);
    expect(ranged.code).toBe(0);
    const tempi = ranged.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { data: { tempo: number } }).data.tempo);
    expect(tempi).toHaveLength(files.length);
    for (const t of tempi) expect(t >= 100 && t <= 199).toBe(true);
    // The compiled code from the commands before (npm start's build) is run as it is.
    expect(ran.stderr).not.toContain('compiling the TypeScript sources');
  });
});

describe('npm run apikey', () => {
  it('create prints a key once, list shows it without the key, revoke refuses it from then on', async () => {
    const dir = await tempDir('apikey');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = userEnv({ DATA_DIR: dir, LOG_LEVEL: 'warn' });
    const created = await npmRun('apikey', ['create', '--name', 'smoke-app', '--expires', '2099-01-01'], env, 120_000);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created read key [0-9a-f]+ \(smoke-app\), expiring 2099-01-01/m);
    const key = /^(tg_\S+)$/m.exec(created.stdout)?.[1];
    expect(key).toBeDefined();

    const listed = await npmRun('apikey', ['list'], env, 120_000);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('smoke-app');
    expect(listed.stdout).not.toContain(key!);

    // The key works against a server on the same data folder, until revoked.
    const port = await freePort();
    const server = start(process.execPath, ['dist/src/main.js'], userEnv({ PORT: String(port), DATA_DIR: dir, LIBRARY_DIR: path.join(dir, 'library') }));
    cleanups.push(() => server.stop());
    await ready(server, port);
    expect((await getJson(`http://127.0.0.1:${port}/api/audio/search?track=x`, key)).status).toBe(200);

    const revoked = await npmRun('apikey', ['revoke', 'smoke-app'], env, 120_000);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/^revoked 1 key\(s\): [0-9a-f]+$/m);
    await waitFor('the revoked key to be refused', 30_000, async () =>
      (await getJson(`http://127.0.0.1:${port}/api/audio/search?track=x`, key)).status === 401 ? true : undefined,
    );
    expect((await npmRun('apikey', ['list'], env, 120_000)).stdout).toMatch(/smoke-app.*revoked/);
    await server.stop();
  });
});

const describeScaled = POSTGRES_URL && REDIS_URL ? describe : describe.skip;

describeScaled('npm run worker (Redis and Postgres)', () => {
  it('a worker takes the analysis an API node queues, and both say they are ready', async () => {
    const schema = uniqueName('smoke');
    cleanups.push(() => deleteRedisKeys(schema));
    cleanups.push(() => dropSchema(schema));
    const dir = await tempDir('worker');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await fixtureLibrary(path.join(dir, 'library'));
    const shared = {
      DATABASE_URL: POSTGRES_URL!,
      DATABASE_SCHEMA: schema,
      CACHE_URL: REDIS_URL,
      QUEUE_URL: REDIS_URL,
      REDIS_PREFIX: schema,
      LIBRARY_DIR: path.join(dir, 'library'),
      ADMIN_API_KEYS: 'smoke-admin-key-0123456789',
    };
    const workerPort = await freePort();
    const worker = start('npm', ['run', 'worker'], userEnv({ ...shared, DATA_DIR: path.join(dir, 'worker'), WORKER_PORT: String(workerPort) }));
    cleanups.push(() => worker.stop());
    await ready(worker, workerPort);
    const port = await freePort();
    const api = start(process.execPath, ['dist/src/main.js'], userEnv({ ...shared, DATA_DIR: path.join(dir, 'api'), PORT: String(port), ANALYSIS_WORKERS: '1' }));
    cleanups.push(() => api.stop());
    await ready(api, port);
    const key = 'smoke-admin-key-0123456789';
    const money = trackKey('Pink Floyd', 'Money');
    await getJson(`http://127.0.0.1:${port}/api/audio/search?track=Money&artist=Pink+Floyd`, key);
    const analysis = await waitFor('the analysis through the worker', 120_000, async () => {
      const { status, body } = await getJson(`http://127.0.0.1:${port}/api/audio/analysis/${money}`, key);
      return status === 200 && (body as { data: unknown }).data ? (body as { data: { tempo: number } }).data : undefined;
    });
    expect(analysis.tempo).toBeGreaterThan(40);
    // The worker ran it: its log says so, the API node's does not.
    const ran = (l: Record<string, unknown>): boolean => typeof l.msg === 'string' && /analys(is|ed)/.test(l.msg) && JSON.stringify(l).includes(money);
    expect(logLines(worker.output()).some(ran)).toBe(true);
    expect(await api.stop()).toBe(0);
    await worker.stop();
    expect(logLines(worker.output()).some((l) => l.msg === 'worker stopped')).toBe(true);
  });
});

describe('schema and OpenAPI commands', () => {
  it('npm run schema writes the committed schema; npm run openapi prints the document and lints it', async () => {
    const schema = await npmRun('schema', [], userEnv(), 120_000);
    expect(schema.code).toBe(0);
    expect(schema.stdout).toContain('wrote schema/schema.graphql');
    const emitted = await run('git', ['diff', '--stat', '--', 'schema/schema.graphql'], userEnv(), 30_000);
    expect(emitted.stdout).toBe('');

    const doc = await npmRun('openapi', [], userEnv(), 120_000);
    expect(doc.code).toBe(0);
    const parsed = JSON.parse(doc.stdout) as { openapi: string; paths: Record<string, unknown> };
    expect(parsed.openapi).toMatch(/^3\.1/);
    expect(Object.keys(parsed.paths)).toEqual(expect.arrayContaining(['/api/audio/search', '/api/audio/analysis/{trackKey}']));
    const lint = await npmRun('openapi', ['--lint'], userEnv(), 120_000);
    expect(lint.code).toBe(0);
    expect(lint.stdout).toMatch(/openapi\.json: 0 errors/);
  });
});
