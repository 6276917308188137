import './entry';
import { writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { loadConfigOrExit, type Config } from './config';
import { buildHttpApp, createContainer, type Container, type ContainerOverrides, type HttpAppOptions } from './container';
import { createHttpServer, httpTimeouts } from './http/http-server';
import { retryOnConnectionLoss } from './db/database';

/** A started API server. */
export interface RunningServer {
  server: Server;
  port: number;
  container: Container;
  /** Stops what the HTTP layer started (Apollo); the caller closes the server first, the container after. */
  stopHttp(): Promise<void>;
  /** Closes every WebSocket (subscriptions), telling clients the server is going away. */
  closeSockets(): Promise<void>;
}

export interface ServerOptions {
  /**
   * Whether stdout is a terminal a person reads (default: asked of stdout). Only then is the first
   * key printed; otherwise stdout is a log (a container's, a pipe) and the notice goes to a file.
   */
  terminal?: boolean;
  /** Where the first key's notice is printed on a terminal (stdout by default). */
  out?: (text: string) => void;
  container?: ContainerOverrides;
  http?: HttpAppOptions;
}

/** Where the first key's notice is written, in DATA_DIR, when stdout is not a terminal. */
export const FIRST_KEY_FILE = 'first-admin-key.txt';

/**
 * What a first start prints, once: the first admin key, how to use it and how to make more.
 * The only place a key is written outside the answer that creates it; never to the log.
 */
export function firstKeyNotice(key: string, publicUrl: string): string {
  const rule = '='.repeat(78);
  return [
    rule,
    'trackgraph: no API key was configured or stored, so this first admin key was made.',
    'It is shown this once (only its hash is stored): keep it now.',
    '',
    `    ${key}`,
    '',
    'Use it as a Bearer token:',
    `    curl -H "Authorization: Bearer ${key}" "${publicUrl}/api/audio/search?track=Money"`,
    `Sign in with it to the dashboard at ${publicUrl}/ (Keys page: make and revoke keys).`,
    'Make more keys, read keys for apps and admin keys for people:',
    `    curl -X POST -H "Authorization: Bearer <admin key>" -H "Content-Type: application/json" \\`,
    `         -d '{"name":"my-app"}' ${publicUrl}/api/keys`,
    '    npm run apikey -- create --name my-app [--scope read|admin] [--expires 2030-01-01]',
    'or list keys in API_KEYS / ADMIN_API_KEYS. No key is made again at the next start.',
    rule,
    '',
  ].join('\n');
}

/**
 * Starts the API: the container, the HTTP server on PORT and HOST, and, on the first start of a
 * server without any key (none in API_KEYS or ADMIN_API_KEYS, none stored, revoked ones
 * included), a first admin key, printed once.
 */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const container = await createContainer(config, options.container);
  const { logger } = container;
  // The library is indexed while the server answers (a first start on a large folder takes a
  // while); /readyz says "indexing: n of m files" meanwhile.
  await container.start({ background: true });
  const http = await buildHttpApp(container, options.http);
  const server: Server = createHttpServer(http.app, httpTimeouts(config), http.upgrade).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST}:${port}`;
  logger.info({ url, host: config.HOST, port, sources: container.registry.names, store: container.database.description }, 'trackgraph listening');
  logger.info({ url }, `open ${url}/ for the web dashboard, ${url}/graphiql to explore the GraphQL API; searching ${container.registry.names.join(', ')}`);

  // Every node of a deployment starts at once: a connection slow to come then must not stop a
  // node that already answers.
  const first = await retryOnConnectionLoss(() => container.apiKeys.createFirstKey());
  if (first) {
    const notice = firstKeyNotice(first.key, url);
    if (options.terminal ?? process.stdout.isTTY === true) {
      logger.info({ keyId: first.info.id }, 'first admin key made and printed to the terminal');
      (options.out ?? ((text: string) => process.stdout.write(text)))(notice);
    } else {
      // stdout is a log here: the key goes to a file only its owner can read.
      const file = path.join(config.dataDir, FIRST_KEY_FILE);
      await writeFile(file, notice, { mode: 0o600 });
      logger.warn({ keyId: first.info.id, file }, `first admin key made and written to ${file} (stdout is not a terminal): read it, keep the key, then delete the file`);
    }
  }
  return { server, port, container, stopHttp: () => http.stop(), closeSockets: () => http.closeSockets() };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit('trackgraph');
  const running = await startServer(config);
  const { server, container } = running;
  const { logger } = container;

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests and jobs');
    const force = setTimeout(() => {
      logger.error({}, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // Stops accepting; the callback runs once every in-flight request has been answered (each
    // waits at most ANALYSIS_WAIT_MS) and every WebSocket closed (told 1001 Going away, just
    // below), then the running jobs finish (queued ones are dropped), usage is written and
    // connections closed.
    server.close(() => {
      running
        .stopHttp()
        .then(() => container.close())
        .then(() => {
          logger.info({}, 'stopped');
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'error while stopping');
          process.exit(1);
        });
    });
    server.closeIdleConnections();
    running.closeSockets().catch((error: unknown) => logger.warn({ err: error }, 'closing WebSocket connections failed'));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`trackgraph: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
