import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { BrowseService } from '../../analysis/browse.service';
import type { PlaylistService } from '../../analysis/playlists.service';
import type { SoundService } from '../../analysis/sound.service';
import type { StoredAnalysis } from '../../core/types';
import { adminOnly } from '../auth';
import { restAnalysis } from './audio.routes';
import { m3uParams, parse, parseBody, pathParams, savePlaylistBody, similarParams } from './rest.params';

export interface SoundRouteServices {
  browse: BrowseService;
  sound: SoundService;
  playlists: PlaylistService;
}

/** The media type of an M3U8 playlist (RFC 8216's for .m3u8). */
export const M3U_TYPE = 'audio/x-mpegurl';

/** Whether the client asks for a playlist: `format=m3u`, or an Accept that names audio/x-mpegurl (or its vnd.apple twin) and not JSON first. */
function wantsPlaylist(req: Request, format: 'json' | 'm3u' | undefined): boolean {
  if (format !== undefined) return format === 'm3u';
  const accept = req.headers.accept ?? '';
  return /\b(audio\/x-mpegurl|application\/vnd\.apple\.mpegurl)\b/i.test(accept) && !/^\s*application\/json/i.test(accept);
}

/** A list of tracks: the contract's JSON (each analysis with its `distance`), or their playlist. */
function answerList(req: Request, res: Response, playlists: PlaylistService, format: 'json' | 'm3u' | undefined, items: { analysis: StoredAnalysis; distance: number }[], name: string): void {
  if (wantsPlaylist(req, format)) {
    const playlist = playlists.m3u(items.map((i) => i.analysis));
    res.setHeader('Content-Type', `${M3U_TYPE}; charset=utf-8`);
    res.setHeader('Content-Disposition', `inline; filename="${name}.m3u8"`);
    res.setHeader('Trackgraph-Playlist-Skipped', String(playlist.skipped));
    res.send(playlist.text);
    return;
  }
  res.json({ success: true, data: items.map((i) => ({ distance: i.distance, ...restAnalysis(i.analysis) })) });
}

/**
 * Similarity and paths over the stored analyses, and playlists: GET /api/audio/similar/{trackKey}
 * (by descriptors or by sound), GET /api/audio/path (by sound), GET /api/playlists/m3u (any list
 * of keys as a playlist) and POST /api/playlists (admin: a playlist saved into the music folder or the music server).
 * Every list answers as JSON or, asked, as M3U8 (docs/SIMILARITY.md).
 */
export function soundRoutes(services: SoundRouteServices, gate: RequestHandler): Router {
  const router = Router();

  router.get('/api/audio/similar/:trackKey', gate, async (req: Request<{ trackKey: string }>, res) => {
    const q = parse(similarParams, req.query);
    const options = { otherArtists: q.otherArtists };
    const found = q.by === 'sound' ? await services.sound.similar(req.params.trackKey, q.limit, options) : await services.browse.similar(req.params.trackKey, q.limit, options);
    answerList(req, res, services.playlists, q.format, found, `similar-${req.params.trackKey.toLowerCase()}`);
  });

  router.get('/api/audio/path', gate, async (req, res) => {
    const q = parse(pathParams, req.query);
    const steps = await services.sound.path(q.from, q.to, q.steps);
    answerList(req, res, services.playlists, q.format, steps, 'path');
  });

  router.get('/api/playlists/m3u', gate, async (req, res) => {
    const q = parse(m3uParams, req.query);
    const playlist = await services.playlists.m3uOfKeys(q.keys);
    res.setHeader('Content-Type', `${M3U_TYPE}; charset=utf-8`);
    res.setHeader('Trackgraph-Playlist-Skipped', String(playlist.skipped));
    res.send(playlist.text);
  });

  router.post('/api/playlists', gate, adminOnly('saving playlists'), express.json({ limit: '64kb' }), async (req, res) => {
    const body = parseBody(savePlaylistBody, req.body, '{name, trackKeys, target}');
    const saved = await services.playlists.save(body.name, body.trackKeys, body.target);
    res.status(saved.replaced ? 200 : 201).json({ success: true, data: saved });
  });

  return router;
}
