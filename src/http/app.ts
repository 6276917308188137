import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Logger as PinoLogger } from 'pino';
import { AppError } from '../core/errors';
import { metricsHandler, readinessHandler, type DependencyCheck } from '../ops/health';
import type { Metrics } from '../ops/metrics';
import { fromBodyParserError, isExpected, toClientError } from './errors';
import { requestLogger } from './request-logger';
import { audioRoutes, type AudioRouteServices } from './rest/audio.routes';
import { openApiDocument, packageVersion } from './rest/openapi';
import { requireApiKey } from './auth';

export interface AppDependencies {
  services: AudioRouteServices;
  logger: PinoLogger;
  /** The /graphql handler (Apollo), when GraphQL is served. */
  graphql?: RequestHandler;
  /** Operations: /readyz, /metrics, request metrics. */
  ops?: AppOps;
  /**
   * Runs before every REST route but the signed artwork: the key check, and the per-key rate
   * limit when there is one (server.ts passes restGate). Default: the key check alone.
   */
  gate?: RequestHandler;
  /** Base URL clients reach the server at, for the OpenAPI document's `servers`. */
  publicUrl?: string;
}

export interface AppOps {
  metrics: Metrics;
  readiness: readonly DependencyCheck[];
  /** METRICS_TOKEN: when set, /metrics wants it as a Bearer token. */
  metricsToken?: string;
}

/** Probes hit these every few seconds: they are not worth a log line each. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);


/** Express assembly: logging with request ids, the REST contract, GraphQL, one error shape. */
export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const metrics = deps.ops?.metrics;
  app.use(
    requestLogger(deps.logger, {
      quietPaths: PROBES,
      ...(metrics ? { observe: (req, res, seconds) => metrics.observeHttp(req, res, seconds) } : {}),
    }),
  );
  const gate = deps.gate ?? requireApiKey(deps.services.apiKeys);

  // The contract's routes first: they are nearly all of the traffic.
  app.use(audioRoutes(deps.services, gate));
  if (deps.graphql) app.use('/graphql', deps.graphql);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Public like the GraphQL schema: it describes the API and holds no data. Built once.
  const openApi = openApiDocument({ version: packageVersion(), serverUrl: deps.publicUrl ?? '/' });
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  if (deps.ops) {
    app.get('/readyz', readinessHandler(deps.ops.readiness));
    app.get('/metrics', metricsHandler(deps.ops.metrics, deps.ops.metricsToken));
  }

  app.use('/api', gate, (req) => {
    throw new AppError('NOT_FOUND', `no such route: ${req.method} ${req.baseUrl}${req.path}`);
  });

  app.use(errorHandler);
  return app;
}

const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const mapped = toClientError(fromBodyParserError(error));
  if (isExpected(error)) req.log.warn({ code: mapped.body.error.code, msg: mapped.body.error.message }, 'request failed');
  else if (mapped.status >= 500) req.log.error({ err: error }, 'unexpected error');
  if (res.headersSent) return;
  if (mapped.status === 401) res.set('WWW-Authenticate', 'Bearer realm="trackgraph"');
  if (mapped.retryAfterS !== undefined) res.set('Retry-After', String(mapped.retryAfterS));
  res.status(mapped.status).json(mapped.body);
};
