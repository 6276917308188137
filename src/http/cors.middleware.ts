import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import cors from 'cors';

/** What a page on an allowed origin may send: the key, JSON bodies, Apollo's CSRF header and client names, a request id, a cached tag. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'apollo-require-preflight',
  'apollographql-client-name',
  'apollographql-client-version',
  'X-Request-Id',
  'If-None-Match',
];

/** What such a page may read besides the safelisted headers: tracing, caching, rate limits, the auth challenge. */
const EXPOSED_HEADERS = ['X-Request-Id', 'ETag', 'Retry-After', 'Link', 'Trackgraph-Failed-Sources', 'Trackgraph-Engine', 'Trackgraph-Analysis-Method', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'WWW-Authenticate'];

/** Browsers cache a preflight this long, seconds (Chromium caps it at 2 h). */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Cross-origin access for browser apps on `origins` (CORS_ORIGINS; `*` for any). Runs before
 * authentication: a browser's preflight carries no key, and is answered here with 204. The
 * allowed origin is echoed, never `*`, and no credentials are allowed (the API reads a Bearer
 * header, not cookies). Another origin gets no CORS headers at all, so its browser keeps the
 * answer from the page. Undefined when no origin is allowed: nothing to add.
 */
export function corsPolicy(origins: readonly string[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const handler = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && (any || allowed.has(origin)) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
  return (req, res, next) => {
    // Answers differ by Origin (with or without CORS headers): caches must key them by it.
    varyByOrigin(res);
    handler(req, res, next);
  };
}

/**
 * Adds Origin to the Vary header, as Express's res.vary does, through Node's response API only
 * (the hot path runs this on a request Express has not dressed with its API).
 */
function varyByOrigin(res: ServerResponse): void {
  const current = res.getHeader('Vary');
  const value = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (value.trim() === '*') return;
  if (value.split(',').some((field) => field.trim().toLowerCase() === 'origin')) return;
  res.setHeader('Vary', value.trim() === '' ? 'Origin' : `${value}, Origin`);
}
