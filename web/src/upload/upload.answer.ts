/** Where the dashboard sends a file: the REST upload (docs/API.md, POST /api/audio/analyses). */
export const UPLOAD_URL = '/api/audio/analyses';

/** The names of an analysed track, enough to open its page. */
export interface Analysed {
  trackKey: string;
  artist: string;
  trackName: string;
}

/** What an answer of the upload (or of the analysis it names) means to the page. */
export type Answer =
  | { kind: 'done'; analysis: Analysed }
  | { kind: 'pending'; trackKey: string; location: string; retryAfterS: number; status: string; queuePosition: number | null }
  | { kind: 'failed'; problem: UploadProblem };

/** A refusal or a failure: the HTTP status (0 when no answer came), the API's code and message. */
export interface UploadProblem {
  status: number;
  code?: string;
  message: string;
  retryAfterS?: number;
}

interface Body {
  success?: unknown;
  data?: unknown;
  trackKey?: unknown;
  status?: unknown;
  queuePosition?: unknown;
  retryAfter?: unknown;
  error?: { code?: unknown; message?: unknown };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function parse(text: string): Body | null {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null ? body : null;
  } catch {
    return null;
  }
}

/** Seconds of a Retry-After header (delta-seconds; an HTTP date is not sent by this API), else of the body. */
function seconds(header: string | null, body: unknown): number | undefined {
  const n = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : typeof body === 'number' ? body : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The trackKey a Location names (`/api/audio/analysis/{trackKey}`). */
function keyOf(location: string | null): string | undefined {
  const match = location ? /\/api\/audio\/analysis\/([^/?#]+)/.exec(location) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/**
 * Reads one answer of POST /api/audio/analyses or GET /api/audio/analysis/{trackKey}: 200 with the
 * contract's analysis object, 202 with Retry-After and Location (the upload's; a poll keeps the
 * one it asked), or `{success:false, error:{code,message}}`. `asked` is the URL a poll asked.
 */
export function answerOf(status: number, text: string, headers: { location: string | null; retryAfter: string | null }, asked?: string): Answer {
  const body = parse(text);
  const data = body?.data;
  if (status === 200 && typeof data === 'object' && data !== null) {
    const d = data as Record<string, unknown>;
    const trackKey = str(d['trackKey']);
    if (trackKey) return { kind: 'done', analysis: { trackKey, artist: str(d['artist']) ?? '', trackName: str(d['trackName']) ?? '' } };
  }
  if (status === 202) {
    const location = headers.location ?? asked;
    const trackKey = str(body?.trackKey) ?? keyOf(location ?? null);
    if (location && trackKey) {
      const position = body?.queuePosition;
      return {
        kind: 'pending',
        trackKey,
        location,
        retryAfterS: seconds(headers.retryAfter, body?.retryAfter) ?? 2,
        status: str(body?.status) ?? 'queued',
        queuePosition: typeof position === 'number' ? position : null,
      };
    }
  }
  const code = str(body?.error?.code);
  const message = str(body?.error?.message) ?? (status >= 200 && status < 300 ? 'the server gave an answer the dashboard cannot read' : `the server answered ${status}`);
  const retryAfterS = seconds(headers.retryAfter, undefined);
  return { kind: 'failed', problem: { status, ...(code ? { code } : {}), message, ...(retryAfterS !== undefined ? { retryAfterS } : {}) } };
}

/** A byte count for people: bytes, KiB or MiB. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

/** The limit a PAYLOAD_TOO_LARGE message names (`UPLOAD_MAX_BYTES = n bytes`), when it names one. */
function limitOf(message: string): number | undefined {
  const match = /=\s*(\d+)\s*bytes/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** What went wrong, in words: what the code means for this file, then the server's own reason. */
export function describeProblem(problem: UploadProblem): string {
  const { code, message, status } = problem;
  if (status === 0) return `The upload did not reach the server, or its answer did not come back: ${message}. Check the connection and try again.`;
  if (code === 'PAYLOAD_TOO_LARGE' || status === 413) {
    const limit = limitOf(message);
    return limit !== undefined ? `This file is too large: the server accepts files of up to ${byteSize(limit)}.` : `This file is too large for the server: ${message}.`;
  }
  if (code === 'UNSUPPORTED_MEDIA' || status === 415) return `This file is not audio the server can read (MP3, FLAC, WAV, Ogg, M4A and the others the documentation lists): ${message}.`;
  if (code === 'AUDIO_UNDECODABLE' || status === 422) return `The audio in this file could not be decoded (it may be cut short or damaged): ${message}.`;
  if (code === 'RATE_LIMITED' || status === 429) {
    const wait = problem.retryAfterS !== undefined ? ` Try again in ${problem.retryAfterS} s.` : ' Try again shortly.';
    return `Too many requests with this key.${wait}`;
  }
  if (status === 400) return `The upload was refused: ${message}.`;
  if (status === 401 || status === 403) return `The key was refused: ${message}.`;
  if (status >= 500) return `The server failed to analyse the file: ${message}. Try again later.`;
  return `The analysis failed: ${message}.`;
}
