import '../../src/entry';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { toContractAnalysis } from '../../src/analysis/contract';
import { loadConfig } from '../../src/config';
import { buildHttpApp, createContainer } from '../../src/container';
import { syntheticAnalysis } from './seed';

/**
 * A server process for bench/http.ts: `bare` serves the stored analysis's JSON from a plain
 * Express route (the ceiling); `app` is the real application on an embedded DATA_DIR.
 * Prints "READY <port> <trackKey>" when it listens.
 */
async function main(): Promise<void> {
  // Exit cleanly on SIGINT so `node --cpu-prof` can write its profile.
  process.on('SIGINT', () => process.exit(0));
  const mode = process.argv[2];
  const key = process.argv[3] ?? 'bench-key-0123456789';
  const seed = syntheticAnalysis(1);
  if (mode === 'bare') {
    const body = { success: true, data: toContractAnalysis(seed) };
    const app = express();
    app.get('/api/audio/analysis/:trackKey', (_req, res) => {
      res.json(body);
    });
    const server = app.listen(0, '127.0.0.1', () => {
      const a = server.address();
      process.stdout.write(`READY ${typeof a === 'object' && a ? a.port : 0} ${seed.trackKey}\n`);
    });
    return;
  }
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
  await container.store.save(seed);
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
