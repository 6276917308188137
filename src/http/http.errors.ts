import type { ErrorRequestHandler } from 'express';
import { AppError, type ErrorCode, invalidArgument, shownError } from '../core/errors';
import { closeAfterAnswer } from './http-server';

/** HTTP status of each error code: the one place REST maps codes to statuses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TRACK_NOT_FOUND: 404,
  NOT_FOUND: 404,
  AUDIO_UNDECODABLE: 422,
  NO_AUDIO_SOURCE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  URL_REFUSED: 422,
  URL_UNREACHABLE: 422,
  RATE_LIMITED: 429,
  UPLOAD_QUOTA_EXCEEDED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_INVALID: 502,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  ANALYSIS_TIMEOUT: 504,
};

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string };
}

/**
 * The client-facing form of any thrown value. AppErrors keep their code and message; anything
 * else is a programmer error and is masked as INTERNAL (the details go to the log only).
 */
export function toClientError(error: unknown): { status: number; body: ErrorBody; retryAfterS?: number } {
  if (error instanceof AppError) {
    return {
      status: HTTP_STATUS[error.code],
      body: { success: false, error: { code: error.code, message: error.message } },
      ...(error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
    };
  }
  return { status: 500, body: { success: false, error: shownError(error) } };
}

export function isExpected(error: unknown): boolean {
  return error instanceof AppError && error.code !== 'INTERNAL';
}

/**
 * express.json()'s failures as INVALID_ARGUMENT: a body that is not JSON, too large, in a charset
 * or content encoding it does not read, or that does not inflate as its encoding says. Each is a
 * client error body-parser marks as such (an http-errors 4xx with `expose`); other errors pass as
 * they are.
 */
export function fromBodyParserError(error: unknown): unknown {
  const e = error as { type?: unknown; status?: unknown; expose?: unknown; message?: unknown } | undefined;
  if (e?.type === 'entity.parse.failed') return invalidArgument('the request body is not valid JSON');
  if (e?.type === 'entity.too.large') return invalidArgument('the request body is too large');
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
    return invalidArgument(`the request body cannot be read: ${String(e.message)}`);
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
    // A zlib or stream error: its message names a library's internals, not the client's mistake.
    return invalidArgument('the request body cannot be read: it does not match its Content-Encoding, or it was cut short');
  }
  return error;
}

/**
 * The Express error handler of an edge: maps the failure (body-parser's included) to its status
 * and code, logs expected failures as warnings and the rest as errors, sets the challenge and
 * retry headers, and answers with `body` of the mapped error (REST's shape or GraphQL's).
 */
export function clientErrorHandler(options: { body: (error: ErrorBody) => unknown; logMessage: string }): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const cause = fromBodyParserError(error);
    const mapped = toClientError(cause);
    if (isExpected(cause)) req.log.warn({ code: mapped.body.error.code, msg: mapped.body.error.message }, options.logMessage);
    else if (mapped.status >= 500) req.log.error({ err: error }, 'unexpected error');
    if (res.headersSent) {
      // Too late for an error answer: Express's own handler closes the connection.
      next(error);
      return;
    }
    if (mapped.status === 401) res.set('WWW-Authenticate', 'Bearer realm="trackgraph"');
    if (mapped.retryAfterS !== undefined) res.set('Retry-After', String(mapped.retryAfterS));
    // Refused while its body is still arriving (no key, rate limited, no such route, before an
    // upload was read): the rest is read and thrown away for a bounded time and the connection
    // closed after the answer, as an upload's own refusals do, rather than read to its end.
    if (!req.complete) closeAfterAnswer(req, res);
    res.status(mapped.status).json(options.body(mapped.body));
  };
}
