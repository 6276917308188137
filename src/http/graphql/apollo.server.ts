import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';
import type { Logger as PinoLogger } from 'pino';
import type { AnalysisService } from '../../analysis/analysis.service';
import type { BrowseService } from '../../analysis/browse.service';
import type { AnalysisEvents } from '../../analysis/events/analysis-events.channel';
import type { RecommendationsService } from '../../analysis/recommendations.service';
import type { PlaylistService } from '../../analysis/playlists.service';
import type { SoundService } from '../../analysis/sound.service';
import type { SoundMapService } from '../../analysis/sound-map.service';
import type { ApiKeyService, Principal } from '../../auth/api-keys';
import { ANALYSIS_REPLACED } from '../../core/analysis-events';
import { invalidArgument } from '../../core/errors';
import type { GraphQLCharges } from '../../ops/rate-limit';
import type { SearchService } from '../../search/search.service';
import type { UsageService } from '../../usage/usage.service';
import type { UploadFetcher } from '../../uploads/upload.fetcher';
import type { UploadService } from '../../uploads/upload.service';
import type { WebhookService } from '../../webhooks/webhook.service';
import { requireApiKey } from '../auth';
import { clientErrorHandler } from '../http.errors';
import type { ToExpress } from '../hot-path';
import { composeMiddleware } from '../middleware.compose';
import { createContext, type GraphQLContext } from './graphql.context';
import { graphqlMultipart } from './graphql.multipart';
import { errorLoggingPlugin, formatGraphQLError } from './graphql.errors';
import { costLimitPlugin } from './graphql.cost';
import { documentLimits, graphqlResponseType, type DocumentLimits } from './graphql.limits';
import { knownOperationTypesRule, operationResolutionPlugin } from './graphql.operations';
import { graphQLSchema, resolverInstances } from './graphql.schema';
import { asksForSandbox, landingPageHandler } from './landing.page';
import { immutableResponseCachePlugin } from './response.cache';
import { GraphQLEdgeCache } from './edge.cache';
import { graphqlRateLimitPlugin } from './rate-limit.plugin';
import { graphqlBody } from './graphql.body';
import { addHeader } from '../response.head';

export interface GraphQLServices {
  search: SearchService;
  /** Serves tracks and similar; absent, they fail (tests of other fields build the edge without it). */
  browse?: BrowseService;
  /** Serves similar by SOUND and soundPath; absent, they fail. */
  sound?: SoundService;
  /** Serves soundMap; absent, it fails. */
  soundMap?: SoundMapService;
  /** Serves recommendations; absent, it fails. */
  recommendations?: RecommendationsService;
  analysis: AnalysisService;
  apiKeys: ApiKeyService;
  /** Serves usage; absent, it fails (tests of other fields build the edge without it). */
  usage?: UsageService;
  /** Serves the webhook fields; absent, they fail (tests of other fields). */
  webhooks?: WebhookService;
  /** Serves analyseUpload (multipart requests, files written to `dir`) and analyseUrl; absent, they fail and multipart requests are not read. */
  uploads?: { service: UploadService; fetcher: UploadFetcher; dir: string };
  /** Serves savePlaylist; absent, it fails (tests of other fields). */
  playlists?: PlaylistService;
}

export interface GraphQLOptions {
  /** Serve Apollo Sandbox to browsers at GET /graphql?sandbox, and link it from the landing page (GRAPHQL_SANDBOX). */
  sandbox: boolean;
  /** Shape of a document (GRAPHQL_MAX_TOKENS, _DEPTH, _SELECTIONS, _ALIASES, _DIRECTIVES), checked before validation. */
  limits: DocumentLimits & { maxBatch: number };
  /** GRAPHQL_MAX_COST */
  maxCost: number;
  /**
   * More plugins. They run after the limits and the rate limit: when their
   * didResolveOperation starts, `contextValue.cost` already holds the operation's cost.
   */
  plugins?: ApolloServerPlugin<GraphQLContext>[];
  /** Analyses kept in complete answers of repeated documents (0: no response caches). */
  responseCacheAnalyses?: number;
  /**
   * The rate limit's charges: Apollo's operations (through the rate-limit plugin) and the edge
   * cache's answers; absent, nothing is charged.
   */
  charges?: GraphQLCharges;
  /** The analysis events: a replaced analysis empties the response caches (absent: nothing is replaced). */
  events?: AnalysisEvents;
}

