import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';

/** The one stylesheet of the page, inline: the page's policy allows exactly it, by its hash. */
const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif; line-height: 1.5; }
body { max-width: 42rem; margin: 3rem auto; padding: 0 1rem; }
li { margin: 0.5rem 0; }
code { font-size: 0.95em; }
`;

/** `'sha256-…'` of the inline stylesheet, for the page's Content-Security-Policy (style-src). */
export const LANDING_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** The query parameter that asks /graphql for Apollo Sandbox instead of this page. */
const SANDBOX_PARAM = 'sandbox';

/** Does a GET of /graphql ask for Apollo Sandbox (`/graphql?sandbox`)? */
export const asksForSandbox = (req: Pick<Request, 'query'>): boolean => Object.hasOwn(req.query, SANDBOX_PARAM);

/**
 * The page a browser gets at GET /graphql: where to explore the API. It is served by this
 * server and loads nothing (so it works offline); its links are relative, so they hold behind a
 * proxy that mounts the server under a path. GraphiQL (/graphiql) comes from this server too;
 * Apollo Sandbox (/graphql?sandbox, when GRAPHQL_SANDBOX is on) loads from Apollo's CDN.
 */
function landingPage(options: { sandbox: boolean }): string {
  const sandbox = options.sandbox
    ? `<li><a href="graphql?${SANDBOX_PARAM}">Apollo Sandbox</a>: Apollo's explorer, loaded from Apollo's CDN, so the browser must be online.</li>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trackgraph GraphQL API</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>trackgraph GraphQL API</h1>
<p>This is the GraphQL endpoint: POST operations to <code>/graphql</code> as JSON, with <code>Authorization: Bearer &lt;API key&gt;</code>.</p>
<h2>Explore it</h2>
<ul>
<li><a href="graphiql">GraphiQL</a>: served by this server, works offline. Enter your API key at the top (or in its Headers tab).</li>
${sandbox}
<li><a href="./">The web dashboard</a>: search, track pages and browsing, a client of this API.</li>
</ul>
</main>
</body>
</html>
`;
}

/** Answers a browser's GET /graphql with the landing page (it holds no data: no key needed). */
export function landingPageHandler(options: { sandbox: boolean }): RequestHandler {
  const html = landingPage(options);
  return (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  };
}
