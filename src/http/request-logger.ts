import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger as PinoLogger } from 'pino';
import type { Logger } from '../core/logger';
import { addHeader } from './response.head';
import { redactUrl } from './url.redact';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id given by the client, or a new UUID). */
    id: string;
    /** A logger bound to the request id. */
    log: Logger;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The logger of one request: a pino child carrying the request id, made only when something is
 * logged, so a request that logs nothing allocates this one small object.
 */
class RequestLog implements Logger {
  private child: PinoLogger | undefined;

  constructor(
    private readonly base: PinoLogger,
    private readonly reqId: string,
  ) {}

  private get bound(): PinoLogger {
    return (this.child ??= this.base.child({ reqId: this.reqId }));
  }

  debug(obj: object, msg?: string): void {
    if (this.base.isLevelEnabled('debug')) this.bound.debug(obj, msg);
  }

  info(obj: object, msg?: string): void {
    if (this.base.isLevelEnabled('info')) this.bound.info(obj, msg);
  }

  warn(obj: object, msg?: string): void {
    if (this.base.isLevelEnabled('warn')) this.bound.warn(obj, msg);
  }

  error(obj: object, msg?: string): void {
    if (this.base.isLevelEnabled('error')) this.bound.error(obj, msg);
  }
}

export interface RequestLoggerOptions {
  /** Paths not worth a log line each when they succeed (health probes, metrics scrapes). */
  quietPaths?: ReadonlySet<string>;
  /** Told of every finished request with its duration (request metrics), from the same listener. */
  observe?: (req: Request, res: Response, seconds: number) => void;
}

/** When a request began (performance.now()), kept on the request for its 'finish' listener. */
const STARTED = Symbol('trackgraph.requestStarted');
type Timed = Request & { [STARTED]?: number };

/**
 * Gives each request an id (echoed in X-Request-Id) and a logger bound to it, and when the
 * response is finished, tells `observe` and logs one line: info for 2xx/3xx, warn for 4xx, error
 * for 5xx. The Authorization header is never read here, and credentials in the URL (API keys
 * sent as parameters, artwork signatures) are redacted. One 'finish' listener per request serves
 * both (this runs on every request).
 */
export function requestLogger(logger: PinoLogger, options: RequestLoggerOptions = {}): RequestHandler {
  const begin = requestBeginner(logger, options);
  return (req, res, next) => {
    begin(req, res);
    next();
  };
}

/**
 * The per-request work of requestLogger, for a caller composing it with other per-request work.
 * Everything that does not depend on the request is made here, once: the one 'finish' listener
 * all requests share (it finds its request through res.req and its start time on the request),
 * so a request allocates no closure, and its line is written by the base logger with the
 * request id as a field (the same line a child bound to it writes) rather than by a child made
 * for it.
 */
export function requestBeginner(logger: PinoLogger, options: RequestLoggerOptions = {}): (req: Request, res: Response) => void {
  const quiet = options.quietPaths ?? new Set<string>();
  const observe = options.observe;
  function finished(this: Response): void {
    const req = this.req as Timed;
    const ms = performance.now() - (req[STARTED] ?? 0);
    observe?.(req, this, ms / 1000);
    const status = this.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const url = req.originalUrl ?? req.url;
    if (status < 400 && quiet.size > 0 && quiet.has(pathOf(url))) return;
    logger[level](
      {
        reqId: req.id,
        req: { id: req.id, method: req.method, url: redactUrl(url), userAgent: req.headers['user-agent'] },
        res: { statusCode: status },
        responseTime: Math.round(ms),
      },
      'request completed',
    );
  }
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    addHeader(res, 'X-Request-Id', id);
    req.id = id;
    req.log = new RequestLog(logger, id);
    (req as Timed)[STARTED] = performance.now();
    res.on('finish', finished);
  };
}

/** A request target without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
