import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger as PinoLogger } from 'pino';
import { AppError } from '../core/errors';
import type { DependencyCheck } from '../ops/health';
import { httpObservation, opsRoutes } from './ops.routes';
import type { Metrics } from '../ops/metrics';
import { corsPolicy } from './cors.middleware';
import { dashboardRoutes, defaultDashboardDir } from './dashboard';
import { clientErrorHandler } from './http.errors';
import { installHotPath, type ToExpress } from './hot-path';
import { requestBeginner } from './request-logger';
import { deferHeaders, settleHeaders } from './response.head';
import { API_HEAD, securityHeaderWriter } from './security.headers';
import { refuseMalformedUrls } from './url-encoding.guard';
import { analysisReadHandler, audioRoutes, type AudioRouteServices } from './rest/audio.routes';
import { soundRoutes, type SoundRouteServices } from './rest/sound.routes';
import { openSubsonicRoutes, type OpenSubsonicRouteServices } from './rest/opensubsonic.routes';
import { uploadRoutes } from './rest/upload.routes';
import type { UploadFetcher } from '../uploads/upload.fetcher';
import type { UploadService } from '../uploads/upload.service';
import type { ReanalyseService } from '../analysis/reanalyse.service';
import { adminRoutes } from './rest/admin.routes';
import { keyRoutes, type KeyRouteServices } from './rest/keys.routes';
import { openApiDocument, packageVersion } from './rest/openapi';
import { lazily } from '../core/lazy';
import { webhookRoutes } from './rest/webhooks.routes';
import { spotifyRoutes, type SpotifyRouteServices } from './rest/spotify.routes';
import type { WebhookService } from '../webhooks/webhook.service';

export interface AppDependencies {
  services: AudioRouteServices;
  /** Keys and usage (/api/keys, /api/usage). */
  keys: KeyRouteServices;
  /** Spotify's shape under /v1 (docs/API.md, "Spotify's shape: /v1"); absent, those routes are not served. */
  spotify?: SpotifyRouteServices;
  /** Similar by descriptors or sound, paths and playlists over REST; absent, those routes are not served. */
  sound?: SoundRouteServices;
  /** Uploads (POST /api/audio/analyses); absent, that route is not served. */
  uploads?: UploadService;
  /** With uploads: the URL form of POST /api/audio/analyses ({"url"}); absent, a JSON body is refused (415). */
  uploadFetcher?: UploadFetcher;
  /** The calling key's webhooks (/api/webhooks); absent, those routes are not served. */
  webhooks?: WebhookService;
  /** Re-analysis (/api/admin/reanalyse, admin keys); absent, those routes are not served. */
  reanalyse?: ReanalyseService;
  /** OpenSubsonic's sonicSimilarity under /rest/ (SOURCES=subsonic); absent, /rest/ is not served. */
  openSubsonic?: Omit<OpenSubsonicRouteServices, 'logger'>;
  logger: PinoLogger;
  /** The /graphql handler (Apollo). */
  graphql: RequestHandler;
  /** The same pipeline for a POST, composed into one function (GraphQLEdge.post); absent, POSTs go through `graphql`. */
  graphqlPost?: (toExpress: ToExpress) => RequestHandler;
  /** Operations: /readyz, /metrics, request metrics. */
  ops: AppOps;
  /** Runs before every REST route but the signed artwork: the key check and the per-key rate limit (restGate). */
  gate: RequestHandler;
  /** Base URL clients reach the server at, for the OpenAPI document's `servers`. */
  publicUrl?: string;
  /** Browser origins allowed to call the API (CORS_ORIGINS); none when empty or absent. */
  corsOrigins?: readonly string[];
  /** Apollo Sandbox is served at /graphql?sandbox (GRAPHQL_SANDBOX): its page gets its own policy. */
  sandbox?: boolean;
  /** The built web dashboard served at / (default: web/dist of this package). */
  dashboardDir?: string;
}

export interface AppOps {
  metrics: Metrics;
  readiness: readonly DependencyCheck[];
  /** METRICS_TOKEN: when set, /metrics wants it as a Bearer token. */
  metricsToken?: string;
}

