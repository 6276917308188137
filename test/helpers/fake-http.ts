import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/** A request as a fake server saw it. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export type FakeHandler = (req: FakeRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

/**
 * A local HTTP server on 127.0.0.1, port 0, standing in for a remote API. Routes are matched
 * by exact path or by a RegExp; unknown paths answer 404. Every request is recorded so tests
 * can count upstream calls instead of timing them.
 */
export class FakeServer {
  readonly requests: FakeRequest[] = [];
  private readonly routes: { pattern: string | RegExp; handler: FakeHandler }[] = [];
  private server: http.Server | undefined;
  url = '';

  route(pattern: string | RegExp, handler: FakeHandler): this {
    // Later routes win, so a test can override a default route of a shared fixture server.
    this.routes.unshift({ pattern, handler });
    return this;
  }

  /** Requests whose path starts with `prefix` (all when omitted). */
  count(prefix = ''): number {
    return this.requests.filter((r) => r.path.startsWith(prefix)).length;
  }

  async start(): Promise<this> {
    this.server = http.createServer((raw, res) => {
      const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
      const req: FakeRequest = { method: raw.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: raw.headers };
      this.requests.push(req);
      const route = this.routes.find((r) => (typeof r.pattern === 'string' ? r.pattern === url.pathname : r.pattern.test(url.pathname)));
      if (!route) {
        sendJson(res, 404, { error: 'no such fake route' });
        return;
      }
      Promise.resolve(route.handler(req, res, raw)).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    // Hanging handlers never answer: drop their sockets so close() returns.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function startFakeServer(): Promise<FakeServer> {
  return new FakeServer().start();
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendBytes(res: ServerResponse, bytes: Uint8Array, contentType: string, status = 200): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': bytes.byteLength });
  res.end(Buffer.from(bytes));
}

/** A handler that never answers: a source that accepted the connection and hung. */
export const hang: FakeHandler = () => new Promise<void>(() => undefined);

/** A recorded-shape JSON file under test/fixtures/sources/, parsed. */
export function sourceFixture<T = unknown>(relative: string): T {
  return JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'sources', relative), 'utf8')) as T;
}
