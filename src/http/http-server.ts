import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { Config } from '../config';

/** How long a client may take at each stage before its connection is cut. */
export interface HttpTimeouts {
  /**
   * Until the request's headers are in, from the connection's opening or from the first byte of
   * a kept-alive connection's next request (a connection that sends nothing, or stops before the
   * end of its headers, is answered 408 and closed).
   */
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
 *
 * The headers deadline is kept twice: by Node's own check (`headersTimeout`, run every
 * `connectionsCheckingInterval`), and by this server itself ({@link watchHeaders}), so that the
 * deadline holds whatever Node's check does with kept-alive connections about, on any Node
 * version (a silent connection must never outlive it). A connection whose request headers are not all in
 * within `headersMs` of its opening, or of the first byte of its next request once kept alive, is
 * answered `408 Request Timeout` and destroyed, as Node does it (the answer is written, then the
 * socket destroyed at once, without waiting for the client to read it or close). The cut comes at
 * most a quarter of `headersMs` (500 ms at most) after the deadline, twice that for a kept-alive
 * connection's next request. Once a request's headers are in, this deadline no longer applies to
 * it: its body is `requestTimeout`'s, its answer the idle timeout's, and an upgraded socket
 * (WebSocket) is never cut by it. A kept-alive connection waiting in silence for its next request
 * is the keep-alive timeout's.
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
  (server as LingerServer)[LINGER_MS] = Math.min(timeouts.requestMs, MAX_LINGER_MS);
  const release = watchHeaders(server, timeouts.headersMs);
  if (upgrade) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Its headers are in and it is no longer HTTP: no deadline of this server applies to it any more.
      release(socket as Socket);
      upgrade(req, socket, head);
    });
  }
  return server;
}

/** How long at most a refused body is read and thrown away after its answer (nginx's `lingering_time`, 30 s). */
const MAX_LINGER_MS = 30_000;
/** The server's own bound on that: the shorter of MAX_LINGER_MS and HTTP_REQUEST_TIMEOUT_MS. */
const LINGER_MS = Symbol('trackgraph.http.lingerMs');
type LingerServer = Server & { [LINGER_MS]?: number };
/** The refused request whose body a connection still reads, once its answer is written. */
const LINGERING = Symbol('trackgraph.http.lingering');
type Lingering = Socket & { [LINGERING]?: IncomingMessage; server?: LingerServer | null };

/**
 * Answers a request without reading its body to its end (a refusal: too large, unauthorised,
 * unreadable), so that every client reads the answer. The answer says `Connection: close`; the
 * rest of the body is read and thrown away while the answer is written, and after it the
 * connection is closed only once the body has ended (the client sent what it declared), the
 * client has closed its side, or the linger time has passed (HTTP_REQUEST_TIMEOUT_MS, at most
 * 30 s). Closing a connection while the client is still sending makes the kernel reset it, and
 * a client still writing its body then loses the answer it had not read yet (`fetch` fails with
 * EPIPE, curl ends on `100 Continue`): servers that do this well (nginx's lingering close) read
 * on for a while first, as this does. Call it before the answer is sent.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.readableEnded) return;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const socket = req.socket as Lingering;
  socket[LINGERING] = req;
  // Node ends a `Connection: close` answer's connection with destroySoon(): this one lingers first.
  socket.destroySoon = lingerThenClose;
  // Whoever read the body has let go of it (unpiped); from now on it is read and thrown away.
  req.resume();
}

/** Ends our side once the answer is written, and closes the connection once the refused body is read, its client gone, or the linger time over. */
function lingerThenClose(this: Lingering): void {
  const req = this[LINGERING];
  this[LINGERING] = undefined;
  if (this.writable) this.end();
  const close = (): void => {
    if (this.writableFinished || !this.writable) this.destroy();
    else this.once('finish', () => this.destroy());
  };
  if (!req || req.readableEnded) {
    close();
    return;
  }
  const timer = setTimeout(close, this.server?.[LINGER_MS] ?? MAX_LINGER_MS).unref();
  req.once('end', close);
  this.once('close', () => clearTimeout(timer));
}

/** What Node answers when its own headers or request deadline passes. */
const REQUEST_TIMEOUT = Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', 'latin1');

/** Requests of a connection whose answer is not finished yet (more than one when pipelined). */
const IN_FLIGHT = Symbol('trackgraph.http.inFlight');
/**
 * Node's HTTP parser of a server's connection (`socket.parser`, not a documented property):
 * `headersCompleted()` is false once a next request has begun and until its headers are in (the
 * state Node's own headers check reads). Optional: where a Node version lacks it, the bytes read
 * tell instead.
 */
