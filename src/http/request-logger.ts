import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id given by the client, or a new UUID). */
    id: string;
    /** A logger bound to the request id; created on first use. */
    log: Logger;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface RequestLoggerOptions {
  /** Paths not worth a log line each (health probes, metrics scrapes). */
  quietPaths?: ReadonlySet<string>;
}

/**
 * Gives each request an id (echoed in X-Request-Id) and a logger bound to it, and logs one line
 * when the response is finished: info for 2xx/3xx, warn for 4xx, error for 5xx. The child
 * logger is made only when something logs, so a request that logs nothing costs no allocation;
 * the Authorization header is never read here, and signed URLs have their signature masked.
 */
export function requestLogger(logger: Logger, options: RequestLoggerOptions = {}): RequestHandler {
  const quiet = options.quietPaths ?? new Set<string>();
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: false,
      get: () => (child ??= logger.child({ reqId: id })),
    });
    const started = performance.now();
    res.once('finish', () => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const path = (req.originalUrl ?? req.url).split('?')[0] ?? '';
      if (quiet.has(path) && status < 400) return;
      req.log[level](
        {
          req: { id, method: req.method, url: (req.originalUrl ?? req.url).replace(/([?&]sig=)[^&]*/, '$1***'), userAgent: req.headers['user-agent'] },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    });
    next();
  };
}
