import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ERROR_CODES, type ErrorCode } from '../../core/errors';
import type { HttpClient } from '../http/http.client';
import { parseRetryAfter } from '../http/http.client';
import { SourceHttpError, isSourceHttpError } from '../http/http.errors';
import type { UpstreamAnalysisResponse, UpstreamErrorResponse, UpstreamSearchResponse, UpstreamSearchResult } from './upstream.types';

/** Codes of the remote server that mean the same here and are passed on as they are. */
const PASSED_ON: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'TRACK_NOT_FOUND',
  'NO_AUDIO_SOURCE',
  'AUDIO_UNDECODABLE',
  'ANALYSIS_TIMEOUT',
  'INVALID_ARGUMENT',
  'RATE_LIMITED',
]);

export interface UpstreamClientOptions {
  baseUrl: string;
  /** Longest wait between two polls of an analysis that is not ready, whatever Retry-After says, ms. */
  maxPollDelayMs: number;
}

/** Another server of this contract over a source's HttpClient (which carries the Bearer key). */
export class UpstreamClient {
  constructor(
    private readonly http: HttpClient,
    private readonly options: UpstreamClientOptions,
  ) {}

  async search(track: string, artist: string | undefined, limit: number, signal: AbortSignal): Promise<UpstreamSearchResult[]> {
    const url = new URL(`${this.options.baseUrl}/audio/search`);
    url.searchParams.set('track', track);
    if (artist) url.searchParams.set('artist', artist);
    url.searchParams.set('limit', String(limit));
    const res = await this.call(() =>
      this.http.getJson<UpstreamSearchResponse>(url, {
        signal,
        inspect: (body) => {
          if (!isObject(body) || body.success !== true || !Array.isArray(body.data)) throw unexpected();
        },
      }),
    );
    return res.body.data;
  }

  /**
   * The analysis of `trackKey`, as the remote server sent it (unchecked: the mapper checks it,
   * outside the circuit breaker); while the remote server answers 202 (queued or processing) it
   * is asked again after its Retry-After, until it answers or `signal` gives up.
   */
  async analysis(trackKey: string, artist: string, track: string, signal: AbortSignal): Promise<unknown> {
    const url = new URL(`${this.options.baseUrl}/audio/analysis/${encodeURIComponent(trackKey)}`);
    url.searchParams.set('artist', artist);
    url.searchParams.set('track', track);
    for (;;) {
      const res = await this.call(() =>
        this.http.getJson<UpstreamAnalysisResponse>(url, {
          signal,
          acceptStatus: [202],
          // Only the envelope is checked here: a server that does not speak the contract counts
          // against the circuit, a record out of range does not (it is content, not an outage).
          inspect: (body) => {
            if (!isObject(body) || body.success !== true || !('data' in body)) throw unexpected();
          },
        }),
      );
      if (res.status !== 202) return res.body.data;
      const retryAfterMs =
        parseRetryAfter(res.headers.get('retry-after')) ??
        (typeof res.body.retryAfter === 'number' ? res.body.retryAfter * 1000 : 1000);
      try {
        await sleep(Math.min(retryAfterMs, this.options.maxPollDelayMs), undefined, { signal });
      } catch {
        throw new AppError('UPSTREAM_TIMEOUT', `source upstream: the analysis of ${trackKey} was not ready in time; try again later`, {
          retryAfterS: Math.max(1, Math.ceil(retryAfterMs / 1000)),
        });
      }
    }
  }

  /** Passes the remote server's own error codes on where they mean the same here. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const cause = error instanceof AppError ? error.cause : undefined;
      if (!isSourceHttpError(cause)) throw error;
      const remote = remoteError(cause.body);
      if (remote && PASSED_ON.has(remote.code)) {
        throw new AppError(remote.code, `upstream: ${remote.message}`, {
          cause,
          ...(error instanceof AppError && error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
        });
      }
      if (cause.status === 401 || cause.status === 403) {
        throw new AppError('UPSTREAM_UNAVAILABLE', 'source upstream refused our API key (check UPSTREAM_API_KEY)', { cause });
      }
      throw error;
    }
  }
}

function remoteError(body: unknown): { code: ErrorCode; message: string } | undefined {
  if (!isObject(body) || body.success !== false || !isObject(body.error)) return undefined;
  const { code, message } = (body as unknown as UpstreamErrorResponse).error;
  if (!(ERROR_CODES as readonly string[]).includes(code)) return undefined;
  return { code: code as ErrorCode, message: typeof message === 'string' ? message : code };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const unexpected = (): SourceHttpError =>
  new SourceHttpError('answered an unexpected JSON shape', { kind: 'malformed', retryable: false, fault: true });
