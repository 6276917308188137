import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino, type Logger as PinoLogger } from 'pino';
import type { Express } from 'express';
import { loadConfig } from '../../src/config';
import { buildHttpApp, createContainer, type Container, type ContainerOverrides } from '../../src/container';
import type { AnalysisEngine } from '../../src/core/types';
import { createHttpServer, httpTimeouts } from '../../src/http/http-server';
import { OFFLINE_ENV } from './offline-env';

export const TEST_API_KEY = 'test-key-0123456789';

export interface TestApp {
  app: Express;
  container: Container;
  /** Headers with a valid Bearer key. */
  auth: { Authorization: string };
  dir: string;
  libraryDir: string;
  /** Serves the app on 127.0.0.1 (port 0) through the server main.ts creates, timeouts included; closed by close(). */
  listen(): Promise<{ server: Server; port: number }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  engine?: AnalysisEngine;
  sources?: ContainerOverrides['sources'];
  /** Called with the library folder before the container starts (to put files in it). */
  prepareLibrary?: (libraryDir: string) => Promise<void>;
  /** Reuse this folder (DATA_DIR and library inside it), e.g. to restart on the same data. */
  dir?: string;
  /** Where the app logs (default: nowhere); a test reading the log passes captureLogs().logger. */
  logger?: PinoLogger;
  /** The built web dashboard the app serves at / (default: web/dist). */
  dashboardDir?: string;
  /** The webhooks' clock (ms since the epoch), to reach a retry's time without waiting for it. */
  now?: () => number;
}

/** A whole app on a fresh temporary DATA_DIR and library, with a known API key and (unless given a logger) no logs. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'trackgraph-test-')));
  const libraryDir = path.join(dir, 'library');
  await mkdir(libraryDir, { recursive: true });
  await options.prepareLibrary?.(libraryDir);
  const config = loadConfig({
    DATA_DIR: path.join(dir, 'data'),
    LIBRARY_DIR: libraryDir,
    API_KEYS: TEST_API_KEY,
    LIBRARY_WATCH: 'false',
    CACHE_URL: `sqlite://${path.join(dir, 'data', 'cache.sqlite')}`,
    ANALYSIS_WORKERS: '1',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://trackgraph.test',
    ...OFFLINE_ENV,
    ...options.env,
  });
  const container = await createContainer(config, {
    logger: options.logger ?? pino({ level: 'silent' }),
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.sources ? { sources: options.sources } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  await container.start();
  const http = await buildHttpApp(container, options.dashboardDir ? { dashboardDir: options.dashboardDir } : {});
  const servers: Server[] = [];
  return {
    app: http.app,
    container,
    auth: { Authorization: `Bearer ${TEST_API_KEY}` },
    dir,
    libraryDir,
    async listen() {
      const server = createHttpServer(http.app, httpTimeouts(config), http.upgrade);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { server, port: (server.address() as AddressInfo).port };
    },
    async close() {
      // WebSockets first: a server does not finish closing while one is open.
      await http.closeSockets();
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await http.stop();
      await container.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
