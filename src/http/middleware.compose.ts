import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * Express middleware run in order as one function, as a Router would run them without its path
 * matching: one `next` per request, a thrown error or a rejected promise passed to `onError`,
 * and `done` called when every one of them passed the request on. For a pipeline whose path is
 * known before it runs (GraphQL's POST), composed once at start-up.
 */
export function composeMiddleware(stack: readonly RequestHandler[], onError: ErrorRequestHandler): RequestHandler {
  return (req, res, done) => {
    let i = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        onError(error, req, res, done);
        return;
      }
      const handler = stack[i++];
      if (handler === undefined) {
        done();
        return;
      }
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}
