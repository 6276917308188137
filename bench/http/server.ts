import '../../src/entry';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { pino } from 'pino';
import { loadConfig } from '../../src/config';
import { buildHttpApp, createContainer } from '../../src/container';
import { syntheticAnalysis } from '../../measure/store/synthetic-analyses';

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
 * A server process for bench/http.ts: `bare <dir>` serves each JSON file of <dir> (the bytes the
 * app answered, recorded by the bench) from a plain Express route `GET /<file name>` with
 * `res.json` (the ceiling); `app` is the real application on an embedded DATA_DIR with STORED
 * analyses. Prints "READY <port> <trackKey>" when it listens.
 */
async function main(): Promise<void> {
  // Exit cleanly on SIGINT so `node --cpu-prof` can write its profile.
  process.on('SIGINT', () => process.exit(0));
  answerMemoryProbes();
  const mode = process.argv[2];
  const seed = syntheticAnalysis(1);
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
  const container = await createContainer(config, { logger: pino({ level: config.LOG_LEVEL }) });
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
