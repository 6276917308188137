import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger as PinoLogger } from 'pino';
import type { Logger } from '../core/logger';
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

/**
 * Gives each request an id (echoed in X-Request-Id) and a logger bound to it, and when the
 * response is finished, tells `observe` and logs one line: info for 2xx/3xx, warn for 4xx, error
 * for 5xx. The Authorization header is never read here, and credentials in the URL (API keys
 * sent as parameters, artwork signatures) are redacted. One 'finish' listener per request serves
 * both (this runs on every request).
 */
export function requestLogger(logger: PinoLogger, options: RequestLoggerOptions = {}): RequestHandler {
  const quiet = options.quietPaths ?? new Set<string>();
  const observe = options.observe;
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    req.log = new RequestLog(logger, id);
    const started = performance.now();
    res.on('finish', () => {
      const ms = performance.now() - started;
      observe?.(req, res, ms / 1000);
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const url = req.originalUrl ?? req.url;
      if (status < 400 && quiet.has(url.split('?')[0] ?? '')) return;
      req.log[level](
        {
          req: { id, method: req.method, url: redactUrl(url), userAgent: req.headers['user-agent'] },
          res: { statusCode: status },
          responseTime: Math.round(ms),
        },
        'request completed',
      );
    });
    next();
  };
}
