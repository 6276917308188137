import type { HttpClient } from '../http/http.client';
import { SourceHttpError } from '../http/http.errors';
import type { MbIsrcResponse, MbRecording, MbRecordingSearchResponse, MbUrlResponse } from './musicbrainz.types';

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

  /** The recordings with this ISRC (capitals, no hyphens), artists and releases included; none when MusicBrainz has no such ISRC (404). */
  async recordingsByIsrc(isrc: string, signal: AbortSignal): Promise<MbRecording[]> {
    if (!/^[A-Z0-9]{12}$/.test(isrc)) return [];
    const url = new URL(`${this.baseUrl}/isrc/${isrc}`);
    url.searchParams.set('inc', 'artist-credits releases');
    url.searchParams.set('fmt', 'json');
    const res = await this.http.getJson<MbIsrcResponse>(url, {
      signal,
      acceptStatus: [404],
      inspect: (body, status) => {
        if (status === 404) return;
        if (typeof body !== 'object' || body === null || !Array.isArray((body as MbIsrcResponse).recordings)) {
          throw new SourceHttpError('answered an unexpected JSON shape', { kind: 'malformed', retryable: false, fault: true });
        }
      },
    });
    return res.status === 404 ? [] : (res.body.recordings ?? []);
  }

  /**
   * The ids of the recordings MusicBrainz relates to this URL (`/url?resource=…&inc=recording-rels`),
   * in its order; none when it does not know the URL (404) or relates it to no recording.
   */
  async recordingIdsByUrl(resource: string, signal: AbortSignal): Promise<string[]> {
    const url = new URL(`${this.baseUrl}/url`);
    url.searchParams.set('resource', resource);
    url.searchParams.set('inc', 'recording-rels');
    url.searchParams.set('fmt', 'json');
    const res = await this.http.getJson<MbUrlResponse>(url, {
      signal,
      acceptStatus: [404],
      inspect: (body, status) => {
        if (status === 404) return;
        const relations = (body as MbUrlResponse | null)?.relations;
        if (typeof body !== 'object' || body === null || (relations !== undefined && !Array.isArray(relations))) {
          throw new SourceHttpError('answered an unexpected JSON shape', { kind: 'malformed', retryable: false, fault: true });
        }
      },
    });
    if (res.status === 404) return [];
    return (res.body.relations ?? []).flatMap((r) => (r['target-type'] === 'recording' && typeof r.recording?.id === 'string' ? [r.recording.id] : []));
  }

  /** One recording with its artists, releases and ISRCs; undefined when MusicBrainz has no such id (404). */
  async recording(id: string, signal: AbortSignal): Promise<MbRecording | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const url = new URL(`${this.baseUrl}/recording/${id}`);
    url.searchParams.set('inc', 'artist-credits releases isrcs');
    url.searchParams.set('fmt', 'json');
    const res = await this.http.getJson<MbRecording>(url, {
      signal,
      acceptStatus: [404],
      inspect: (body, status) => {
        if (status === 404) return;
        if (typeof body !== 'object' || body === null || typeof (body as MbRecording).title !== 'string') {
          throw new SourceHttpError('answered an unexpected JSON shape', { kind: 'malformed', retryable: false, fault: true });
        }
      },
    });
    return res.status === 404 ? undefined : res.body;
  }
}
