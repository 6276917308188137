/**
 * Protocol-neutral error codes. Each edge (REST, GraphQL, CLI) maps them once:
 * see src/http/http.errors.ts for the HTTP status and GraphQL extensions.code.
 */
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'TRACK_NOT_FOUND',
  'NOT_FOUND',
  'AUDIO_UNDECODABLE',
  'UNSUPPORTED_MEDIA',
  'PAYLOAD_TOO_LARGE',
  'URL_REFUSED',
  'URL_UNREACHABLE',
  'NO_AUDIO_SOURCE',
  'RATE_LIMITED',
  'UPLOAD_QUOTA_EXCEEDED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_INVALID',
  'UPSTREAM_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'ANALYSIS_TIMEOUT',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * An expected, operational failure whose message is safe to show to a client.
 * Anything thrown that is not an AppError is a programmer error and is masked as INTERNAL.
 */
export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterS?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterS = options?.retryAfterS;
  }

  /** Seconds after which a retry may succeed (RATE_LIMITED, UPLOAD_QUOTA_EXCEEDED, SERVICE_UNAVAILABLE). */
  readonly retryAfterS: number | undefined;
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The one way to refuse a client's input (the edges map it to 400 and BAD_USER_INPUT). */
export const invalidArgument = (message: string, options?: { cause?: unknown }): AppError => new AppError('INVALID_ARGUMENT', message, options);

/** What a client is told of an unexpected error (REST, GraphQL): nothing but that it happened; the log has the rest. */
export const INTERNAL_MESSAGE = 'internal error; it has been logged';

/** What a failed analysis tells its requests: an AppError's code and message, anything else masked. */
export const ANALYSIS_FAILED_MESSAGE = 'the analysis failed; it has been logged';

/**
 * The one masking rule: the code and message of an error as clients may see them, an
 * AppError's own, anything else (and INTERNAL) as `internal`. Every edge (REST, GraphQL, the
 * engine's threads, the CLIs, job failures, webhooks) shows errors through it.
 */
export function shownError(error: unknown, internal: string = INTERNAL_MESSAGE): { code: ErrorCode; message: string } {
  return error instanceof AppError && error.code !== 'INTERNAL' ? { code: error.code, message: error.message } : { code: 'INTERNAL', message: internal };
}
