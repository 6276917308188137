import '../../src/entry';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { loadConfig } from '../../src/config';
import { buildHttpApp, createContainer } from '../../src/container';
import { createHttpServer, httpTimeouts } from '../../src/http/http-server';
import { syntheticAnalysis } from '../../measure/store/synthetic-analyses';

/**
 * An API node for bench/load.ts: the real application, configured by the environment it is
 * given (embedded: SQLite under a fresh DATA_DIR; scaled: DATABASE_URL, CACHE_URL, QUEUE_URL),
 * with LOAD_SEED stored analyses, behind the server main.ts makes (every client timeout set).
 * Prints "READY <port>" when it listens. On SIGUSR2 it collects garbage and prints
 * "MEM <json of process.memoryUsage()>", for the memory figures of the hostile mix.
 */
async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-load-'));
  const config = loadConfig({
    DATA_DIR: dir,
    LIBRARY_DIR: path.join(dir, 'library'),
    LOG_LEVEL: 'silent',
    ANALYSIS_WORKERS: '1',
    // The server's own path is measured: no catalogue is asked anything.
    SOURCES: 'library',
    ...process.env,
  });
  const container = await createContainer(config, { logger: pino({ level: config.LOG_LEVEL }) });
  const seed = Number(process.env.LOAD_SEED ?? 1000);
  // Every node seeds the same rows; the store keeps the first save of each, so racing nodes are fine.
  for (let i = 0; i < seed; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, seed - i) }, (_, j) => container.store.save(syntheticAnalysis(i + j))));
  }
  await container.start();
  const http = await buildHttpApp(container);
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  process.on('SIGUSR2', () => {
    gc();
    process.stdout.write(`MEM ${JSON.stringify(process.memoryUsage())}\n`);
  });
  const server = createHttpServer(http.app, httpTimeouts(config));
  server.listen(0, '127.0.0.1', () => {
    const a = server.address();
    process.stdout.write(`READY ${typeof a === 'object' && a ? a.port : 0}\n`);
  });
  process.on('SIGTERM', () => {
    server.close(() => {
      void http
        .stop()
        .then(() => container.close())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
