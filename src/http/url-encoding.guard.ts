import type { RequestHandler } from 'express';
import { invalidArgument } from '../core/errors';

/**
 * Why a raw request target is not valid percent-encoded UTF-8 (RFC 3986 escapes, RFC 3629 bytes:
 * no stray '%', no overlong forms, no surrogates, no cut sequences); undefined when it is.
 * decodeURIComponent applies exactly those rules. Node's query parser would otherwise turn such
 * bytes into U+FFFD or keep '%zz' literally, and the router's parameter decoding throws.
 */
export function percentEncodingProblem(target: string): string | undefined {
  if (!target.includes('%')) return undefined;
  try {
    decodeURIComponent(target);
    return undefined;
  } catch {
    return 'the URL is not valid percent-encoded UTF-8: each % must be followed by two hexadecimal digits, and the bytes they spell must be UTF-8';
  }
}

/**
 * Refuses a request whose URL is not valid percent-encoded UTF-8 with INVALID_ARGUMENT, after
 * `gate` (so a request without a valid key learns only that it needs one, as on any other
 * route); paths `isPublic` names need no key and are refused at once. Runs before the routes,
 * whose parameter decoding would otherwise fail first.
 */
export function refuseMalformedUrls(gate: RequestHandler, isPublic: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    const problem = percentEncodingProblem(req.originalUrl);
    if (problem === undefined) {
      next();
      return;
    }
    const refuse = invalidArgument(problem);
    if (isPublic(req.originalUrl.split('?')[0] ?? '')) {
      next(refuse);
      return;
    }
    gate(req, res, (error?: unknown) => next(error ?? refuse));
  };
}
