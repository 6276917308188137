import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message a receiver got, as it arrived. */
export interface ReceivedMessage {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as sent (what the signature covers). */
  body: string;
  /** performance.timeOrigin + performance.now() when its last byte arrived, ms. */
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 (port 0) that records every message and answers each with
 * what `answer` says (200 by default). `next(n)` resolves once n messages have arrived.
 */
export class WebhookReceiver {
  readonly messages: ReceivedMessage[] = [];
  /** The status of the next answers; a function may decide per message. */
  answer: number | ((message: ReceivedMessage) => number) = 200;
  url = '';
  private server: http.Server | undefined;
  private waiters: { count: number; resolve: () => void }[] = [];

  async start(path = '/hooks/trackgraph'): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const message: ReceivedMessage = {
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: performance.timeOrigin + performance.now(),
        };
        this.messages.push(message);
        const status = typeof this.answer === 'function' ? this.answer(message) : this.answer;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
        this.waiters = this.waiters.filter((w) => {
          if (this.messages.length < w.count) return true;
          w.resolve();
          return false;
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  /** Resolves once `count` messages have arrived in all. */
  next(count = this.messages.length + 1): Promise<void> {
    if (this.messages.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Messages of one event type. */
  of(type: string): ReceivedMessage[] {
    return this.messages.filter((m) => (JSON.parse(m.body) as { type?: string }).type === type);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function startReceiver(path?: string): Promise<WebhookReceiver> {
  return new WebhookReceiver().start(path);
}
