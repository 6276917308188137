import { hash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AnalysisService } from '../../analysis/analysis.service';
import { toContractAnalysis } from '../../analysis/contract';
import type { ArtworkService } from '../../artwork/artwork.service';
import { methodOf } from '../../core/analysis-method';
import type { StoredAnalysis } from '../../core/types';
import type { Principal } from '../../auth/api-keys';
import type { SearchService } from '../../search/search.service';
import { analysisParams, batchParams, parse, searchParams } from './rest.params';
import { addHeader, endWith } from '../response.head';

export interface AudioRouteServices {
  search: SearchService;
  analysis: AnalysisService;
  artwork: ArtworkService;
}

/** A serialised answer and its entity tag. */
interface Body {
  answer: { contentType: string; bytes: Buffer };
  etag: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function bodyOf(value: unknown): Body {
  const bytes = Buffer.from(JSON.stringify(value));
  return { answer: { contentType: JSON_TYPE, bytes }, etag: `"${hash('sha1', bytes, 'base64url')}"` };
}

/** Does If-None-Match name this entity tag (or `*`)? Weak comparison, as RFC 9110 asks for GET. */
function notModified(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** A route handler after the gate: answers, or rejects with the error the edge's handler maps. */
export type AnalysisHandler = (req: Request<{ trackKey: string }>, res: Response) => Promise<void>;

/** The path GET /api/audio/analysis/{trackKey} is registered at (and its requests' metrics label). */
export const ANALYSIS_ROUTE = '/api/audio/analysis/:trackKey';

/**
 * The handler of GET /api/audio/analysis/{trackKey}, after the gate. Made once per app: the
 * router and the hot path (hot-path.ts) share it, and with it its serialised bodies.
 */
export function analysisReadHandler(analysis: AnalysisService): AnalysisHandler {
  return analysisView(analysis, restAnalysis);
}

/**
 * A handler answering an analysis lookup (store, else analyse what search found) with one view
 * of it: 200 with the view (the contract object, or the timeline), or 202 while it is computed.
 * The store's LRU hands out one object per key, so each view's body is serialised and tagged
 * once and reused while that object lives; a request naming the tag in If-None-Match gets 304.
 * A re-analysis replaces the stored analysis and drops the key from every process's LRU
 * (`analysis.replaced`): the next read is a new object, hence a new body and a new tag (the tag
 * is a hash of the body's bytes), and the old tag no longer gets 304. Answers through Node's
 * response API only, and reads req.query only when the URL has one (the hot path takes none).
 */
function analysisView(analysis: AnalysisService, view: (a: StoredAnalysis) => unknown): AnalysisHandler {
  const bodies = new WeakMap<StoredAnalysis, Body>();
  // Nearly every read has no query string: its parameters are parsed once, here.
  const none = Object.freeze(parse(analysisParams, {}));
  return async (req: Request<{ trackKey: string }>, res: Response): Promise<void> => {
    const q = req.url.includes('?') ? parse(analysisParams, req.query) : none;
    const outcome = await analysis.analysis(req.params.trackKey, q, (res.locals.principal as Principal | undefined)?.id);
    if (outcome.status !== 'done') {
      addHeader(res, 'Retry-After', String(outcome.retryAfterS));
      const accepted = { success: true, data: null, status: outcome.status, queuePosition: outcome.queuePosition, retryAfter: outcome.retryAfterS };
      endWith(res, 202, { contentType: JSON_TYPE, bytes: Buffer.from(JSON.stringify(accepted)) });
      return;
    }
    let body = bodies.get(outcome.analysis);
    if (body === undefined) {
      body = bodyOf({ success: true, data: view(outcome.analysis) });
      bodies.set(outcome.analysis, body);
    }
    addHeader(res, 'ETag', body.etag);
    // How it was made, beside the contract's fields (docs/API.md).
    addHeader(res, 'Trackgraph-Engine', outcome.analysis.features.engine);
    addHeader(res, 'Trackgraph-Analysis-Method', methodOf(outcome.analysis.features.engine));
    if (notModified(req, body.etag)) endWith(res, 304);
    else endWith(res, 200, body.answer);
  };
}

/**
 * A JSON answer through Node's own response API only: the hot path (hot-path.ts) runs this
 * handler on a request Express has not dressed with its API.
 */
function send(res: Response, status: number, bytes: Buffer): void {
  endWith(res, status, { contentType: JSON_TYPE, bytes });
}

/**
 * The contract's routes, registered with their full paths (/api/audio/...) so a request reaches
 * its route without a mounted router rewriting its URL. Thin: parse, call one service method,
 * shape. `gate` (key check and rate limit) runs first on each, but not on a signed artwork URL.
 */
export function audioRoutes(services: AudioRouteServices, gate: RequestHandler, analysisRead: AnalysisHandler = analysisReadHandler(services.analysis)): Router {
  const router = Router();

  router.get(ANALYSIS_ROUTE, gate, analysisRead);

  router.get('/api/audio/search', gate, async (req, res) => {
    const q = parse(searchParams, req.query);
    const page = await services.search.searchPage({ track: q.track, limit: q.limit, offset: q.offset, ...(q.artist ? { artist: q.artist } : {}) });
    const links = pageLinks(q, page.hasMore);
    if (links) res.setHeader('Link', links);
    if (page.failedSources.length === 0) {
      res.json({ success: true, data: page.results });
      return;
    }
    res.setHeader('Trackgraph-Failed-Sources', page.failedSources.map((f) => f.source).join(', '));
    res.json({ success: true, data: page.results, failedSources: page.failedSources });
  });

  // The same lookup as the analysis (store, else analyse what search found), another view of it.
  router.get('/api/audio/analysis/:trackKey/timeline', gate, analysisView(services.analysis, timelineOf));

  // Spotify's batch pattern: stored analyses only, positional, null where a key has none. Each
  // stored object's contract JSON is made once and kept while the object lives (as the single
  // read's body is); an answer is those texts joined, the bytes JSON.stringify gives of the whole.
  const contractJson = new WeakMap<StoredAnalysis, string>();
  const jsonOf = (a: StoredAnalysis): string => {
    let json = contractJson.get(a);
    if (json === undefined) {
      json = JSON.stringify(restAnalysis(a));
      contractJson.set(a, json);
    }
    return json;
  };
  router.get('/api/audio/analyses', gate, async (req, res) => {
    const q = parse(batchParams, req.query);
    const stored = await services.analysis.storedMany(q.keys);
    send(res, 200, Buffer.from(`{"success":true,"data":[${stored.map((a) => (a ? jsonOf(a) : 'null')).join(',')}]}`));
  });

  // Artwork URLs are signed (they are loaded by <img> tags, which send no Authorization). Every
  // key has a picture: a source's, or the key's placeholder.
  router.get('/api/audio/artwork/:trackKey', (req: Request<{ trackKey: string }>, res, next) => {
    const sig = typeof req.query.sig === 'string' ? req.query.sig : undefined;
    if (sig !== undefined && services.artwork.verify(req.params.trackKey, sig)) return next();
    gate(req, res, next);
  }, async (req: Request<{ trackKey: string }>, res) => {
    const art = await services.artwork.artwork(req.params.trackKey);
    // A placeholder is kept for less long: the track may gain a picture of its own.
    res.set({ 'Cache-Control': `private, max-age=${art.placeholder ? 3600 : 86400}`, 'Content-Type': art.mime }).send(Buffer.from(art.data));
  });

  return router;
}

/**
 * The Link header of a search page (RFC 8288): the next page when more matches follow, the
 * previous one when this one does not start at 0. Relative URLs: a client resolves them against
 * the URL it asked, whatever host or proxy it went through.
 */
function pageLinks(q: { track: string; artist?: string | undefined; limit: number; offset: number }, hasMore: boolean): string | undefined {
  const at = (offset: number): string => {
    const params = new URLSearchParams({ track: q.track, ...(q.artist ? { artist: q.artist } : {}), limit: String(q.limit), offset: String(offset) });
    return `</api/audio/search?${params.toString()}>`;
  };
  const links: string[] = [];
  if (hasMore) links.push(`${at(q.offset + q.limit)}; rel="next"`);
  if (q.offset > 0) links.push(`${at(Math.max(0, q.offset - q.limit))}; rel="prev"`);
  return links.length > 0 ? links.join(', ') : undefined;
}

/**
 * The contract's analysis object, with `tempoAlternatives` when the analysis recorded them
 * (engine 11 on; older analyses and other servers' have none), `tuningHz` (engine 23 on) and
 * `tags` when trained models made it (MODELS_DIR): all additive (docs/API.md).
 */
export function restAnalysis(a: StoredAnalysis) {
  const { tempoAlternatives, tuningHz, tags } = a.features;
  return {
    ...toContractAnalysis(a),
    ...(tempoAlternatives ? { tempoAlternatives } : {}),
    ...(tuningHz !== undefined ? { tuningHz } : {}),
    ...(tags ? { tags } : {}),
  };
}

/** The time-resolved view of an analysis (GET /analysis/{trackKey}/timeline). */
function timelineOf(a: StoredAnalysis) {
  const { beats, bars, sections } = a.features.timeline;
  return { trackKey: a.trackKey, duration_ms: Math.round(a.features.durationMs), beats, bars, sections };
}
