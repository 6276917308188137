import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger as PinoLogger } from 'pino';
import { DEFAULT_SONIC_PATH, DEFAULT_SONIC_SIMILAR, type SonicSimilarityService, type SonicSong } from '../../analysis/sonic-similarity.service';
import { AppError, shownError } from '../../core/errors';

/*
 * OpenSubsonic's sonicSimilarity extension, served under /rest/ as music servers serve their API,
 * so that Subsonic clients and a music server's plugins (Ampache's AudioMuse) can ask trackgraph
 * for songs that sound alike by the music server's song ids: getSonicSimilarTracks, findSonicPath,
 * getOpenSubsonicExtensions (and ping, which clients try first). A trackgraph API key is the
 * OpenSubsonic `apiKey` parameter; answers are the subsonic-response envelope, JSON with f=json,
 * XML otherwise, errors with HTTP 200 and Subsonic's codes, as the API has them.
 */

/** The protocol version the envelope names. */
const PROTOCOL = '1.16.1';

/** Subsonic's error codes used here. */
const CODE = { GENERIC: 0, MISSING_PARAMETER: 10, AUTH_NOT_SUPPORTED: 42, CONFLICTING_AUTH: 43, INVALID_API_KEY: 44, NOT_FOUND: 70 } as const;

export interface OpenSubsonicRouteServices {
  sonic: SonicSimilarityService;
  /** This build's version, named in every envelope (`serverVersion`). */
  serverVersion: string;
  logger: PinoLogger;
}

type Body = Record<string, unknown>;

/** A failure said in the envelope. */
class SubsonicFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function openSubsonicRoutes(services: OpenSubsonicRouteServices, gate: RequestHandler): Router {
  const router = Router();
  const envelope = (status: 'ok' | 'failed', body: Body): Body => ({
    status,
    version: PROTOCOL,
    type: 'trackgraph',
    serverVersion: services.serverVersion,
    openSubsonic: true,
    ...body,
  });
  const send = (req: Request, res: Response, status: 'ok' | 'failed', body: Body): void => {
    const answer = envelope(status, body);
    if (param(req, 'f') === 'json') {
      res.status(200).type('application/json').send(JSON.stringify({ 'subsonic-response': answer }));
      return;
    }
    res.status(200).type('text/xml; charset=utf-8').send(`<?xml version="1.0" encoding="UTF-8"?>\n${xmlElement('subsonic-response', { xmlns: 'http://subsonic.org/restapi', ...answer })}`);
  };
  const fail = (req: Request, res: Response, error: unknown): void => {
    const failure = failureOf(error);
    if (failure.code === CODE.GENERIC && !(error instanceof SubsonicFailure) && !(error instanceof AppError && error.code !== 'INTERNAL')) {
      services.logger.error({ err: error }, 'opensubsonic request failed');
    }
    send(req, res, 'failed', { error: { code: failure.code, message: failure.message } });
  };

  // The key: OpenSubsonic's apiKey (a trackgraph API key), then the gate as for any REST route.
  const authenticate: RequestHandler = (req, res, next) => {
    const apiKey = param(req, 'apiKey');
    if (apiKey !== undefined) {
      if (param(req, 'u') !== undefined || param(req, 't') !== undefined || param(req, 'p') !== undefined) {
        fail(req, res, new SubsonicFailure(CODE.CONFLICTING_AUTH, 'Multiple conflicting authentication mechanisms provided'));
        return;
      }
      req.headers.authorization = `Bearer ${apiKey}`;
    } else if (!req.headers.authorization) {
      const other = param(req, 'p') !== undefined || param(req, 't') !== undefined;
      fail(req, res, other
        ? new SubsonicFailure(CODE.AUTH_NOT_SUPPORTED, 'Provided authentication mechanism not supported: pass a trackgraph API key as apiKey')
        : new SubsonicFailure(CODE.MISSING_PARAMETER, 'Required parameter is missing: apiKey (a trackgraph API key)'));
      return;
    }
    gate(req, res, (error?: unknown) => {
      if (error === undefined) next();
      else fail(req, res, error);
    });
  };

