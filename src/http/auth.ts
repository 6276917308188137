import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ApiKeyService, Principal } from '../auth/api-keys';
import { AppError } from '../core/errors';

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

/** The Bearer key of a request, or an UNAUTHENTICATED error saying what is wrong with it. */
export async function authenticate(header: string | undefined, keys: ApiKeyService): Promise<Principal> {
  if (!header) throw new AppError('UNAUTHENTICATED', 'missing Authorization header; send "Authorization: Bearer <API key>"');
  const m = BEARER.exec(header.trim());
  if (!m) throw new AppError('UNAUTHENTICATED', 'malformed Authorization header; expected "Bearer <API key>"');
  const principal = await keys.verify(m[1]!);
  if (!principal) throw new AppError('UNAUTHENTICATED', 'unknown or revoked API key');
  return principal;
}

/**
 * Express middleware: sets res.locals.principal or passes UNAUTHENTICATED to the error handler.
 * A principal already set by an earlier middleware of this request (the rate limiter) is kept;
 * requests `exempt` says need no key pass without one.
 */
export function requireApiKey(keys: ApiKeyService, exempt?: (req: Request) => boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.principal || exempt?.(req)) {
      next();
      return;
    }
    authenticate(req.get('authorization'), keys).then(
      (principal) => {
        res.locals.principal = principal;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
