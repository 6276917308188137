import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { Config } from '../config';

/** How long a client may take at each stage before its connection is cut. */
export interface HttpTimeouts {
  /** Until the request's headers are in (a connection that sends nothing is answered 408 and closed). */
  headersMs: number;
  /** Until the whole request is in, body included (a trickling upload is answered 408). */
  requestMs: number;
  /** How long a kept-alive connection waits for its next request. */
  keepAliveMs: number;
  /** No traffic either way for this long closes the connection (longer than any answer takes to start). */
  idleMs: number;
}

export function httpTimeouts(config: Config): HttpTimeouts {
  return {
    headersMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    idleMs: config.HTTP_IDLE_TIMEOUT_MS,
  };
}

/**
 * The HTTP server of an app, with every client timeout set: the one place a server is created
 * (the API in main.ts, the worker's operations port in worker.ts, tests that need a real
 * socket). Node's own defaults would let a slow client hold a connection for 60 s of headers,
 * 300 s of body and forever in silence. `upgrade` takes the WebSocket upgrades (GraphQL
 * subscriptions); without it they are refused.
 */
export function createHttpServer(app: Express, timeouts: HttpTimeouts, upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // Node checks the headers and request deadlines on this period (30 s by default, which
      // would let a 30 s deadline run to 60 s); a quarter of the shorter one, at most 1 s.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4))),
    },
    app,
  );
  // With no 'timeout' listener, Node destroys a socket idle this long (not an upgraded one: the
  // upgrade listener lifts it).
  server.setTimeout(timeouts.idleMs);
  if (upgrade) server.on('upgrade', upgrade);
  return server;
}