/** Request bodies past this (100 KiB) are refused unread. */
const MAX_BODY_BYTES = 100 * 1024;

/** About 1 KB each: 10 MB of answers. */
const DEFAULT_RESPONSE_CACHE_ANALYSES = 10_000;
/** The edge cache's bound in bytes (keys and bodies) per analysis of the plugin's bound: 20 MB by default. */
const EDGE_BYTES_PER_ANALYSIS = 2048;

export interface GraphQLEdge {
  /** Mount at /graphql: authentication, JSON body, Apollo. */
  handler: Router;
  /**
   * What `handler` does with a POST (the landing page is for GETs), as one composed function for
   * the app's hot path: the same middleware in the same order, without the router's matching,
   * `toExpress` giving the request Express's API before the steps that need it.
   */
  post: (toExpress: ToExpress) => RequestHandler;
  server: ApolloServer<GraphQLContext>;
  /** The executable schema Apollo runs (subscriptions run on it too). */
  schema: GraphQLSchema;
  /** This app's resolver instances, which every operation's context carries. */
  resolvers: ContainerType;
  stop(): Promise<void>;
}

/**
 * What Sandbox opens with: a search, the analysis of a key it returns, and the subscription that
 * sends it once stored (over WebSocket: the key goes in the connection settings' headers).
 */
const SANDBOX_DOCUMENT = `query Search {
  search(track: "Money", artist: "Pink Floyd", limit: 3) { trackName artist trackKey match_score }
}

query Analysis {
  analysis(trackKey: "bc24aaa5a97c70ed") { trackName tempo keyString energy mood { happy sad relaxed aggressive } }
}

subscription Completed {
  analysisCompleted(trackKeys: ["bc24aaa5a97c70ed"]) { trackName tempo keyString }
}
`;

/** Body of 4xx/5xx answers given before Apollo runs, shaped as a GraphQL response. */
function errorBody(code: string, message: string): { errors: { message: string; extensions: { code: string } }[] } {
  return { errors: [{ message, extensions: { code } }] };
}

/**
 * The GraphQL edge: one Apollo server over the process's schema and this app's resolvers, behind the
 * same Bearer authentication as REST. A document passes the document limits (graphql.limits.ts)
 * before Apollo parses it, and the cost limit once its variables are known.
 *
 * CSRF: Apollo's csrfPrevention stays on. A GET query (or a POST that is not JSON) must carry
 * `apollo-require-preflight: true` or a `Content-Type: application/json` header, else it is
 * refused with 400; clients sending JSON POSTs (all GraphQL clients) are unaffected. A
 * multipart request (a file upload) needs the preflighted header too, checked before its body
 * is read (graphql.multipart.ts).
 */
