import busboy from 'busboy';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { restAnalysis } from './audio.routes';
import type { Principal } from '../../auth/api-keys';
import { AppError, invalidArgument } from '../../core/errors';
import { tooLarge } from '../../uploads/upload.receiver';
import { closeAfterAnswer } from '../http-server';
import type { UploadFetcher } from '../../uploads/upload.fetcher';
import type { UploadHints, UploadOutcome, UploadService } from '../../uploads/upload.service';

const MULTIPART = /^multipart\/form-data\b/i;
const RAW = /^(audio\/[\w.+-]+|application\/octet-stream)\s*(;|$)/i;
const JSON_BODY = /^application\/json\s*(;|$)/i;
/** The URL form's body: a URL and two names. */
const readJson = express.json({ limit: '16kb' });
/** What a form's own bytes (boundaries, part headers, the fields) may add to its file's. */
const FORM_ALLOWANCE = 64 * 1024;

function query(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * POST /api/audio/analyses: the audio as the body (audio/* or application/octet-stream; artist,
 * track and filename in the query) or as multipart/form-data (the field `file`, optional fields
 * `artist` and `track`). Answers as the analysis route does: 200 with the contract's object, or
 * 202 with Retry-After; both with Location naming the analysis. Any key may upload. With a
 * fetcher, a JSON body `{"url", "artist"?, "track"?}` has the audio at that URL fetched and
 * analysed the same way.
 */
export function uploadRoutes(uploads: UploadService, gate: RequestHandler, fetcher?: UploadFetcher): Router {
  const router = Router();
  router.post('/api/audio/analyses', gate, async (req: Request, res: Response, next) => {
    if (fetcher && JSON_BODY.test(req.headers['content-type'] ?? '')) {
      readJson(req, res, (error?: unknown) => {
        if (error) {
          next(error);
          return;
        }
        const body: unknown = req.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          next(invalidArgument('the JSON body is an object: {"url": "https://…/song.mp3", "artist"?, "track"?}'));
          return;
        }
        fetcher.analyseUrl(body as Record<string, unknown>, (res.locals.principal as Principal | undefined)?.id).then((result) => answer(res, result), next);
      });
      return;
    }
    const requester = (res.locals.principal as Principal | undefined)?.id;
    const type = req.headers['content-type'] ?? '';
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    try {
      // Too large by its own account, or more than the key's quota has left: refused before a byte of it is read.
      const allowance = MULTIPART.test(type) ? FORM_ALLOWANCE : 0;
      if (Number.isFinite(declared) && declared > uploads.maxBytes + allowance) throw tooLarge(uploads.maxBytes);
      await uploads.admit(requester, Number.isFinite(declared) ? declared : undefined, allowance);
      let result: UploadOutcome;
      if (MULTIPART.test(type)) result = await multipart(req, uploads, requester);
      else if (RAW.test(type)) {
        const hints: UploadHints = {};
        for (const name of ['artist', 'track', 'filename'] as const) {
          const v = query(req, name);
          if (v !== undefined) hints[name] = v;
        }
        result = await uploads.upload(req, hints, requester);
      } else {
        throw new AppError(
          'UNSUPPORTED_MEDIA',
          `send the audio as the body (Content-Type audio/* or application/octet-stream) or as multipart/form-data with the field "file"${fetcher ? ', or its URL as application/json {"url": …}' : ''}`,
        );
      }
      answer(res, result);
    } catch (error) {
      // A body not read to its end: the rest is read and thrown away, and the connection closed after the answer.
      closeAfterAnswer(req, res);
      throw error;
    }
  });
  return router;
}

function answer(res: Response, { trackKey, outcome }: UploadOutcome): void {
  res.setHeader('Location', `/api/audio/analysis/${trackKey}`);
  if (outcome.status !== 'done') {
    res
      .status(202)
      .set('Retry-After', String(outcome.retryAfterS))
      .json({ success: true, data: null, trackKey, status: outcome.status, queuePosition: outcome.queuePosition, retryAfter: outcome.retryAfterS });
    return;
  }
  res.json({ success: true, data: restAnalysis(outcome.analysis) });
}

/** One file (the field `file`) and the fields beside it, which may come before or after it. */
function multipart(req: Request, uploads: UploadService, requester: string | undefined): Promise<UploadOutcome> {
  return new Promise<UploadOutcome>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 8, fieldSize: 1024, parts: 10 } });
    } catch (error) {
      reject(invalidArgument('the multipart body has no boundary', { cause: error }));
      return;
    }
    const fields: UploadHints = {};
    let started: Promise<UploadOutcome> | undefined;
    let fieldsDone!: (hints: UploadHints) => void;
    const hints = new Promise<UploadHints>((done) => {
      fieldsDone = done;
    });
    const fail = (error: unknown): void => {
      req.unpipe(parser);
      reject(error instanceof AppError ? error : invalidArgument('the multipart body cannot be read', { cause: error }));
    };
    parser.on('field', (name, value) => {
      if (name === 'artist' || name === 'track') fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || started) {
        stream.resume();
        return;
      }
      started = uploads.upload(stream, hints.then((h) => ({ ...h, ...(info.filename ? { filename: info.filename } : {}) })), requester);
      started.then(resolve, fail);
    });
    parser.on('filesLimit', () => fail(invalidArgument('one file per upload')));
    parser.on('close', () => {
      fieldsDone(fields);
      if (!started) reject(invalidArgument('the multipart body has no field "file"'));
    });
    parser.on('error', fail);
    // A client going away mid-body (a browser cancelling its upload): a pipe does not pass that
    // on, so busboy would wait for the rest for ever, and so would the file it feeds, its
    // partial file left behind. Destroyed, busboy ends that file with the error.
    req.once('close', () => {
      if (!req.readableEnded) parser.destroy(new Error('the client went away before the end of the body'));
    });
    req.pipe(parser);
  });
}
