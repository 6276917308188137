import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ANALYSIS_ROUTE, type AnalysisHandler } from './rest/audio.routes';

const ANALYSIS_PREFIX = '/api/audio/analysis/';
/** What the router sets as req.route for that path: the request metrics label by its `path`. */
const ANALYSIS_ROUTE_INFO = Object.freeze({ path: ANALYSIS_ROUTE });

export interface HotRoutes {
  /** The REST gate (key check, rate limit), as every REST route runs it. */
  gate: RequestHandler;
  /** GET /api/audio/analysis/{trackKey} after the gate. */
  analysisRead: AnalysisHandler;
  /** POST /graphql: GraphQL's whole pipeline, composed (GraphQLEdge.post). */
  graphqlPost?: RequestHandler;
}

/**
 * The two requests that are nearly all of the traffic, the stored-analysis read and a GraphQL
 * POST, sent straight to their handlers, as Fastify finds a route once and runs its hooks:
 * without this, each went through every app-level layer and mounted router before its own,
 * matching a path pattern at each (about a tenth of such a request's CPU). Anything unusual
 * about the request — another method, a percent-encoded or trailing-slash path, another letter
 * case — is passed on to the Express stack, which has the same handlers at the same paths and
 * answers it as before. Runs after the security headers, request id and log, and CORS.
 */
export function hotRoutes(routes: HotRoutes): (req: Request, res: Response, next: NextFunction) => void {
  const { gate, analysisRead, graphqlPost } = routes;
  return (req, res, next) => {
    const url = req.url;
    if (req.method === 'GET' && url.startsWith(ANALYSIS_PREFIX)) {
      const q = url.indexOf('?');
      const trackKey = url.slice(ANALYSIS_PREFIX.length, q < 0 ? undefined : q);
      // '%' anywhere: the malformed-URL guard and the router's decoding have a say first.
      if (trackKey.length > 0 && !trackKey.includes('/') && !url.includes('%')) {
        (req as Request<{ trackKey: string }>).params = { trackKey };
        req.route = ANALYSIS_ROUTE_INFO;
        gate(req, res, (error?: unknown) => {
          if (error !== undefined && error !== null) next(error);
          else analysisRead(req as Request<{ trackKey: string }>, res).catch(next);
        });
        return;
      }
    } else if (graphqlPost !== undefined && req.method === 'POST' && (url === '/graphql' || url.startsWith('/graphql?'))) {
      graphqlPost(req, res, next);
      return;
    }
    next();
  };
}
