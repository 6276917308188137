import './entry';
import type { Server } from 'node:http';
import express from 'express';
import { loadConfigOrExit } from './config';
import { createContainer } from './container';
import { createHttpServer, httpTimeouts } from './http/http-server';
import { opsRoutes } from './http/ops.routes';

/**
 * The analysis worker process (`npm run worker`, scale-out): takes jobs from the BullMQ queue
 * on QUEUE_URL, analyses with this process's engine threads, stores into DATABASE_URL. Serves
 * /healthz, /readyz and /metrics on WORKER_PORT when it is set.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('trackgraph worker');
  const container = await createContainer(config, { role: 'worker' });
  const { logger } = container;
  await container.start();

  let server: Server | undefined;
  if (config.WORKER_PORT !== undefined) {
    const app = express();
    app.disable('x-powered-by');
    app.use(opsRoutes({ readiness: container.readiness, metrics: container.metrics, metricsToken: config.METRICS_TOKEN }));
    const listening = createHttpServer(app, httpTimeouts(config)).listen(config.WORKER_PORT, config.HOST);
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('listening', resolve);
      listening.once('error', reject);
    });
  }
  const address = server?.address();
  logger.info(
    {
      concurrency: config.WORKER_CONCURRENCY ?? config.ANALYSIS_WORKERS,
      store: container.database.description,
      sources: container.registry.names,
      ...(typeof address === 'object' && address ? { port: address.port } : {}),
    },
    'trackgraph worker ready',
  );

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down: finishing running jobs, taking no new ones');
    const force = setTimeout(() => {
      // Jobs still running are not lost: their locks expire and another worker takes them.
      logger.error({}, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    server?.close();
    container.close().then(
      () => {
        logger.info({}, 'worker stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`trackgraph worker: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
