import type { HttpClient } from '../http/http.client';
import { SourceHttpError } from '../http/http.errors';
import type { MbRecording, MbRecordingSearchResponse } from './musicbrainz.types';

/** The MusicBrainz web service over a source's HttpClient. */
export class MusicBrainzClient {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  async searchRecordings(query: string, limit: number, signal: AbortSignal): Promise<MbRecording[]> {
    const url = new URL(`${this.baseUrl}/recording`);
    url.searchParams.set('query', query);
    url.searchParams.set('fmt', 'json');
    url.searchParams.set('limit', String(Math.min(100, Math.max(1, limit))));
    const res = await this.http.getJson<MbRecordingSearchResponse>(url, {
      signal,
      inspect: (body) => {
        if (typeof body !== 'object' || body === null || !Array.isArray((body as MbRecordingSearchResponse).recordings)) {
          throw new SourceHttpError('answered an unexpected JSON shape', { kind: 'malformed', retryable: false, fault: true });
        }
      },
    });
    return res.body.recordings ?? [];
  }
}
