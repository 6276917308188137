import 'reflect-metadata';
import type { Server } from 'node:http';
import { loadConfigOrExit } from './config';
import { buildHttpApp, createContainer } from './container';
import { createHttpServer, httpTimeouts } from './http/http-server';


async function main(): Promise<void> {
  const config = loadConfigOrExit('trackgraph');
  const container = await createContainer(config);
  const { logger } = container;
  // The library is indexed while the server answers (a first start on a large folder takes a
  // while); /readyz says "indexing: n of m files" meanwhile.
  await container.start({ background: true });
  const http = await buildHttpApp(container);
  const server: Server = createHttpServer(http.app, httpTimeouts(config)).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ host: config.HOST, port, sources: container.registry.names, store: container.database.description }, 'trackgraph listening');

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
    // waits at most ANALYSIS_WAIT_MS), then jobs are drained and connections closed.
    server.close(() => {
      http
        .stop()
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
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`trackgraph: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