export async function createGraphQL(services: GraphQLServices, options: GraphQLOptions, logger: PinoLogger): Promise<GraphQLEdge> {
  const responseCacheAnalyses = options.responseCacheAnalyses ?? DEFAULT_RESPONSE_CACHE_ANALYSES;
  const responseCache = responseCacheAnalyses > 0 ? immutableResponseCachePlugin(responseCacheAnalyses) : undefined;
  const schema = graphQLSchema();
  const resolvers = resolverInstances({
    search: services.search,
    ...(services.browse ? { browse: services.browse } : {}),
    ...(services.sound ? { sound: services.sound } : {}),
    ...(services.soundMap ? { soundMap: services.soundMap } : {}),
    ...(services.recommendations ? { recommendations: services.recommendations } : {}),
    ...(services.usage ? { keys: { apiKeys: services.apiKeys, usage: services.usage } } : {}),
    ...(services.webhooks ? { webhooks: services.webhooks } : {}),
    ...(services.uploads ? { uploads: { service: services.uploads.service, fetcher: services.uploads.fetcher } } : {}),
    ...(services.playlists ? { playlists: services.playlists } : {}),
  });
  const server = new ApolloServer<GraphQLContext>({
    schema,
    // The schema is public (schema/schema.graphql) and Sandbox needs it; every request is authenticated anyway.
    introspection: true,
    csrfPrevention: true,
    // Apollo's BatchHttpLink sends several operations as one JSON array; the document limits
    // bound the array and check each operation, and every plugin (cost, rate limit) runs per operation.
    allowBatchedHttpRequests: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns the process's signals and stops this server through stop().
    stopOnTerminationSignals: false,
    // Documents reach Apollo through the document limits, which parsed them with the same bound.
    parseOptions: { maxTokens: options.limits.maxTokens },
    validationRules: [knownOperationTypesRule],
    formatError: formatGraphQLError,
    logger: logger.child({ component: 'apollo' }),
    plugins: [
      options.sandbox
        ? ApolloServerPluginLandingPageLocalDefault({
            includeCookies: false,
            // Sandbox must send the key too: the header is there to fill in, not a key.
            embed: { runTelemetry: false, initialState: { sharedHeaders: { Authorization: 'Bearer <API key>' } } },
            document: SANDBOX_DOCUMENT,
          })
        : ApolloServerPluginLandingPageDisabled(),
      // First among the request hooks, in this order: a request without an operation is refused,
      // then the cost is set on contextValue synchronously (Apollo starts every plugin's
      // didResolveOperation in this order, and the later ones read it).
      operationResolutionPlugin(),
      costLimitPlugin(options.maxCost),
      errorLoggingPlugin(),
      // Apollo installs cache control by default, wrapping every field's resolver to compute
      // cache hints nothing here sends; it cost about 2% of a request's CPU.
      ApolloServerPluginCacheControlDisabled(),
      ...(responseCache ? [responseCache.plugin] : []),
      ...(options.charges ? [graphqlRateLimitPlugin(options.charges)] : []),
      ...(options.plugins ?? []),
    ],
  });
  await server.start();

  const edge = responseCacheAnalyses > 0 ? new GraphQLEdgeCache(responseCacheAnalyses * EDGE_BYTES_PER_ANALYSIS, options.charges) : undefined;
  // A replaced analysis (re-analysis, in this process or another) is in some kept answers: all go.
  const unsubscribe = options.events?.subscribe((event) => {
    if (event.type !== ANALYSIS_REPLACED) return;
    responseCache?.clear();
    edge?.clear();
  });
  // A browser opening /graphql gets the page that links to GraphiQL (this server's) and, when
  // it is on, Apollo Sandbox (/graphql?sandbox, Apollo's landing page from its CDN).
  const landing = landingPageHandler({ sandbox: options.sandbox });
  const landingPage: RequestHandler = (req, res, next) => (wantsLandingPage(req) && !(options.sandbox && asksForSandbox(req)) ? landing(req, res, next) : next());
  // Every answer is for one key, and some hold a key or a webhook's signing secret (the create
  // mutations): no cache keeps them, as the REST answers about keys and webhooks say too.
  const noStore: RequestHandler = (_req, res, next) => {
    addHeader(res, 'Cache-Control', 'no-store');
    next();
  };
  // Multipart requests (file uploads) become the JSON body they carry, their files on disk; a
  // preflighted header is required first (CSRF), before a byte of a file is read.
  const multipart = services.uploads ? [graphqlMultipart({ dir: services.uploads.dir, maxBytes: services.uploads.service.maxBytes, maxFieldBytes: MAX_BODY_BYTES })] : [];
  // Express 5 parses no body by itself, and Apollo needs req.body. The edge cache looks the
  // raw body up before it is parsed (graphql.body.ts).
  const json = express.json({ limit: MAX_BODY_BYTES, ...(edge ? { verify: (req, res, buf) => GraphQLEdgeCache.keepRawBody(req, res, buf) } : {}) });
  const body = graphqlBody({ limit: MAX_BODY_BYTES, json, ...(edge ? { edge } : {}) });
  // After the edge cache: a byte-identical repeat of a complete answer passed these limits before.
  const limits = documentLimits(options.limits);
  // A browser opening Sandbox gets the page, whatever else the URL holds.
  const documentChecks: RequestHandler = (req, res, next) => (options.sandbox && wantsLandingPage(req) ? next() : limits(req, res, next));
  const apollo = expressMiddleware(server, {
    context: ({ req, res }) => {
      const principal = res.locals.principal as Principal | undefined;
      // Only a request taken for Sandbox's page arrives without a principal; if Apollo sees
      // an operation in it after all, it is refused here.
      if (!principal) {
        return Promise.reject(
          new GraphQLError('missing Authorization header; send "Authorization: Bearer <API key>"', {
            extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers: new Map([['www-authenticate', 'Bearer realm="trackgraph"']]) } },
          }),
        );
      }
      return Promise.resolve(
        createContext({
          principal,
          analysis: services.analysis,
          log: req.log,
          resolvers,
          charged: GraphQLEdgeCache.charged(res),
          edge: edge?.recorder(res),
        }),
      );
    },
  });
  // After the landing page (a GET only), every request's pipeline.
  const keyCheck = requireKey(services.apiKeys, options.sandbox);
  const pipeline: RequestHandler[] = [noStore, keyCheck, ...multipart, body, documentChecks, apollo];

  const router = Router();
  router.use(landingPage);
  for (const handler of pipeline) router.use(handler);
  router.use(graphqlErrorHandler);

  // The hot path (hot-path.ts) runs a POST on Node's objects up to the edge cache, and gives it
  // Express's API before the document checks and Apollo's integration, which use it.
  const post = (toExpress: ToExpress): RequestHandler => {
    const expressApi: RequestHandler = (req, res, next) => {
      toExpress(req, res);
      next();
    };
    const onError: ErrorRequestHandler = (error, req, res, next) => {
      toExpress(req, res);
      graphqlErrorHandler(error, req, res, next);
    };
    return composeMiddleware([noStore, keyCheck, ...multipart, body, expressApi, documentChecks, apollo], onError);
  };

  return {
    handler: router,
    post,
    server,
    schema,
    resolvers,
    stop: () => {
      unsubscribe?.();
      return server.stop();
    },
  };
}

