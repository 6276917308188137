import '../../src/entry';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { pino } from 'pino';
import { syntheticAnalysis } from '../../measure/store/synthetic-analyses';

/** The application's modules the `app` mode starts it with. */
interface AppModules {
  createLogger: typeof import('../../src/core/logger').createLogger;
  loadConfig: typeof import('../../src/config').loadConfig;
  createContainer: typeof import('../../src/container').createContainer;
  buildHttpApp: typeof import('../../src/container').buildHttpApp;
}

/**
 * The application as `npm start` runs it, compiled (dist/, `npm run build`), when
 * TRACKGRAPH_BENCH_COMPILED=1; else its sources through tsx, whose transform wraps every function
 * made at run time (each request's closures too) in a naming call that compiled code has not.
 */
function appModules(): AppModules {
  const compiled = process.env.TRACKGRAPH_BENCH_COMPILED === '1';
  const base = path.join(__dirname, '..', '..', ...(compiled ? ['dist', 'src'] : ['src']));
  const load = <T>(module: string): T => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path.join(base, module)) as T;
  };
  const { createLogger } = load<typeof import('../../src/core/logger')>('core/logger');
  const { loadConfig } = load<typeof import('../../src/config')>('config');
  const { createContainer, buildHttpApp } = load<typeof import('../../src/container')>('container');
  return { createLogger, loadConfig, createContainer, buildHttpApp };
}

/** How many analyses the app stores: enough for a batch read of 50 keys and a browse page. */
export const STORED = 60;

/**
 * Answers "MEM" lines on stdin with "MEM <heapUsed> <rss>" (bytes, after a full GC), so the bench
 * can see whether memory per request stays flat, and "CPU" lines with "CPU <µs>", the CPU time
 * (user and system) this process has used, so it can tell CPU per request.
 */
function answerMemoryProbes(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'CPU') {
      const c = process.cpuUsage();
      process.stdout.write(`CPU ${c.user + c.system}\n`);
      return;
    }
    if (line.trim() !== 'MEM') return;
    gc();
    gc();
    const m = process.memoryUsage();
    process.stdout.write(`MEM ${m.heapUsed} ${m.rss}\n`);
  });
}

/**
 * A server process for bench/http.ts: `node <dir>` serves each answer of <dir> (the app's, recorded
 * by the bench: `<name>.json` its body, `<name>.head` its headers) at `/<name>` from memory with
 * Node's own `node:http`, headers and body (the limit any Node gateway giving that answer can
 * approach); `node-body <dir>` the body alone with its content type; `bare <dir>` the body from a
 * plain Express route with `res.json`; `app` is the real application on an embedded DATA_DIR with STORED
 * analyses. Prints "READY <port> <trackKey>" when it listens.
 */
async function main(): Promise<void> {
  // Exit cleanly on SIGINT so `node --cpu-prof` can write its profile.
  process.on('SIGINT', () => process.exit(0));
  answerMemoryProbes();
  const mode = process.argv[2];
  const seed = syntheticAnalysis(1);
  if (mode === 'node' || mode === 'node-body') {
    // `node`: the same answer, its headers too (from <name>.head); `node-body`: the body alone.
    const dir = process.argv[3]!;
    const answers = new Map<string, { body: Buffer; head: string[] }>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const name = path.basename(file, '.json');
      const body = readFileSync(path.join(dir, file));
      const recorded = mode === 'node' ? (JSON.parse(readFileSync(path.join(dir, `${name}.head`), 'utf8')) as [string, string][]) : [['content-type', 'application/json; charset=utf-8']];
      answers.set(`/${name}`, { body, head: [...recorded.flat(), 'content-length', String(body.length)] });
    }
    const server = createServer((req, res) => {
      const answer = answers.get(req.url ?? '');
      // A POST's body is read to its end, as any server must before it answers on a kept-alive connection.
      req.resume();
      req.on('end', () => {
        if (answer === undefined) res.writeHead(404).end();
        else res.writeHead(200, answer.head).end(answer.body);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      process.stdout.write(`READY ${typeof a === 'object' && a ? a.port : 0} ${seed.trackKey}\n`);
    });
    return;
  }
  if (mode === 'bare') {
    const dir = process.argv[3]!;
    const app = express();
    for (const file of readdirSync(dir)) {
      const body: unknown = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      app.all(`/${path.basename(file, '.json')}`, (_req, res) => {
        res.json(body);
      });
    }
    const server = app.listen(0, '127.0.0.1', () => {
      const a = server.address();
      process.stdout.write(`READY ${typeof a === 'object' && a ? a.port : 0} ${seed.trackKey}\n`);
    });
    return;
  }
  const key = process.argv[3] ?? 'bench-key-0123456789';
  const { createLogger, loadConfig, createContainer, buildHttpApp } = appModules();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-bench-'));
  const config = loadConfig({
    // The server's own path is measured: no catalogue is asked anything.
    SOURCES: 'library',
    ...process.env,
    DATA_DIR: dir,
    LIBRARY_DIR: path.join(dir, 'library'),
    API_KEYS: key,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    ANALYSIS_WORKERS: '1',
    RATE_LIMIT: '10000000',
  });
  // The log lines go to a file of the data folder, written as the server writes stdout (pino's
  // asynchronous destination): a pipe read by the bench would charge their reading to the load
  // generator's process.
  const logFile = path.join(dir, 'server.log');
  const logger = createLogger({ level: config.LOG_LEVEL, format: 'json', stream: pino.destination({ dest: logFile, sync: false }) });
  const container = await createContainer(config, { logger });
  for (let i = 1; i <= STORED; i++) await container.store.save(syntheticAnalysis(i));
  await container.start();
  const http = await buildHttpApp(container);
  const server = http.app.listen(0, '127.0.0.1', () => {
    const a = server.address();
    process.stdout.write(`READY ${typeof a === 'object' && a ? a.port : 0} ${seed.trackKey}\n`);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
