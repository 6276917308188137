import type { HttpClient } from '../http/http.client';
import { SourceHttpError } from '../http/http.errors';
import type { DeezerError, DeezerSearchResponse, DeezerTrack, DeezerTrackResponse } from './deezer.types';

/** Deezer's "no data" code: an answer, not a failure. */
const NO_DATA = 800;
const QUOTA = 4;
const BUSY = 700;

/** Audio types a preview may be served as. */
const AUDIO_TYPES = /^(audio\/.+|application\/octet-stream|binary\/octet-stream)$/;

/** The Deezer public API over a source's HttpClient. */
export class DeezerClient {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  async search(q: string, limit: number, signal: AbortSignal): Promise<DeezerTrack[]> {
    const url = new URL(`${this.baseUrl}/search`);
    url.searchParams.set('q', q);
    url.searchParams.set('limit', String(limit));
    const res = await this.http.getJson<DeezerSearchResponse>(url, {
      signal,
      inspect: inspect((b) => Array.isArray((b as DeezerSearchResponse).data)),
    });
    return res.body.data ?? [];
  }

  /** One track, for a fresh preview URL; undefined when Deezer has no such track. */
  async track(id: string, signal: AbortSignal): Promise<DeezerTrack | undefined> {
    if (!/^\d+$/.test(id)) return undefined;
    const res = await this.http.getJson<DeezerTrackResponse>(`${this.baseUrl}/track/${id}`, {
      signal,
      inspect: inspect((b) => typeof (b as DeezerTrackResponse).id === 'number' && typeof (b as DeezerTrackResponse).artist === 'object'),
    });
    return res.body.error ? undefined : (res.body as DeezerTrack);
  }

  /** The track with this ISRC (capitals, no hyphens); undefined when Deezer has none. */
  async trackByIsrc(isrc: string, signal: AbortSignal): Promise<DeezerTrack | undefined> {
    if (!/^[A-Z0-9]{12}$/.test(isrc)) return undefined;
    const res = await this.http.getJson<DeezerTrackResponse>(`${this.baseUrl}/track/isrc:${isrc}`, {
      signal,
      inspect: inspect((b) => typeof (b as DeezerTrackResponse).id === 'number' && typeof (b as DeezerTrackResponse).artist === 'object'),
    });
    return res.body.error ? undefined : (res.body as DeezerTrack);
  }

  preview(url: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    return this.http.download(url, { signal, maxBytes, acceptContentType: (t) => AUDIO_TYPES.test(t) });
  }
}

/**
 * Turns Deezer's HTTP-200 error objects into failures the retry policy understands: quota and
 * busy are retried (quota as RATE_LIMITED once retries run out), "no data" is an empty answer.
 * A body of neither shape counts against the circuit like malformed JSON.
 */
function inspect(isData: (body: object) => boolean) {
  return (body: unknown): void => {
    const error = typeof body === 'object' && body !== null ? (body as { error?: DeezerError }).error : undefined;
    if (!error) {
      if (typeof body === 'object' && body !== null && isData(body)) return;
      throw new SourceHttpError('answered an unexpected JSON shape', { kind: 'malformed', retryable: false, fault: true });
    }
    if (error.code === QUOTA) {
      throw new SourceHttpError(`quota exceeded (${error.message})`, { kind: 'quota', retryable: true, fault: false });
    }
    if (error.code === BUSY) {
      throw new SourceHttpError(`busy (${error.message})`, { kind: 'status', retryable: true, fault: true });
    }
    if (error.code === NO_DATA) return;
    throw new SourceHttpError(`error ${error.code} ${error.type}: ${error.message}`, { kind: 'status', retryable: false, fault: false });
  };
}
