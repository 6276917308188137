import type { Request, RequestHandler } from 'express';
import type { GraphQLEdgeCache } from './edge.cache';

/** An error as body-parser makes them (http-errors): the edges' error handlers read `type`, `status` and `expose`. */
function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type });
}

/** What nearly every GraphQL client sends; any other Content-Type goes to express.json(). */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/**
 * Is this a body read here: JSON in UTF-8, not compressed, of a declared length within `limit`?
 * Anything else (another charset, Content-Encoding, a chunked body, a body over the limit) is
 * express.json()'s, which knows each case and its error.
 */
function plain(req: Request, limit: number): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || !PLAIN_JSON.has(type.toLowerCase())) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = req.headers['content-length'];
  if (length === undefined || !/^\d{1,9}$/.test(length)) return false;
  return Number(length) <= limit;
}

/**
 * JSON parsed as express.json() parses it (strict: an object or an array; an empty body is {};
 * a UTF-8 byte order mark skipped), failing with the same error type.
 */
function parseJson(raw: Buffer): unknown {
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {};
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') throw bodyError(400, 'entity.parse.failed', 'the body is not a JSON object or array');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw bodyError(400, 'entity.parse.failed', error instanceof Error ? error.message : 'invalid JSON');
  }
}

/**
 * GraphQL's request body, then the edge cache. The common POST (JSON in UTF-8, uncompressed, its
 * length declared and within `limit`) is read here, and its bytes are looked up in the edge
 * cache before any JSON is parsed: a repeat is answered without parsing it (only bodies that
 * parsed as one operation were ever kept), a miss is parsed as express.json() would and passed
 * on. Every other request goes through `json` (express.json() keeping the raw body), then the
 * edge cache's middleware, as before.
 */
export function graphqlBody(options: { limit: number; json: RequestHandler; edge?: GraphQLEdgeCache }): RequestHandler {
  const { limit, json, edge } = options;
  const edgeStep = edge?.middleware();
  return (req, res, next) => {
    if (req.method !== 'POST' || !plain(req, limit)) {
      if (!edgeStep) json(req, res, next);
      else json(req, res, (error?: unknown) => (error !== undefined && error !== null ? next(error) : edgeStep(req, res, next)));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on('error', () => {
      if (settled) return;
      settled = true;
      next(bodyError(400, 'request.aborted', 'request aborted'));
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (raw.length > limit) {
        next(bodyError(413, 'entity.too.large', 'request entity too large'));
        return;
      }
      // The rate limit refused a kept answer's charge: Apollo answers the refusal from the parsed body.
      const answered = edge?.answer(req, res, raw, (error?: unknown) => {
        if (error !== undefined && error !== null) next(error);
        else if (parseInto(req, raw, next)) next();
      });
      if (answered) return;
      if (!parseInto(req, raw, next)) return;
      // A batch is answered by Apollo operation by operation: nothing of it is kept whole.
      if (edge && !Array.isArray(req.body)) edge.pass(req, res, raw, next);
      else next();
    });
  };
}

/** Sets req.body from the raw bytes, or passes the error express.json() would give to `fail`; true when parsed. */
function parseInto(req: Request, raw: Buffer, fail: (error: unknown) => void): boolean {
  try {
    req.body = parseJson(raw);
    return true;
  } catch (error) {
    fail(error);
    return false;
  }
}
