import type { Request, RequestHandler } from 'express';
import helmet, { contentSecurityPolicy, type HelmetOptions } from 'helmet';
import { LANDING_STYLE_HASH, asksForSandbox } from './graphql/landing.page';

/**
 * What the API answers is JSON and images, never a page: nothing in it may load, run, frame or
 * submit anything. A browser that opens an answer directly (or is tricked into it) renders it
 * under this policy.
 */
const API_POLICY = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Headers every answer shares. Helmet's defaults, except: no HSTS (TLS is terminated by the
 * operator's proxy, which owns that promise for its domain), and Cross-Origin-Resource-Policy
 * same-origin so another site's <script> or <img> cannot pull JSON answers in.
 */
const COMMON: HelmetOptions = {
  strictTransportSecurity: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
};

const api = helmet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives: API_POLICY } });

/**
 * Artwork is loaded by <img> tags of client apps on other origins (CORP cross-origin lets them),
 * and opened on its own it is sandboxed: a unique origin where no script runs, even if a picture
 * ever passed the type check that should not have.
 */
const artwork = helmet({
  ...COMMON,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  contentSecurityPolicy: { useDefaults: false, directives: { ...API_POLICY, sandbox: [] } },
});

/**
 * GET /graphql for a browser: this server's landing page (graphql/landing.page.ts), which loads
 * nothing but its favicon and its one inline stylesheet, allowed by its hash. JSON answers to
 * GET queries are under it too, as under the API's.
 */
const graphqlLanding = helmet({
  ...COMMON,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { ...API_POLICY, 'style-src': [LANDING_STYLE_HASH], 'img-src': ["'self'"] },
  },
});

/**
 * GET /graphql?sandbox may be Apollo Sandbox's page, which loads its script, styles and frame from
 * Apollo's CDN under its own per-response nonce policy (a <meta> CSP). A header policy is enforced
 * together with it, so this one only adds what the page's lacks and does not need: no framing
 * of the page, no <base>, no plugins. Popups stay reachable for Sandbox's sign-in window.
 */
const graphqlPage = helmet({
  ...COMMON,
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      // The page's own policy governs its sources; a default-src here would override it.
      'default-src': contentSecurityPolicy.dangerouslyDisableDefaultSrc,
      'base-uri': ["'none'"],
      'frame-ancestors': ["'none'"],
      'object-src': ["'none'"],
    },
  },
});

/**
 * The web dashboard's pages and assets: its own scripts and styles only, none inline (the build
 * inlines nothing), artwork from anywhere over http(s) (search results link to sources' image
 * hosts), API calls (GraphQL, the REST upload) to this origin only. CSP Level 3's 'self' also
 * matches ws: and wss: on the page's own host (every current browser), which is where the GraphQL
 * subscriptions are.
 */
const DASHBOARD_POLICY = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'http:', 'https:'],
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
  'base-uri': ["'none'"],
  // Its forms are handled by script; none is ever submitted to a URL.
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

const dashboard = helmet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives: DASHBOARD_POLICY } });

/**
 * GraphiQL at /graphiql: the dashboard's policy, and what its editor (Monaco) needs besides:
 * its language services run in web workers, files of this server (worker-src 'self'); its
 * stylesheets carry their fonts and a few icons as data: URLs (font-src, img-src data:, bytes
 * of this server's own files, not requests); and it writes style elements at run time (syntax
 * colours, decorations), which a style-src without 'unsafe-inline' would refuse. Scripts stay
 * 'self' only, nothing comes from another host, and GraphQL calls (and the graphql-ws
 * subscriptions, ws:/wss: on this host under 'self') go to this origin only.
 */
const GRAPHIQL_POLICY = {
  ...DASHBOARD_POLICY,
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'worker-src': ["'self'"],
};

const graphiql = helmet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives: GRAPHIQL_POLICY } });

/** GraphiQL's page (web/graphiql, built into web/dist/graphiql). */
export const isGraphiqlPath = (path: string): boolean => path === '/graphiql' || path === '/graphiql/';

const isGraphqlPath = (path: string): boolean => path === '/graphql' || path.startsWith('/graphql/');


/** Paths the API owns; the dashboard has every other. */
const isApiPath = (path: string): boolean =>
  path === '/api' || path.startsWith('/api/') || isGraphqlPath(path) || path === '/healthz' || path === '/readyz' || path === '/metrics';

/**
 * Security headers on every answer the app makes: X-Content-Type-Options: nosniff (a browser
 * never second-guesses a declared type) and the rest of helmet's set, with a Content-Security-Policy
 * by kind of answer (API, artwork, GraphQL's landing page, Apollo Sandbox, GraphiQL, the web
 * dashboard). Runs first, so error answers carry them too.
 */
export function securityHeaders(options: { sandbox: boolean }): RequestHandler {
  // Apollo Sandbox's looser page policy only where Sandbox is served; else the landing page's.
  const graphqlGet = (req: Request): RequestHandler => (options.sandbox && asksForSandbox(req) ? graphqlPage : graphqlLanding);
  return (req, res, next) => {
    if (req.path.startsWith('/api/audio/artwork/')) artwork(req, res, next);
    else if (isGraphqlPath(req.path) && (req.method === 'GET' || req.method === 'HEAD')) graphqlGet(req)(req, res, next);
    else if (isApiPath(req.path)) api(req, res, next);
    else if (isGraphiqlPath(req.path)) graphiql(req, res, next);
    else dashboard(req, res, next);
  };
}
