import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { ANALYSIS_ROUTE, type AnalysisHandler } from './rest/audio.routes';
import { settleHeaders } from './response.head';

const ANALYSIS_PREFIX = '/api/audio/analysis/';
/** What the router sets as req.route for that path: the request metrics label by its `path`. */
const ANALYSIS_ROUTE_INFO = Object.freeze({ path: ANALYSIS_ROUTE });

/** Gives a request Express's API (its request and response prototypes), as Express does on entry. */
export type ToExpress = (req: IncomingMessage, res: ServerResponse) => void;

export interface HotRoutes {
  /**
   * The per-request work every answer gets before any route (security headers of an API answer,
   * request id, log line and metrics, CORS), on Node's objects; calls `next` to go on, or not
   * at all when it answered (a CORS preflight).
   */
  begin: (req: Request, res: Response, next: NextFunction) => void;
  /** The REST gate (key check, rate limit), as every REST route runs it. */
  gate: RequestHandler;
  /** GET /api/audio/analysis/{trackKey} after the gate. */
  analysisRead: AnalysisHandler;
  /** REST's error handler (the app's last layer). */
  restErrors: ErrorRequestHandler;
  /** POST /graphql: GraphQL's whole pipeline, composed (GraphQLEdge.post), given Express's API where it needs it. */
  graphqlPost?: (toExpress: ToExpress) => RequestHandler;
}

type Handle = (req: IncomingMessage, res: ServerResponse, callback?: (error?: unknown) => void) => void;

/**
 * Serves the two requests that are nearly all of the traffic — the stored-analysis read and a
 * GraphQL POST — before Express, as Fastify finds a route once and runs hooks composed at
 * start-up. Express, on entry, gives every request and response its own prototypes
 * (Object.setPrototypeOf), which leaves V8 slower on every later property access of both, and
 * then matches the request against each layer: measured on this server, that is more of a
 * request's CPU than all the per-request work of the gateway. These two requests get the same
 * work — security headers, request id and log line, metrics, CORS, key check, rate limit, usage
 * count, the same handlers — on Node's own objects, and are given Express's API only where a
 * step needs it (Apollo's integration on a miss of the edge cache; the error handlers; a 202).
 *
 * Anything unusual about the request — another method, a query string or '%' in the read's URL,
 * a trailing slash, another letter case, a mounted app — goes to Express, whose stack has the
 * same handlers at the same paths and answers it as before.
 */
export function installHotPath(app: Express, routes: HotRoutes): void {
  const target = app as unknown as { handle: Handle; request: object; response: object };
  const expressHandle = target.handle.bind(app);
  const toExpress: ToExpress = (req, res) => {
    // From here on the response is read and written through the API: its gathered headers are set.
    settleHeaders(res);
    if (Object.getPrototypeOf(req) === target.request) return;
    const r = req as Request;
    r.res = res as Response;
    (res as Response).req = r;
    Object.setPrototypeOf(req, target.request);
    Object.setPrototypeOf(res, target.response);
    r.originalUrl ??= r.url;
    r.baseUrl ??= '';
  };
  const { begin, gate, analysisRead, restErrors } = routes;
  const graphqlPost = routes.graphqlPost?.(toExpress);

  /** REST's error answer, given Express's API first; past a sent header, the connection is closed as Express would. */
  const restFailure = (error: unknown, req: Request, res: Response): void => {
    toExpress(req, res);
    restErrors(error, req, res, (unanswered?: unknown) => {
      if (unanswered !== undefined && res.headersSent) req.socket.destroy();
    });
  };

  const read = (req: Request, res: Response): void => {
    gate(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) restFailure(error, req, res);
      else analysisRead(req as Request<{ trackKey: string }>, res).catch((failure: unknown) => restFailure(failure, req, res));
    });
  };

  target.handle = (req, res, callback) => {
    // A mounted app sees relative URLs: Express's own routing knows what to do with them.
    if (callback === undefined) {
      const url = req.url ?? '';
      if (req.method === 'GET' && url.startsWith(ANALYSIS_PREFIX)) {
        const trackKey = url.slice(ANALYSIS_PREFIX.length);
        // '%': the malformed-URL guard and the router's decoding have a say first; '?': the query is Express's to parse.
        if (trackKey.length > 0 && !trackKey.includes('/') && !trackKey.includes('?') && !trackKey.includes('%')) {
          const r = req as Request<{ trackKey: string }>;
          const s = res as Response;
          s.locals ??= Object.create(null) as Response['locals'];
          r.params = { trackKey };
          r.route = ANALYSIS_ROUTE_INFO;
          begin(r, s, () => read(r, s));
          return;
        }
      } else if (graphqlPost !== undefined && req.method === 'POST' && (url === '/graphql' || url.startsWith('/graphql?'))) {
        const r = req as Request;
        const s = res as Response;
        s.locals ??= Object.create(null) as Response['locals'];
        begin(r, s, () =>
          graphqlPost(r, s, (error?: unknown) => {
            // Apollo answers every request that reaches it; an error is the pipeline's error handler's.
            if (error !== undefined && error !== null) restFailure(error, r, s);
            else if (!s.headersSent) restFailure(new Error('GraphQL left a POST unanswered'), r, s);
          }),
        );
        return;
      }
    }
    expressHandle(req, res, callback);
  };
}
