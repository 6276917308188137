import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { HttpObservation } from '../core/observers';
import { checkReadiness, type DependencyCheck } from '../ops/health';
import type { Metrics } from '../ops/metrics';
import { eachRateLimitHeader, type RateLimitDecision } from '../ops/rate-limit';
import { addHeader } from './response.head';

/** GET /readyz: 200 when ready or degraded (the body says which dependency is missing), 503 when not ready. */
export function readinessHandler(checks: readonly DependencyCheck[]): RequestHandler {
  return (_req, res, next) => {
    checkReadiness(checks).then((r) => {
      res.status(r.status === 'not ready' ? 503 : 200).set('Cache-Control', 'no-store').json(r);
    }, next);
  };
}

/**
 * GET /metrics in Prometheus' text format. With METRICS_TOKEN set it wants that Bearer token;
 * without, it is open (it shows no keys and no track data) and should be kept off the public
 * network by the deployment (see docs/DEPLOY.md).
 */
export function metricsHandler(metrics: Metrics, token?: string): RequestHandler {
  const expected = token ? createHash('sha256').update(`Bearer ${token}`).digest() : undefined;
  return (req, res, next) => {
    if (expected) {
      const given = createHash('sha256').update(req.get('authorization') ?? '').digest();
      if (!timingSafeEqual(given, expected)) {
        res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').type('text/plain').send('metrics need the METRICS_TOKEN bearer token\n');
        return;
      }
    }
    metrics.render().then(({ contentType, body }) => {
      res.set('Content-Type', contentType).set('Cache-Control', 'no-store').send(body);
    }, next);
  };
}

/**
 * The operations endpoints of a process: /healthz (liveness), /readyz (its dependencies) and
 * /metrics (Prometheus; with METRICS_TOKEN it wants that Bearer token). API nodes and workers
 * (WORKER_PORT) mount the same router.
 */
export function opsRoutes(options: { readiness: readonly DependencyCheck[]; metrics: Metrics; metricsToken?: string | undefined }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', readinessHandler(options.readiness));
  router.get('/metrics', metricsHandler(options.metrics, options.metricsToken));
  return router;
}

/** A finished request as the request metrics label it. */
export function httpObservation(req: Request, res: Response, seconds: number): HttpObservation {
  return { method: req.method, route: routeOf(req), status: res.statusCode, seconds };
}

/** The route template of a request (never its raw path: keys in paths would explode the labels). */
function routeOf(req: { originalUrl?: string; url?: string; route?: { path?: unknown } }): string {
  // Routes are registered with their full paths (no mount prefix to add back).
  const template = req.route?.path;
  if (typeof template === 'string') return template;
  // originalUrl is Express's; a request answered on the hot path (hot-path.ts) has only Node's url.
  const target = req.originalUrl ?? req.url ?? '';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (path === '/graphql' || path.startsWith('/graphql/')) return '/graphql';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return path;
  return 'unmatched';
}

/** Sets (or gathers: response.head.ts) the RateLimit-* headers of a decision on a response (REST, and GraphQL answers given before Apollo). */
export function setRateLimitHeaders(res: Response, d: RateLimitDecision): void {
  eachRateLimitHeader(d, (name, value) => addHeader(res, name, value));
}
