import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError, invalidArgument } from '../core/errors';
import { isOutboundRefusal, type OutboundGuard } from '../net/outbound.guard';
import { tooLarge } from './upload.receiver';
import type { UploadHints, UploadOutcome, UploadService } from './upload.service';

/** What a client asks to have analysed from the web: `{"url", "artist"?, "track"?}`. */
export interface UrlUpload {
  url?: unknown;
  artist?: unknown;
  track?: unknown;
}

export interface UploadFetchOptions {
  /** Longest the fetch may take, from the request to the body's last byte (UPLOAD_FETCH_TIMEOUT_MS). */
  timeoutMs: number;
}

const URL_MAX = 2048;

/**
 * Analyses the audio at a URL: fetched through the outbound guard (http and https only; a
 * loopback, private or link-local address refused, on every redirect hop, since each hop
 * connects through the guard's dispatcher), within a time limit for the whole transfer and the
 * upload's size limit, and streamed into the same path as an upload (a temporary file, the
 * sniffing, the decoding, the content hash, the naming). Nothing here runs a shell or an
 * external downloader.
 *
 * A remote that cannot be reached, answers other than 2xx, sends nothing in time or breaks off is
 * URL_UNREACHABLE (422: the request was understood, its URL leads nowhere usable); a URL leading
 * to a non-public address is URL_REFUSED (422), saying no more than that, so that the answer does
 * not map the server's network.
 */
export class UploadFetcher {
  constructor(
    private readonly uploads: UploadService,
    private readonly guard: OutboundGuard,
    private readonly options: UploadFetchOptions,
  ) {}

  async analyseUrl(input: UrlUpload, requesterId?: string): Promise<UploadOutcome> {
    const url = audioUrl(input.url);
    const hints: UploadHints = {};
    const artist = optionalText('artist', input.artist);
    const track = optionalText('track', input.track);
    if (artist !== undefined) hints.artist = artist;
    if (track !== undefined) hints.track = track;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    const unreachable = (why: string, cause?: unknown): AppError =>
      new AppError('URL_UNREACHABLE', `the audio at ${url.host} could not be fetched: ${why}`, cause === undefined ? undefined : { cause });
    const timeout = (): AppError => unreachable(`it was not sent within ${Math.round(this.options.timeoutMs / 1000)} s (UPLOAD_FETCH_TIMEOUT_MS)`);
    let body: Readable | undefined;
    let broken = false;
    try {
      let response: Response;
      try {
        response = await this.guard.fetch(url, { signal: controller.signal, redirect: 'follow', headers: { accept: 'audio/*, application/octet-stream;q=0.9, */*;q=0.1' } });
      } catch (error) {
        if (isOutboundRefusal(error)) throw new AppError('URL_REFUSED', `the url leads to an address this server does not fetch from (loopback, private or reserved); only public addresses are fetched`);
        if (timedOut) throw timeout();
        throw unreachable(connectionFailure(error), error);
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        throw unreachable(`it answered ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(declared) && declared > this.uploads.maxBytes) {
        await response.body.cancel().catch(() => undefined);
        throw tooLarge(this.uploads.maxBytes);
      }
      const filename = fileNameOf(new URL(response.url || url.href));
      body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      body.once('end', () => clearTimeout(timer));
      body.once('error', () => {
        broken = true;
      });
      try {
        return await this.uploads.upload(body, { ...hints, ...(filename ? { filename } : {}) }, requesterId);
      } catch (error) {
        if (timedOut && !body.readableEnded) throw timeout();
        if (broken && !(error instanceof AppError && error.code !== 'INVALID_ARGUMENT')) throw unreachable('the connection broke off before the end of the file', error);
        throw error;
      }
    } finally {
      clearTimeout(timer);
      // Past the size limit, or failed before its end: the rest of the body is not read.
      if (body && !body.readableEnded) body.destroy();
      controller.abort();
    }
  }
}

/** The URL a client gave, if it is one this server fetches: absolute http(s), no credentials, at most 2048 characters. */
export function audioUrl(value: unknown): URL {
  if (typeof value !== 'string' || value.trim() === '') throw invalidArgument('url: the address of an audio file (http or https)');
  if (value.length > URL_MAX) throw invalidArgument(`url: at most ${URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw invalidArgument('url: not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidArgument('url: only http and https URLs are fetched');
  if (url.username !== '' || url.password !== '') throw invalidArgument('url: credentials in the URL are not accepted');
  return url;
}

function optionalText(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidArgument(`${name}: a string`);
  return value;
}

/** The last segment of the URL's path, decoded: the name the upload would have had ("Artist - Title.mp3"). */
function fileNameOf(url: URL): string | undefined {
  const last = url.pathname.split('/').pop() ?? '';
  if (last === '') return undefined;
  try {
    return path.basename(decodeURIComponent(last));
  } catch {
    return last;
  }
}

/** Why a connection failed, in words that name no address: the host does not resolve, or it could not be connected to. */
function connectionFailure(error: unknown): string {
  let e: unknown = error;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'its host does not resolve';
    if (typeof message === 'string' && /redirect count exceeded/i.test(message)) return 'too many redirects';
    if (typeof message === 'string' && /scheme/i.test(message)) return 'it redirects to an address that is not http or https';
    e = (e as { cause?: unknown }).cause;
  }
  return 'the connection failed';
}
