import type { ServerResponse } from 'node:http';

/**
 * The headers of a hot-path answer (hot-path.ts), gathered as a flat list of names and values and
 * written with the status in one `writeHead`, as a plain `node:http` server writes a known answer.
 * Each `setHeader` copies its value into the response's own header table after checking name and
 * value; a list given to `writeHead` is checked once as it is written. Measured on the stored-
 * analysis read: its ~20 headers through `setHeader` were about a tenth of the request's CPU.
 *
 * A response whose headers are deferred must reach `settleHeaders` before anything that reads or
 * writes its headers through Node's or Express's API (the hot path's hand-over to Express, its
 * error handlers and Apollo's integration do that first): then it is an ordinary response again.
 * Anything not deferred — every request Express routes — goes through `setHeader` as before.
 */
const PENDING = Symbol('trackgraph.pendingHead');

type Deferring = ServerResponse & { [PENDING]?: string[] | undefined };

/** Starts gathering a response's headers, with `initial` (names and values, flat) first. */
export function deferHeaders(res: ServerResponse, initial: readonly string[]): void {
  // Spread, not slice(): V8's slice of a frozen array (API_HEAD is one) takes ~40 times as long.
  (res as Deferring)[PENDING] = [...initial];
}

/** A header of the answer: gathered when the response defers them, else set at once. */
export function addHeader(res: ServerResponse, name: string, value: string): void {
  const pending = (res as Deferring)[PENDING];
  if (pending === undefined) res.setHeader(name, value);
  else pending.push(name, value);
}

/** Sets the gathered headers, in order, on the response, which defers no more. */
export function settleHeaders(res: ServerResponse): void {
  const pending = (res as Deferring)[PENDING];
  if (pending === undefined) return;
  (res as Deferring)[PENDING] = undefined;
  for (let i = 0; i < pending.length; i += 2) res.setHeader(pending[i]!, pending[i + 1]!);
}

/**
 * Ends the response with `status`, the gathered headers and `body` (with its Content-Type and
 * Content-Length), or none (a 304).
 */
export function endWith(res: ServerResponse, status: number, body?: { contentType: string; bytes: Buffer }): void {
  const pending = (res as Deferring)[PENDING];
  if (pending === undefined) {
    res.statusCode = status;
    if (body) {
      res.setHeader('Content-Type', body.contentType);
      res.setHeader('Content-Length', body.bytes.length);
    }
    res.end(body?.bytes);
    return;
  }
  (res as Deferring)[PENDING] = undefined;
  if (body) pending.push('Content-Type', body.contentType, 'Content-Length', String(body.bytes.length));
  // Headers set through the API meanwhile, if any, are kept: writeHead merges the list into them.
  res.writeHead(status, pending);
  res.end(body?.bytes);
}
