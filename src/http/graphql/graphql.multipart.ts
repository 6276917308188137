import { rm } from 'node:fs/promises';
import busboy from 'busboy';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, invalidArgument } from '../../core/errors';
import { receiveToFile } from '../../uploads/upload.receiver';
import { closeAfterAnswer } from '../http-server';
import { UploadedFile } from './upload.scalar';

export interface GraphQLMultipartOptions {
  /** Where the files are written while the operation runs (the uploads folder, emptied at start). */
  dir: string;
  /** UPLOAD_MAX_BYTES: a file past it is 413 PAYLOAD_TOO_LARGE, the rest of the body unread. */
  maxBytes: number;
  /** The largest `operations` and `map` fields, bytes (the JSON body's own limit). */
  maxFieldBytes: number;
}

const MULTIPART = /^multipart\/form-data\b/i;
/** The headers a browser sends only after a CORS preflight: Apollo's CSRF prevention wants one of them on a multipart POST. */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'] as const;
/** Files per request: one file, one analysis (send several requests, or batch them over JSON by URL). */
const MAX_FILES = 1;

/**
 * GraphQL multipart requests (graphql-multipart-request-spec, what Apollo Client's upload links
 * send): the field `operations` (the JSON body, its Upload variables null), the field `map`
 * (`{"0": ["variables.file"]}`: which part fills which variable), then the files. The files are
 * streamed to temporary files under the upload limit and put in the variables as UploadedFile,
 * so Apollo then runs the operation as it would a JSON body; the files are removed once the
 * answer is sent, whatever happened.
 *
 * CSRF: a multipart POST is a "simple" request a page on any origin may send with the browser's
 * cookies. Apollo's csrfPrevention refuses one without a preflighted header, but only after the
 * body was read, so the same rule is applied here first: without `Apollo-Require-Preflight` or
 * `X-Apollo-Operation-Name`, 400 before a byte of the files is read or written.
 */
export function graphqlMultipart(options: GraphQLMultipartOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || !MULTIPART.test(req.headers['content-type'] ?? '')) {
      next();
      return;
    }
    const closeAfter = (error: unknown): void => {
      // A body not read to its end: the rest is read and thrown away, and the connection closed after the answer.
      closeAfterAnswer(req, res);
      next(error);
    };
    if (!PREFLIGHT_HEADERS.some((h) => (req.headers[h] ?? '') !== '')) {
      closeAfter(
        invalidArgument(
          'this multipart request was refused as a possible cross-site request forgery: send the header "Apollo-Require-Preflight: true" (or "X-Apollo-Operation-Name") with it',
        ),
      );
      return;
    }
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > options.maxBytes + 2 * options.maxFieldBytes + 64 * 1024) {
      closeAfter(new AppError('PAYLOAD_TOO_LARGE', `the request is larger than this server accepts (UPLOAD_MAX_BYTES = ${options.maxBytes} bytes)`));
      return;
    }
    const files: string[] = [];
    res.on('close', () => {
      for (const file of files) void rm(file, { force: true });
    });
    readMultipart(req, options, files).then((body) => {
      req.body = body;
      next();
    }, closeAfter);
  };
}