/** Does Apollo take this request for the landing page? (Its own test: a GET preferring HTML to JSON.) */
function wantsLandingPage(req: Request): boolean {
  return req.method === 'GET' && req.accepts(['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html']) === 'text/html';
}

/** Every /graphql request needs a valid Bearer key, except a browser opening the Sandbox page (the landing page is answered before). */
function requireKey(keys: ApiKeyService, sandbox: boolean): RequestHandler {
  return requireApiKey(keys, (req) => sandbox && wantsLandingPage(req));
}

/**
 * Errors raised before Apollo runs (authentication, an unreadable body), answered in the
 * GraphQL response shape with REST's status, code and message for the same failure.
 */
const answerError = clientErrorHandler({
  body: (e) => errorBody(e.error.code, e.error.message),
  logMessage: 'request refused',
});

/**
 * As Apollo answers: application/graphql-response+json to a client that prefers it (Apollo
 * Client 4 does, and reads the error code of a 401 only from that type), else application/json.
 * res.json() keeps a Content-Type already set.
 */
const graphqlErrorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (!res.headersSent) res.type(graphqlResponseType((types) => req.accepts(types)));
  answerError(unreadableBody(error), req, res, next);
};

/**
 * Before Apollo, only express.json() throws errors other than AppErrors. Besides the unreadable
 * and oversized bodies REST's handler knows, it refuses an unsupported Content-Encoding or
 * charset, a body that does not inflate, an aborted upload: client errors it marks safe to
 * show (4xx, expose), answered 400 INVALID_ARGUMENT instead of 500.
 */
function unreadableBody(error: unknown): unknown {
  const e = error as { type?: unknown; status?: unknown; expose?: unknown; message?: unknown } | undefined;
  if (e?.type === 'entity.parse.failed' || e?.type === 'entity.too.large') return error;
  if (e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && typeof e.message === 'string') {
    return invalidArgument(`the request body could not be read: ${e.message}`);
  }
  return error;
}
