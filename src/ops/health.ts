import { timingSafeEqual, createHash } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { Metrics } from './metrics';

/** One dependency readiness checks. */
export interface DependencyCheck {
  name: string;
  /**
   * Essential: the node cannot serve without it (the store: API keys and analyses live there),
   * so readiness fails. Otherwise the node serves degraded (a cache miss, no new analyses) and
   * readiness reports it without failing: pulling every node out of a load balancer because
   * Redis is down would also stop the stored analyses Postgres can still serve.
   */
  essential: boolean;
  ping(): Promise<void>;
}

/** A dependency that works but is not complete yet (a library being indexed): reported as it says, not as unreachable. */
export class StillStarting extends Error {}

export interface Readiness {
  status: 'ready' | 'degraded' | 'not ready';
  /** "ok", "unreachable: <why>", or what a dependency still starting says, per dependency. */
  checks: Record<string, string>;
}

/** How long one dependency may take to answer a readiness probe, ms. */
const CHECK_TIMEOUT_MS = 2000;

export async function checkReadiness(checks: readonly DependencyCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
          }),
        ]);
        return { c, error: undefined };
      } catch (error) {
        if (error instanceof StillStarting) return { c, error: error.message, starting: true };
        return { c, error: `unreachable: ${error instanceof Error ? error.message || error.name : String(error)}` };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const out: Record<string, string> = {};
  for (const r of results) out[r.c.name] = r.error ?? 'ok';
  const failed = results.filter((r) => r.error !== undefined);
  const status = failed.some((r) => r.c.essential) ? 'not ready' : failed.length > 0 ? 'degraded' : 'ready';
  return { status, checks: out };
}

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