  const methods: Record<string, (req: Request) => Promise<Body>> = {
    ping: () => Promise.resolve({}),
    getLicense: () => Promise.resolve({ license: { valid: true } }),
    getOpenSubsonicExtensions: () =>
      Promise.resolve({
        openSubsonicExtensions: [
          { name: 'apiKeyAuthentication', versions: [1] },
          { name: 'sonicSimilarity', versions: [1] },
        ],
      }),
    getSonicSimilarTracks: async (req) => {
      const found = await services.sonic.similar(required(req, 'id'), count(req, 'count', DEFAULT_SONIC_SIMILAR));
      return { sonicSimilarTracksResult: { sonicMatch: found.map(sonicMatch) } };
    },
    findSonicPath: async (req) => {
      const found = await services.sonic.path(required(req, 'startSongId'), required(req, 'endSongId'), count(req, 'count', DEFAULT_SONIC_PATH));
      return { findSonicPathResult: { sonicMatch: found.map(sonicMatch) } };
    },
  };

  // GET, and POST with a form body (OpenSubsonic's formPost).
  router.all('/rest/:method', express.urlencoded({ extended: false, limit: '16kb' }), authenticate, (req: Request<{ method: string }>, res, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      next();
      return;
    }
    const name = req.params.method.replace(/\.view$/, '');
    const method = methods[name];
    if (!method) {
      fail(req, res, new SubsonicFailure(CODE.GENERIC, `Unknown method ${name}: trackgraph serves ${Object.keys(methods).join(', ')}`));
      return;
    }
    method(req).then(
      (body) => send(req, res, 'ok', body),
      (error: unknown) => fail(req, res, error),
    );
  });
  return router;
}

/** A song as OpenSubsonic's sonicMatch: a Child with its distance. */
function sonicMatch(song: SonicSong): Body {
  return {
    id: song.id,
    isDir: false,
    title: song.analysis.trackName,
    artist: song.analysis.artist,
    duration: Math.round(song.analysis.features.durationMs / 1000),
    type: 'music',
    mediaType: 'song',
    isVideo: false,
    distance: song.distance,
  };
}

/** A parameter of the query or the form body (the last one, as servers read them), or undefined. */
function param(req: Request, name: string): string | undefined {
  const from = (source: unknown): string | undefined => {
    if (typeof source !== 'object' || source === null) return undefined;
    const value = (source as Record<string, unknown>)[name];
    const last: unknown = Array.isArray(value) ? (value as unknown[])[value.length - 1] : value;
    return typeof last === 'string' ? last : undefined;
  };
  return from(req.body) ?? from(req.query);
}

function required(req: Request, name: string): string {
  const value = param(req, name);
  if (value === undefined || value === '') throw new SubsonicFailure(CODE.MISSING_PARAMETER, `Required parameter is missing: ${name}`);
  return value;
}

function count(req: Request, name: string, fallback: number): number {
  const value = param(req, name);
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,6}$/.test(value)) throw new SubsonicFailure(CODE.GENERIC, `${name} must be a whole number`);
  return Number(value);
}

function failureOf(error: unknown): { code: number; message: string } {
  if (error instanceof SubsonicFailure) return { code: error.code, message: error.message };
  const shown = shownError(error);
  switch (shown.code) {
    case 'UNAUTHENTICATED':
      return { code: CODE.INVALID_API_KEY, message: `Invalid API key: ${shown.message}` };
    case 'TRACK_NOT_FOUND':
    case 'NOT_FOUND':
      return { code: CODE.NOT_FOUND, message: shown.message };
    default:
      return { code: CODE.GENERIC, message: shown.message };
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xmlText = (value: string): string => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ''); // eslint-disable-line no-control-regex

/**
 * An object as the Subsonic API's XML has it: scalars are attributes, objects are child
 * elements, a list is one child element per item (a list of scalars: elements holding text).
 */
function xmlElement(name: string, value: Body): string {
  const attributes: string[] = [];
  const children: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) {
        children.push(typeof item === 'object' && item !== null ? xmlElement(key, item as Body) : `<${key}>${xmlText(String(item))}</${key}>`);
      }
    } else if (typeof v === 'object') {
      children.push(xmlElement(key, v as Body));
    } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      attributes.push(` ${key}="${xmlText(String(v))}"`);
    }
  }
  return children.length === 0 ? `<${name}${attributes.join('')}/>` : `<${name}${attributes.join('')}>${children.join('')}</${name}>`;
}