/** The operations with their files in place, once the whole body is read and every file written. */
function readMultipart(req: Request, options: GraphQLMultipartOptions, files: string[]): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: MAX_FILES, fields: 4, fieldSize: options.maxFieldBytes, parts: MAX_FILES + 4 } });
    } catch (error) {
      reject(invalidArgument('the multipart body has no boundary', { cause: error }));
      return;
    }
    let operations: unknown;
    let map: Map<string, string[]> | undefined;
    const receiving: Promise<void>[] = [];
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      reject(error instanceof AppError ? error : invalidArgument('the multipart body cannot be read', { cause: error }));
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(invalidArgument(`the field "${name}" is longer than ${options.maxFieldBytes} bytes`));
      if (name === 'operations') {
        if (operations !== undefined) return fail(invalidArgument('one field "operations"'));
        try {
          operations = parseJson('operations', value);
        } catch (error) {
          return fail(error);
        }
        if (typeof operations !== 'object' || operations === null) fail(invalidArgument('the field "operations" is a JSON object (or an array of them, for a batch)'));
        return;
      }
      if (name === 'map') {
        if (operations === undefined) return fail(invalidArgument('the field "operations" comes first, then "map", then the files'));
        try {
          map = parseMap(parseJson('map', value), operations);
        } catch (error) {
          fail(error);
        }
        return;
      }
      fail(invalidArgument(`unexpected field "${name}": a multipart request has the fields "operations" and "map", then the files`));
    });
    parser.on('file', (name, stream, info) => {
      if (failed) {
        stream.resume();
        return;
      }
      const paths = map?.get(name);
      if (!map || !paths) {
        stream.resume();
        fail(invalidArgument(map ? `the file part "${name}" is not in "map"` : 'the fields "operations" and "map" come before the files'));
        return;
      }
      map.delete(name);
      receiving.push(
        receiveToFile(stream, options.dir, options.maxBytes).then(
          (received) => {
            files.push(received.path);
            const upload = new UploadedFile(received.path, info.filename || undefined, received.bytes, received.sha256);
            for (const p of paths) setAt(operations, p, upload);
          },
          (error: unknown) => fail(error),
        ),
      );
    });
    parser.on('filesLimit', () => fail(invalidArgument(`at most ${MAX_FILES} file per request`)));
    parser.on('partsLimit', () => fail(invalidArgument('too many parts: the fields "operations" and "map", then the files')));
    parser.on('fieldsLimit', () => fail(invalidArgument('too many fields: only "operations" and "map"')));
    parser.on('error', fail);
    parser.on('close', () => {
      void Promise.all(receiving).then(() => {
        if (failed) return;
        if (operations === undefined || map === undefined) return fail(invalidArgument('a multipart request has the fields "operations" and "map"'));
        if (map.size > 0) return fail(invalidArgument(`the files ${[...map.keys()].map((k) => `"${k}"`).join(', ')} named in "map" were not sent`));
        resolve(operations);
      });
    });
    req.pipe(parser);
  });
}

function parseJson(field: string, value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalidArgument(`the field "${field}" is not valid JSON`);
  }
}

/** `map`: each file part's name → the object paths it fills (`variables.file`, `0.variables.files.1` in a batch). */
function parseMap(value: unknown, operations: unknown): Map<string, string[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument('the field "map" is a JSON object: {"<part>": ["variables.<name>"]}');
  const map = new Map<string, string[]>();
  for (const [part, paths] of Object.entries(value)) {
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string')) {
      throw invalidArgument(`"map" of "${part}": a non-empty array of paths such as "variables.file"`);
    }
    for (const p of paths) {
      if (!isVariablePath(p, operations)) throw invalidArgument(`"map" of "${part}": "${p}" is not a path to a variable of "operations"`);
    }
    map.set(part, paths);
  }
  return map;
}

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/** A path into an operation's variables (its last segment may not exist yet): never into the query or onto a prototype. */
function isVariablePath(p: string, operations: unknown): boolean {
  const segments = p.split('.');
  if (segments.some((s) => s === '' || UNSAFE.has(s))) return false;
  const rest = Array.isArray(operations) ? (/^\d+$/.test(segments[0]!) ? segments.slice(1) : undefined) : segments;
  if (!rest || rest[0] !== 'variables' || rest.length < 2) return false;
  let node: unknown = operations;
  for (const s of segments.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, s)) return false;
    node = (node as Record<string, unknown>)[s];
  }
  return typeof node === 'object' && node !== null;
}

function setAt(root: unknown, p: string, value: unknown): void {
  const segments = p.split('.');
  let node = root as Record<string, unknown>;
  for (const s of segments.slice(0, -1)) node = node[s] as Record<string, unknown>;
  node[segments[segments.length - 1]!] = value;
}
