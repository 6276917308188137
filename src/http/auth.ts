import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { requireAdmin, type ApiKeyService, type Principal } from '../auth/api-keys';
import { AppError } from '../core/errors';
import { refusal, type ApiRateLimiter } from '../ops/rate-limit';
import { setRateLimitHeaders } from './ops.routes';

/** The scheme name is case-insensitive and followed by one or more spaces (RFC 9110 §11.1, §11.4). */
const BEARER = /^Bearer +([\x21-\x7e]{1,512})$/i;

/** The key of an Authorization header, or an UNAUTHENTICATED error saying what is wrong with it. */
export function bearerKey(header: string | undefined): string {
  if (!header) throw new AppError('UNAUTHENTICATED', 'missing Authorization header; send "Authorization: Bearer <API key>"');
  const m = BEARER.exec(header.trim());
  if (!m) throw new AppError('UNAUTHENTICATED', 'malformed Authorization header; expected "Bearer <API key>"');
  return m[1]!;
}

/**
 * The Bearer key of a request checked (and counted), or an UNAUTHENTICATED error; the keys are
 * read again first if stale. Also the check of a WebSocket's connection_init payload.
 */
export async function authenticate(header: string | undefined, keys: ApiKeyService): Promise<Principal> {
  const key = bearerKey(header);
  await keys.ensureFresh();
  return keys.authenticate(key);
}

/**
 * Calls `then` with the request's principal, or `next` with UNAUTHENTICATED (unknown, revoked
 * or expired key). Synchronous while the loaded keys are fresh (nearly every request: no
 * promise, no extra tick, no database read); after the refresh interval it waits for the keys
 * to be read again.
 */
export function withPrincipal(req: Request, keys: ApiKeyService, next: NextFunction, then: (principal: Principal) => void): void {
  const header = req.headers.authorization;
  if (keys.stale()) {
    authenticate(header, keys).then(then, next);
    return;
  }
  let principal: Principal;
  try {
    principal = keys.authenticate(bearerKey(header));
  } catch (error) {
    next(error);
    return;
  }
  then(principal);
}

/** Express middleware after the gate: FORBIDDEN unless the request's key has the admin scope. */
export function adminOnly(what: string): RequestHandler {
  return (_req, res, next) => {
    requireAdmin(res.locals.principal as Principal | undefined, what);
    next();
  };
}

/**
 * Express middleware: sets res.locals.principal or passes UNAUTHENTICATED to the error handler.
 * Requests `exempt` says need no key pass without one.
 */
export function requireApiKey(keys: ApiKeyService, exempt?: (req: Request) => boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.principal || exempt?.(req)) {
      next();
      return;
    }
    withPrincipal(req, keys, next, (principal) => {
      res.locals.principal = principal;
      next();
    });
  };
}

/**
 * The REST gate, run before a route: the Bearer key is checked (UNAUTHENTICATED without a valid
 * one) and one point is charged to it (RATE_LIMITED past the limit), with the RateLimit-* headers
 * on the answer. One middleware for both keeps a request to one key verification and one pass
 * through the router for its edge work.
 */
export function restGate(limiter: ApiRateLimiter, keys: ApiKeyService, onRefused?: () => void): RequestHandler {
  return (req, res, next) => {
    withPrincipal(req, keys, next, (principal) => {
      res.locals.principal = principal;
      limiter.consume(principal.id, 1).then((decision) => {
        setRateLimitHeaders(res, decision);
        if (decision.allowed) next();
        else {
          onRefused?.();
          next(new AppError('RATE_LIMITED', refusal(decision), { retryAfterS: decision.resetS }));
        }
      }, next);
    });
  };
}
