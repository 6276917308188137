import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { SpotifyFeaturesService } from '../../analysis/spotify-features.service';
import type { RecommendationsService } from '../../analysis/recommendations.service';
import { toSpotifyAudioAnalysis } from '../../analysis/spotify-analysis.shape';
import { toSpotifyAudioFeatures, toSpotifyTrack } from '../../analysis/spotify.shape';
import type { StoredAnalysis } from '../../core/types';
import type { Principal } from '../../auth/api-keys';
import { AppError } from '../../core/errors';
import { GENRE_SEEDS } from '../../core/tags';
import { clientErrorHandler, HTTP_STATUS } from '../http.errors';
import { refuseMalformedUrls } from '../url-encoding.guard';
import { parse } from './rest.params';
import { recommendationsQuery, spotifyIdPath, spotifyIdsQuery } from './spotify.params';

export interface SpotifyRouteServices {
  features: SpotifyFeaturesService;
  recommendations: RecommendationsService;
}

/** The base of the links in the answers: PUBLIC_URL when set, else the URL the request came to. */
function baseOf(req: Request, publicUrl: string | undefined): string {
  return (publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, '');
}

/**
 * Spotify's shape under /v1: audio features by id, one or a batch, and audio analysis, for clients written against
 * Spotify's Web API. The same key check, rate limit and usage counting (`gate`) as every route;
 * failures in Spotify's shape, `{"error": {"status", "message"}}`.
 */
export function spotifyRoutes(services: SpotifyRouteServices, gate: RequestHandler, publicUrl?: string): Router {
  const router = Router();
  // Before the routes: their parameter decoding would fail on such a URL before any key check.
  router.use('/v1', refuseMalformedUrls(gate, () => false));

  // One id, analysed when not stored yet (202 with Retry-After while it runs), in one of Spotify's objects.
  const single = (shape: (a: StoredAnalysis, req: Request) => unknown) => async (req: Request<{ id: string }>, res: Response) => {
    const { id } = parse(spotifyIdPath, req.params);
    const outcome = await services.features.one(id, (res.locals.principal as Principal | undefined)?.id);
    if (outcome.status !== 'done') {
      res
        .status(202)
        .set('Retry-After', String(outcome.retryAfterS))
        .json({ status: outcome.status, queue_position: outcome.queuePosition, retry_after: outcome.retryAfterS });
      return;
    }
    res.json(shape(outcome.analysis, req));
  };
  router.get('/v1/audio-features/:id', gate, single((a, req) => toSpotifyAudioFeatures(a, baseOf(req, publicUrl))));
  router.get('/v1/audio-analysis/:id', gate, single((a) => toSpotifyAudioAnalysis(a)));

  // Spotify's batch: stored analyses only, positional, null where an id names none.
  router.get('/v1/audio-features', gate, async (req, res) => {
    const { ids } = parse(spotifyIdsQuery, req.query);
    const stored = await services.features.many(ids);
    const base = baseOf(req, publicUrl);
    res.json({ audio_features: stored.map((a) => (a ? toSpotifyAudioFeatures(a, base) : null)) });
  });

  // The genre seeds: the tagger's tags but its eras and voices, in Spotify's spelling.
  router.get('/v1/recommendations/available-genre-seeds', gate, (_req, res) => {
    res.json({ genres: GENRE_SEEDS.map((g) => g.seed) });
  });

  // Recommendations by target over the stored analyses.
  router.get('/v1/recommendations', gate, async (req, res) => {
    const q = parse(recommendationsQuery, req.query);
    const found = await services.recommendations.recommend(q);
    const base = baseOf(req, publicUrl);
    res.json({
      tracks: found.tracks.map((a) => toSpotifyTrack(a, base)),
      seeds: found.seeds.map((s) => ({
        id: s.id,
        type: s.type,
        href: s.type === 'TRACK' ? `${base}/api/audio/analysis/${s.id}` : null,
        initialPoolSize: s.initialPoolSize,
        afterFilteringSize: s.afterFilteringSize,
        afterRelinkingSize: s.afterRelinkingSize,
      })),
    });
  });

  router.use('/v1', gate, (req) => {
    throw new AppError('NOT_FOUND', `no such route: ${req.method} ${req.baseUrl}${req.path}`);
  });
  // Failures of these routes (the key check's and rate limit's included) in Spotify's shape.
  router.use('/v1', spotifyErrors);
  return router;
}

/** Spotify's error object: `{"error": {"status", "message"}}`, with the same statuses and headers as every route. */
export const spotifyErrors = clientErrorHandler({
  body: (body) => ({ error: { status: HTTP_STATUS[body.error.code], message: body.error.message } }),
  logMessage: 'request failed',
});
