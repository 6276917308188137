import { AppError, type ErrorCode } from '../core/errors';

/** HTTP status of each error code: the one place REST maps codes to statuses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  TRACK_NOT_FOUND: 404,
  NOT_FOUND: 404,
  AUDIO_UNDECODABLE: 422,
  NO_AUDIO_SOURCE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
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
  return {
    status: 500,
    body: { success: false, error: { code: 'INTERNAL', message: 'internal error; it has been logged' } },
  };
}

export function isExpected(error: unknown): boolean {
  return error instanceof AppError && error.code !== 'INTERNAL';
}

/** express.json()'s failures (unreadable or oversized body) as INVALID_ARGUMENT; other errors as they are. */
export function fromBodyParserError(error: unknown): unknown {
  const type = (error as { type?: unknown } | undefined)?.type;
  if (type === 'entity.parse.failed') return new AppError('INVALID_ARGUMENT', 'the request body is not valid JSON');
  if (type === 'entity.too.large') return new AppError('INVALID_ARGUMENT', 'the request body is too large');
  return error;
}
