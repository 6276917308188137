import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config';
import { buildHttpApp, createContainer } from '../../src/container';
import { syntheticAnalysis } from '../http/seed';

/**
 * An API node for bench/load.ts: the real application, configured by the environment it is
 * given (embedded: SQLite under a fresh DATA_DIR; scaled: DATABASE_URL, CACHE_URL, QUEUE_URL),
 * with LOAD_SEED stored analyses. Prints "READY <port>" when it listens.
 */
async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-load-'));
  const config = loadConfig({
    DATA_DIR: dir,
    LIBRARY_DIR: path.join(dir, 'library'),
    LOG_LEVEL: 'silent',
    ANALYSIS_WORKERS: '1',
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
  const server = http.app.listen(0, '127.0.0.1', () => {
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
