import '../../src/entry';
import { pino } from 'pino';
import { loadConfig } from '../../src/config';
import { buildHttpApp, createContainer } from '../../src/container';
import { createHttpServer, httpTimeouts } from '../../src/http/http-server';
import { FakeEngine } from '../../measure/http/fake-engine';

/**
 * A process of bench/webhooks.ts: `api` (the application, HTTP on a free port) or `worker` (a
 * BullMQ worker), configured by the environment the bench gives it, analysing with the tests'
 * fake engine (the analysis is not what is measured). For every analysis that completes in this
 * process it prints "EVENT <trackKey> <time>", the time in ms since the epoch to the microsecond
 * (performance.timeOrigin + performance.now(), comparable across processes of one machine), and
 * "READY <port>" once it serves.
 */
async function main(): Promise<void> {
  process.on('SIGINT', () => process.exit(0));
  const role = process.argv[2] === 'worker' ? 'worker' : 'api';
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ANALYSIS_WORKERS: '1', RATE_LIMIT: '10000000', LIBRARY_WATCH: 'false' });
  const container = await createContainer(config, { role, engine: new FakeEngine(), logger: pino({ level: config.LOG_LEVEL }) });
  // After the webhooks' own listener: it has started recording the deliveries when this prints.
  container.events.subscribe((event) => {
    if (event.type === 'analysis.completed') process.stdout.write(`EVENT ${event.trackKey} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`);
  });
  await container.start();
  let port = 0;
  if (role === 'api') {
    const http = await buildHttpApp(container);
    const server = createHttpServer(http.app, httpTimeouts(config), http.upgrade);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const a = server.address();
    port = typeof a === 'object' && a ? a.port : 0;
  }
  process.stdout.write(`READY ${port}\n`);
  process.on('SIGTERM', () => {
    container.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
