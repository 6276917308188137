import net from 'node:net';
import { BullmqJobs, QUEUE_OP_TIMEOUT_MS } from '../../../src/analysis/jobs/bullmq.jobs';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import { silentLogger } from '../../../src/core/logger';

/** A "Redis" that takes connections and commands and never answers. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('BullMQ jobs when Redis does not answer', () => {
  it(`a queue read gives up after ${QUEUE_OP_TIMEOUT_MS} ms with SERVICE_UNAVAILABLE (retry in 5 s)`, async () => {
    const server = await silentServer();
    // No ready check: the connection counts as up, so only the bound can end the wait.
    const connection = { host: '127.0.0.1', port: server.port, enableReadyCheck: false };
    const jobs = new BullmqJobs({} as AnalysisStore, { connection, prefix: 'tg-test' }, silentLogger);
    try {
      const started = Date.now();
      const failure = await jobs.status('bc24aaa5a97c70ed').then(
        () => undefined,
        (error: unknown) => error,
      );
      const waited = Date.now() - started;
      expect(failure).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'the analysis queue is unreachable; try again shortly',
        retryAfterS: 5,
      });
      // Timers may fire a little early or late on a busy machine.
      expect(waited).toBeGreaterThanOrEqual(QUEUE_OP_TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(QUEUE_OP_TIMEOUT_MS + 5000);
    } finally {
      await jobs.close();
      await server.close();
    }
  });
});
