import { BrokenCircuitError, TaskCancelledError } from 'cockatiel';
import { AppError } from '../../core/errors';

export type SourceFailureKind =
  /** A non-2xx answer. */
  | 'status'
  /** No answer at all: refused, reset, DNS. */
  | 'network'
  /** An answer that is not the JSON the source documents. */
  | 'malformed'
  /** The source says we asked too often (429, Deezer's error code 4). */
  | 'quota'
  /** A redirect chain we refuse to follow (too many hops). */
  | 'unsafe'
  /**
   * An answer outside what a source may send: a JSON body over SOURCE_MAX_JSON_BYTES, a URL from
   * its data that is not http(s) or leads to a non-public address. Content, not an outage.
   */
  | 'invalid'
  /** An audio download larger than allowed. */
  | 'too-large'
  /** A download whose content-type is not audio. */
  | 'content-type';

/**
 * One failed HTTP exchange with a source, before it is turned into an AppError. `retryable`
 * drives the retry policy, `fault` the circuit breaker: a 404 or a refused content-type is the
 * source answering, not the source being down.
 */
export class SourceHttpError extends Error {
  override readonly name = 'SourceHttpError';
  readonly kind: SourceFailureKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly fault: boolean;
  /** From Retry-After, when the source sent one. */
  readonly retryAfterMs: number | undefined;
  /** The parsed error body, when it was JSON (another server of this contract explains itself). */
  readonly body: unknown;

  constructor(
    message: string,
    details: {
      kind: SourceFailureKind;
      status?: number;
      retryable: boolean;
      fault: boolean;
      retryAfterMs?: number;
      body?: unknown;
      cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.status = details.status;
    this.retryable = details.retryable;
    this.fault = details.fault;
    this.retryAfterMs = details.retryAfterMs;
    this.body = details.body;
  }
}

export const isSourceHttpError = (error: unknown): error is SourceHttpError => error instanceof SourceHttpError;

/** The HTTP status behind an error from a source client, if it came from one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (isSourceHttpError(error)) return error.status;
  if (error instanceof AppError && isSourceHttpError(error.cause)) return error.cause.status;
  return undefined;
}

/**
 * The AppError a caller sees for a failure of source `name`. Messages name the source and
 * never echo headers (an upstream API key travels in one).
 */
export function toAppError(name: string, error: unknown, quotaRetryAfterS = 5): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof BrokenCircuitError) {
    return new AppError('UPSTREAM_UNAVAILABLE', `source ${name} is unavailable (circuit open after failures); try again later`, {
      cause: error,
    });
  }
  if (error instanceof TaskCancelledError) {
    return new AppError('UPSTREAM_TIMEOUT', `source ${name} did not answer in time`, { cause: error });
  }
  if (isSourceHttpError(error)) {
    const retryAfterS = error.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    switch (error.kind) {
      case 'quota':
        return new AppError('RATE_LIMITED', `source ${name} is rate limiting us; try again later`, {
          cause: error,
          retryAfterS: retryAfterS ?? quotaRetryAfterS,
        });
      case 'too-large':
      case 'content-type':
        return new AppError('AUDIO_UNDECODABLE', `source ${name}: ${error.message}`, { cause: error });
      case 'invalid':
        return new AppError('UPSTREAM_INVALID', `source ${name}: ${error.message}`, { cause: error });
      default:
        return new AppError('UPSTREAM_UNAVAILABLE', `source ${name}: ${error.message}`, {
          cause: error,
          ...(retryAfterS !== undefined ? { retryAfterS } : {}),
        });
    }
  }
  return new AppError('UPSTREAM_UNAVAILABLE', `source ${name} failed`, { cause: error });
}
