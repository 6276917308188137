import { Router, type Request, type Response } from 'express';
import type { AnalysisOutcome, AnalysisService } from '../../analysis/analysis.service';
import { toContractAnalysis } from '../../analysis/contract';
import type { ArtworkService } from '../../artwork/artwork.service';
import type { ApiKeyService } from '../../auth/api-keys';
import type { StoredAnalysis } from '../../core/types';
import type { SearchService } from '../../search/search.service';
import { requireApiKey } from '../auth';
import { analysisParams, batchParams, parse, searchParams } from './params';

export interface AudioRouteServices {
  search: SearchService;
  analysis: AnalysisService;
  artwork: ArtworkService;
  apiKeys: ApiKeyService;
}

/**
 * Sends an analysis outcome: 200 with the contract object (or another view of the analysis,
 * such as its timeline), or 202 while it is being computed.
 */
export function sendOutcome(
  res: Response,
  outcome: AnalysisOutcome,
  view: (a: StoredAnalysis) => unknown = toContractAnalysis,
  bodies?: WeakMap<StoredAnalysis, string>,
): void {
  if (outcome.status === 'done') {
    // A stored analysis never changes and the store's LRU hands out one object per key, so a
    // view's body can be serialised once and reused while that object lives.
    let body = bodies?.get(outcome.analysis);
    if (body === undefined) {
      body = JSON.stringify({ success: true, data: view(outcome.analysis) });
      bodies?.set(outcome.analysis, body);
    }
    res.type('application/json').send(body);
    return;
  }
  res
    .status(202)
    .set('Retry-After', String(outcome.retryAfterS))
    .json({
      success: true,
      data: null,
      status: outcome.status,
      queuePosition: outcome.queuePosition,
      retryAfter: outcome.retryAfterS,
    });
}

/** The contract's routes under /api/audio. Thin: parse, call one service method, shape. */
export function audioRoutes(services: AudioRouteServices): Router {
  const router = Router();
  const auth = requireApiKey(services.apiKeys);
  const contractBodies = new WeakMap<StoredAnalysis, string>();

  // Artwork URLs are signed (they are loaded by <img> tags, which send no Authorization).
  router.get('/artwork/:trackKey', async (req: Request<{ trackKey: string }>, res, next) => {
    const sig = typeof req.query.sig === 'string' ? req.query.sig : undefined;
    if (sig !== undefined && services.artwork.verify(req.params.trackKey, sig)) return next();
    auth(req, res, next);
  }, async (req: Request<{ trackKey: string }>, res) => {
    const art = await services.artwork.artwork(req.params.trackKey);
    res.set('Cache-Control', 'private, max-age=86400').type(art.mime).send(Buffer.from(art.data));
  });

  router.use(auth);

  router.get('/search', async (req, res) => {
    const q = parse(searchParams, req.query);
    const data = await services.search.search({ track: q.track, limit: q.limit, ...(q.artist ? { artist: q.artist } : {}) });
    res.json({ success: true, data });
  });

  router.get('/analysis/:trackKey', async (req: Request<{ trackKey: string }>, res) => {
    const q = parse(analysisParams, req.query);
    sendOutcome(res, await services.analysis.analysis(req.params.trackKey.toLowerCase(), q), toContractAnalysis, contractBodies);
  });

  // The same lookup as the analysis (store, else analyse what search found), another view of it.
  router.get('/analysis/:trackKey/timeline', async (req: Request<{ trackKey: string }>, res) => {
    const q = parse(analysisParams, req.query);
    sendOutcome(res, await services.analysis.analysis(req.params.trackKey.toLowerCase(), q), timelineOf);
  });

  // Spotify's batch pattern: stored analyses only, positional, null where a key has none.
  router.get('/analyses', async (req, res) => {
    const q = parse(batchParams, req.query);
    const stored = await services.analysis.storedMany(q.keys);
    res.json({ success: true, data: stored.map((a) => (a ? toContractAnalysis(a) : null)) });
  });

  return router;
}

/** The time-resolved view of an analysis (GET /analysis/{trackKey}/timeline). */
export function timelineOf(a: StoredAnalysis) {
  const { beats, bars, sections } = a.features.timeline;
  return { trackKey: a.trackKey, duration_ms: Math.round(a.features.durationMs), beats, bars, sections };
}