/** Probes hit these every few seconds: they are not worth a log line each. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

const OPENAPI_PATH = '/api/openapi.json';
/** The /api paths that need no key. */
const PUBLIC_API = new Set([OPENAPI_PATH]);

/** Express assembly: logging with request ids, the REST contract, GraphQL, the web dashboard, one error shape. */
export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // The per-request work every answer gets, in this order, as one layer: security headers (first,
  // so error answers carry them too), the request id, log line and metrics, CORS (before anything
  // that asks for a key: a browser's preflight never carries one).
  const writeSecurityHeaders = securityHeaderWriter({ sandbox: deps.sandbox ?? false });
  const { metrics } = deps.ops;
  const beginRequest = requestBeginner(deps.logger, { quietPaths: PROBES, observe: (req, res, seconds) => metrics.observeHttp(httpObservation(req, res, seconds)) });
  const cors = corsPolicy(deps.corsOrigins ?? []);
  app.use((req, res, next) => {
    writeSecurityHeaders(req, res);
    beginRequest(req, res);
    if (cors) cors(req, res, next);
    else next();
  });
  // The same work for the hot path's requests, which are API answers (hot-path.ts).
  // Their headers are gathered and written at once (response.head.ts); CORS sets and reads its own.
  const beginApi = (req: Request, res: Response, next: NextFunction): void => {
    deferHeaders(res, API_HEAD);
    beginRequest(req, res);
    if (cors) {
      settleHeaders(res);
      cors(req, res, next);
    } else next();
  };
  const analysisRead = analysisReadHandler(deps.services.analysis);

  // Before the routes: their parameter decoding would fail on such a URL before any key check.
  app.use('/api', refuseMalformedUrls(deps.gate, (path) => PUBLIC_API.has(path)));
  // The contract's routes first: they are nearly all of the traffic.
  app.use(audioRoutes(deps.services, deps.gate, analysisRead));
  if (deps.uploads) app.use(uploadRoutes(deps.uploads, deps.gate, deps.uploadFetcher));
  app.use(keyRoutes(deps.keys, deps.gate));
  if (deps.spotify) app.use(spotifyRoutes(deps.spotify, deps.gate, deps.publicUrl));
  if (deps.sound) app.use(soundRoutes(deps.sound, deps.gate));
  app.use('/graphql', deps.graphql);
  // After GraphQL, which the webhook routes would otherwise have every request tested against.
  if (deps.webhooks) app.use(webhookRoutes(deps.webhooks, deps.gate));
  if (deps.reanalyse) app.use(adminRoutes({ reanalyse: deps.reanalyse }, deps.gate));
  if (deps.openSubsonic) app.use(openSubsonicRoutes({ ...deps.openSubsonic, logger: deps.logger }, deps.gate));

  // Public like the GraphQL schema: it describes the API and holds no data. Built once, when
  // first asked for (about 0.1 s of CPU a start would otherwise pay).
  const openApi = lazily(() => openApiDocument({ version: packageVersion(), serverUrl: deps.publicUrl ?? '/' }));
  app.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApi());
  });
  app.use(opsRoutes({ readiness: deps.ops.readiness, metrics, metricsToken: deps.ops.metricsToken }));

  app.use('/api', deps.gate, (req) => {
    throw new AppError('NOT_FOUND', `no such route: ${req.method} ${req.baseUrl}${req.path}`);
  });
  // Last: every path the API does not own is the dashboard's.
  app.use(dashboardRoutes(deps.dashboardDir ?? defaultDashboardDir()));

  app.use(errorHandler);
  installHotPath(app, { begin: beginApi, gate: deps.gate, analysisRead, restErrors: errorHandler, ...(deps.graphqlPost ? { graphqlPost: deps.graphqlPost } : {}) });
  return app;
}

/** REST failures in the contract's shape: `{success: false, error: {code, message}}`. */
const errorHandler = clientErrorHandler({ body: (body) => body, logMessage: 'request failed' });