interface NodeParser {
  headersCompleted?: () => boolean;
}
type Watched = Socket & { [IN_FLIGHT]?: number; parser?: NodeParser | null };

/**
 * The server's own headers deadline: one server-wide sweep, no timer per connection, a few Map
 * operations per request and no closure per request.
 *
 * - `awaiting` holds each connection whose request headers are due, with its deadline. A connection
 *   enters on opening, leaves when its headers are in (the 'request' event, or an upgrade), and
 *   is cut if still there at its deadline. Every deadline is `now + headersMs` on a monotonic clock
 *   and a connection enters at the end of the Map, so the Map's order is the deadlines' order and
 *   the sweep stops at the first connection not yet due.
 * - `resting` holds each kept-alive connection between requests, with its `bytesRead` once its last
 *   answer was finished and its last request's body read to its end: waiting in silence is the
 *   keep-alive timeout's business, but once it has read more, a next request has begun, and the
 *   connection moves to `awaiting` (at the sweep that sees it, so up to one period late: never
 *   early). A next request that had already begun by then (pipelined behind the last, or sent
 *   right behind its body) goes to `awaiting` at once, from that moment.
 *
 * The sweep runs every quarter of `headersMs` (at most 500 ms) while either holds a connection;
 * destroyed connections are dropped as it meets them. Returns `release`, which takes a socket out
 * of both (for an upgrade).
 */
function watchHeaders(server: Server, headersMs: number): (socket: Socket) => void {
  const awaiting = new Map<Socket, number>();
  const resting = new Map<Socket, number>();
  const periodMs = Math.max(25, Math.min(500, Math.floor(headersMs / 4)));
  let timer: NodeJS.Timeout | undefined;
  let armed = false;

  const arm = (): void => {
    if (armed) return;
    armed = true;
    if (timer) timer.refresh();
    else timer = setTimeout(sweep, periodMs).unref();
  };

  function sweep(): void {
    armed = false;
    const now = performance.now();
    for (const [socket, readAtRest] of resting) {
      if (socket.destroyed) resting.delete(socket);
      else if (socket.bytesRead !== readAtRest) {
        resting.delete(socket);
        awaiting.set(socket, now + headersMs);
      }
    }
    for (const [socket, deadline] of awaiting) {
      if (deadline > now) break;
      awaiting.delete(socket);
      if (!socket.destroyed) {
        if (socket.writable) socket.write(REQUEST_TIMEOUT);
        socket.destroy();
      }
    }
    if (awaiting.size > 0 || resting.size > 0) arm();
  }

  /** An answer is finished ('finish' of a response; `this` is the response, no closure per request). */
  function onFinish(this: ServerResponse): void {
    const socket = this.req.socket as Watched;
    const inFlight = (socket[IN_FLIGHT] ?? 1) - 1;
    socket[IN_FLIGHT] = inFlight;
    if (inFlight !== 0) return;
    // A request answered before its body was all read is still reading it (Node reads the rest
    // and throws it away on a kept-alive connection): what it reads until then is no new request,
    // so the connection rests once the body has ended.
    if (this.req.complete) rest(socket);
    else this.req.once('end', () => rest(socket));
  }

  /** A kept-alive connection between requests: watched for the first byte of its next one. */
  function rest(socket: Watched): void {
    // Node has already ended a connection not kept alive (it is no longer writable).
    if (socket[IN_FLIGHT] !== 0 || !socket.writable || socket.destroyed) return;
    // A next request already begun in what was read with the last one (pipelined, or right
    // behind its body): its headers are due from now. Node's parser knows (the state its own
    // headers check reads); where it cannot tell, the first byte read from here on does.
    awaiting.delete(socket);
    resting.delete(socket);
    if (socket.parser?.headersCompleted?.() === false) awaiting.set(socket, performance.now() + headersMs);
    else resting.set(socket, socket.bytesRead);
    arm();
  }

  server.on('connection', (socket: Watched) => {
    socket[IN_FLIGHT] = 0;
    awaiting.set(socket, performance.now() + headersMs);
    arm();
  });
  // Before the app's listener, so that 'finish' is listened to before any answer can end.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as Watched;
    awaiting.delete(socket);
    resting.delete(socket);
    socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
    res.on('finish', onFinish);
  });
  return (socket) => {
    awaiting.delete(socket);
    resting.delete(socket);
  };
}
