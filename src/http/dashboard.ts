import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../core/errors';

/** Where `npm run build` puts the dashboard: web/dist of this package (above src/ under ts, dist/src/ when built). */
export function defaultDashboardDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('web', 'dist');
    dir = parent;
  }
  return path.join(dir, 'web', 'dist');
}

/** A year: Vite names every file under assets/ by its content hash, so a name never changes content. */
const IMMUTABLE_MAX_AGE = '365d';

/**
 * A client route (a bookmarked /track/… or /browse?…) is a path without a file extension that a
 * browser navigates to; a missing image, script or source map gets its 404 rather than a page.
 */
const wantsPage = (req: Request): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') &&
  !req.path.startsWith('/assets/') &&
  !/\.[^/]*$/.test(req.path) &&
  req.accepts(['html', 'json']) === 'html';

/** Sends a built page. It is small and names the current asset hashes: revalidated on every navigation. */
function sendPage(res: Response, file: string, what: string, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-cache');
  res.sendFile(file, { cacheControl: false, dotfiles: 'deny' }, (error?: Error) => {
    if (!error) return;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      res.removeHeader('Cache-Control');
      next(new AppError('NOT_FOUND', `${what} is not built: run \`npm run build\``));
    } else next(error);
  });
}

/**
 * The web dashboard: its built files at /, and its index.html for every client route; GraphiQL's
 * page at /graphiql. Public: the pages hold no data (every GraphQL call they make carries the
 * key their user gives).
 * Mounted after the API's routes, so it never answers for /api, /graphql or the probes.
 */
export function dashboardRoutes(dir: string): Router {
  const router = Router();
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: IMMUTABLE_MAX_AGE, index: false, redirect: false }));
  // GraphiQL, built beside the dashboard (web/graphiql): a page of its own, public like the dashboard's.
  router.get(['/graphiql', '/graphiql/'], (_req, res, next) => sendPage(res, path.join(dir, 'graphiql', 'index.html'), 'GraphiQL', next));
  router.use(express.static(dir, { index: false, redirect: false }));
  router.use((req, res, next) => {
    if (!wantsPage(req)) {
      next();
      return;
    }
    sendPage(res, path.join(dir, 'index.html'), 'the web dashboard', next);
  });
  router.use((req) => {
    throw new AppError('NOT_FOUND', `no such file: ${req.path}`);
  });
  return router;
}
