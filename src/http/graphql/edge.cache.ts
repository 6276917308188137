import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../auth/api-keys';
import type { GraphQLCharges, RateLimitDecision } from '../../ops/rate-limit';
import { setRateLimitHeaders } from '../ops.routes';
import { endWith } from '../response.head';

/** Bodies longer than this are never keys (a document asking for 100 tracks by alias is ~10 KB). */
const MAX_KEY_BYTES = 16 * 1024;

/** What the response-cache plugin tells the edge about an answer it found complete. */
export interface EdgeRecorder {
  complete(cost: number): void;
}

/** Charges an answered operation's cost to a key; undefined when there is no rate limit. */

interface Entry {
  /** The bytes Apollo sent, as it sent them. */
  body: Buffer;
  contentType: string;
  /** The operation's cost, charged again on every answer from here. */
  cost: number;
}

interface Pending {
  key: string;
}

type WithRawBody = IncomingMessage & { rawBody?: Buffer };

/** The body exactly as received, and the Accept header, which chooses the response's content type. */
function keyOf(req: Request, raw: Buffer): string {
  // latin1 maps bytes to characters one to one: an exact key, cheaper than utf-8 decoding.
  return `${req.headers.accept ?? ''}\u0000${raw.toString('latin1')}`;
}

/**
 * Complete, immutable GraphQL answers kept as the bytes Apollo sent, keyed by the request body
 * exactly as received (and the Accept header, which chooses the response's content type).
 *
 * The response-cache plugin decides what may be kept: a query made only of immutable root
 * fields (analysis, analyses, trackKey) whose answer has no error and no missing analysis. Its
 * own cache skips execution; this one, in front of Apollo, skips the whole request pipeline for
 * a byte-identical repeat — parsing, hashing, plugins, serialisation — which is most of a
 * repeated request's cost. The key check has run before (requireKey), and the rate limit still
 * charges the operation's remembered cost on every answer; a refusal falls through to Apollo so
 * the 429 is the same one Apollo gives. Only JSON POST bodies are keys: Apollo's CSRF rule needs
 * nothing more of them.
 */
export class GraphQLEdgeCache {
  private readonly entries: LRUCache<string, Entry>;

  /** `maxBytes` bounds keys and bodies together (a key may be larger than its answer). */
  constructor(
    maxBytes: number,
    private readonly charges?: GraphQLCharges,
  ) {
    this.entries = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (e, key) => key.length + e.body.length });
  }

  /** express.json's `verify`: keeps the raw body of a request small enough to be a key. */
  static keepRawBody(this: void, req: IncomingMessage, _res: unknown, buf: Buffer): void {
    if (buf.length <= MAX_KEY_BYTES) (req as WithRawBody).rawBody = buf;
  }

  /** Bodies longer than this are never keys, and are not looked up. */
  static readonly maxKeyBytes = MAX_KEY_BYTES;

  /** Before Apollo, after the key check and express.json (whose `verify` kept the raw body). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const raw = (req as WithRawBody).rawBody;
      // A batch is answered by Apollo operation by operation: nothing of it is kept whole.
      if (req.method !== 'POST' || raw === undefined || Array.isArray(req.body)) {
        next();
        return;
      }
      if (!this.answer(req, res, raw, next)) this.pass(req, res, raw, next);
    };
  }

  /**
   * The lookup of the middleware, on a POST's raw body before it is parsed (graphql.body.ts):
   * true when the kept answer is sent, or will be once the rate limit is charged (`refused` is
   * called instead when the charge is refused, for Apollo to answer the refusal, or with the
   * error of a charge that failed). False on a
   * miss, with nothing done. A hit needs no parsed body: only bodies that parsed as one
   * operation, not a batch, were ever kept, and these are the same bytes.
   */
  answer(req: Request, res: Response, raw: Buffer, refused: (error?: unknown) => void): boolean {
    const principal = res.locals.principal as Principal | undefined;
    if (!principal || raw.length > MAX_KEY_BYTES) return false;
    const hit = this.entries.get(keyOf(req, raw));
    if (!hit) return false;
    if (!this.charges) {
      send(res, hit);
      return true;
    }
    this.charges.charge(principal.id, hit.cost).then((decision) => {
      if (decision && !decision.allowed) {
        // Apollo answers the refusal, with this decision rather than a second charge.
        (res.locals as { graphqlCharged?: RateLimitDecision }).graphqlCharged = decision;
        refused();
        return;
      }
      if (decision) setRateLimitHeaders(res, decision);
      send(res, hit);
    }, refused);
    return true;
  }

  /** After a miss: marks the request so that Apollo's answer, if complete, is kept under its body, and passes it on. */
  pass(req: Request, res: Response, raw: Buffer, next: () => void): void {
    if (res.locals.principal !== undefined && raw.length <= MAX_KEY_BYTES) {
      (res.locals as { graphqlEdge?: Pending }).graphqlEdge = { key: keyOf(req, raw) };
    }
    next();
  }

  /**
   * For the request's context: when the plugin says the answer is complete, what Apollo sends
   * next (a 200 with a string body) is kept. Undefined when this request cannot be kept.
   */
  recorder(res: Response): EdgeRecorder | undefined {
    const pending = (res.locals as { graphqlEdge?: Pending }).graphqlEdge;
    if (!pending) return undefined;
    return {
      complete: (cost) => {
        const send = res.send;
        // Apollo's Express integration answers with one res.send(string) after setting headers.
        res.send = (body?: unknown) => {
          res.send = send;
          const contentType = res.getHeader('content-type');
          if (res.statusCode === 200 && typeof body === 'string' && typeof contentType === 'string') {
            this.entries.set(pending.key, { body: Buffer.from(body), contentType, cost });
          }
          return send.call(res, body);
        };
      },
    };
  }

  /** Forgets every answer kept (a stored analysis was replaced; answers are not indexed by key). */
  clear(): void {
    this.entries.clear();
  }

  /** The rate-limit decision the middleware made for a request it passed on to be refused. */
  static charged(res: Response): RateLimitDecision | undefined {
    return (res.locals as { graphqlCharged?: RateLimitDecision }).graphqlCharged;
  }
}

function send(res: Response, entry: Entry): void {
  endWith(res, 200, { contentType: entry.contentType, bytes: entry.body });
}
