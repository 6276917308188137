import type { Request, RequestHandler, Response } from 'express';
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

/** The headers of one kind of answer, as helmet sets them: written, then removed. */
export interface HeaderSet {
  readonly set: readonly (readonly [name: string, value: string])[];
  readonly removed: readonly string[];
}

/**
 * What helmet does to a response with these options, recorded once at start-up: its header
 * values depend on the options only (none of the directives here is a function of the request),
 * so a request gets them from a frozen list instead of a dozen middleware calls, one per header.
 */
function headerSet(options: HelmetOptions): HeaderSet {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown): void {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a non-string value`);
      set.push([name, value]);
    },
    removeHeader(name: string): void {
      removed.push(name);
    },
  };
  let failure: Error | undefined;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    if (error !== undefined) failure = error instanceof Error ? error : new Error('helmet refused these options');
  });
  if (failure) throw failure;
  return Object.freeze({ set: Object.freeze(set.map((h) => Object.freeze(h))), removed: Object.freeze(removed) });
}

/** Writes a kind of answer's security headers on a response. */
function writeHeaderSet(res: Response, headers: HeaderSet): void {
  for (const name of headers.removed) res.removeHeader(name);
  for (const [name, value] of headers.set) res.setHeader(name, value);
}

const api = headerSet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives: API_POLICY } });

/**
 * Artwork is loaded by <img> tags of client apps on other origins (CORP cross-origin lets them),
 * and opened on its own it is sandboxed: a unique origin where no script runs, even if a picture
 * ever passed the type check that should not have.
 */
const artwork = headerSet({
  ...COMMON,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  contentSecurityPolicy: { useDefaults: false, directives: { ...API_POLICY, sandbox: [] } },
});

/**
 * GET /graphql for a browser: this server's landing page (graphql/landing.page.ts), which loads
 * nothing but its favicon and its one inline stylesheet, allowed by its hash. JSON answers to
 * GET queries are under it too, as under the API's.
 */
const graphqlLanding = headerSet({
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
const graphqlPage = headerSet({
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

const dashboard = headerSet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives: DASHBOARD_POLICY } });

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

const graphiql = headerSet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives: GRAPHIQL_POLICY } });

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
  const write = securityHeaderWriter(options);
  return (req, res, next) => {
    write(req, res);
    next();
  };
}

/** The security headers' choice and writing of securityHeaders, for a caller composing it with other per-request work. */
export function securityHeaderWriter(options: { sandbox: boolean }): (req: Request, res: Response) => void {
  // Apollo Sandbox's looser page policy only where Sandbox is served; else the landing page's.
  const graphqlGet = (req: Request): HeaderSet => (options.sandbox && asksForSandbox(req) ? graphqlPage : graphqlLanding);
  return (req, res) => {
    const path = req.path;
    if (path.startsWith('/api/audio/artwork/')) writeHeaderSet(res, artwork);
    else if (isGraphqlPath(path) && (req.method === 'GET' || req.method === 'HEAD')) writeHeaderSet(res, graphqlGet(req));
    else if (isApiPath(path)) writeHeaderSet(res, api);
    else if (isGraphiqlPath(path)) writeHeaderSet(res, graphiql);
    else writeHeaderSet(res, dashboard);
  };
}

/**
 * The API's JSON answers' headers (what securityHeaders writes on /api and a GraphQL POST) as
 * names and values in one flat list, for a response that gathers its headers (response.head.ts).
 * What helmet removes (X-Powered-By) is never on a response this new.
 */
export const API_HEAD: readonly string[] = Object.freeze(api.set.flat());
