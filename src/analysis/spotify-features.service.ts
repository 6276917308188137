import { AppError, invalidArgument } from '../core/errors';
import type { StoredAnalysis, TrackMetadata } from '../core/types';
import type { AnalysisOutcome, AnalysisService } from './analysis.service';
import { MAX_SPOTIFY_IDS, parseSpotifyId, type SpotifyId } from './spotify.shape';

/**
 * Finds the track an id other than a trackKey names, and remembers its metadata so that its
 * analysis can find the audio. undefined: no source knows it.
 */
export interface TrackIdLookup {
  /** The recording with this ISRC (capitals, no hyphens). */
  byIsrc(isrc: string): Promise<TrackMetadata | undefined>;
  /** The recording linked to this Spotify track id (absent: no source links recordings to Spotify). */
  bySpotifyId?(spotifyId: string): Promise<TrackMetadata | undefined>;
}

/**
 * Audio features by the ids Spotify's clients send: our trackKey, `isrc:<ISRC>`, or
 * `spotify:track:<id>`. One id is analysed when it is not stored yet (as the contract's analysis
 * route does); a batch reads stored analyses only.
 */
export class SpotifyFeaturesService {
  constructor(
    private readonly analysis: AnalysisService,
    private readonly lookup?: TrackIdLookup,
  ) {}

  /** The analysis of one id: stored, else computed (or queued); TRACK_NOT_FOUND when nothing names it. */
  async one(id: string, requesterId?: string): Promise<AnalysisOutcome> {
    const parsed = parseSpotifyId(id);
    const trackKey = await this.trackKeyOf(parsed);
    if (trackKey === undefined) throw new AppError('TRACK_NOT_FOUND', notFound(parsed));
    return this.analysis.analysis(trackKey, undefined, requesterId);
  }

  /** Stored analyses of up to 100 ids, in their order, null where an id names none. Starts no analysis. */
  async many(ids: readonly string[]): Promise<(StoredAnalysis | null)[]> {
    if (ids.length === 0) throw invalidArgument('ids must name at least one id');
    if (ids.length > MAX_SPOTIFY_IDS) throw invalidArgument(`at most ${MAX_SPOTIFY_IDS} ids per request (got ${ids.length})`);
    const parsed = ids.map(parseSpotifyId);
    const keys = await Promise.all(parsed.map((p) => this.trackKeyOf(p)));
    const known = [...new Set(keys.filter((k): k is string => k !== undefined))];
    const stored = known.length > 0 ? await this.analysis.storedMany(known) : [];
    const byKey = new Map(known.map((k, i) => [k, stored[i] ?? null]));
    return keys.map((k) => (k === undefined ? null : (byKey.get(k) ?? null)));
  }

  /** The trackKey an id names; undefined when no source knows it. */
  async trackKeyOf(id: SpotifyId): Promise<string | undefined> {
    switch (id.kind) {
      case 'trackKey':
        return id.trackKey;
      case 'isrc':
        return (await this.lookup?.byIsrc(id.isrc))?.trackKey;
      case 'spotify':
        return (await this.lookup?.bySpotifyId?.(id.spotifyId))?.trackKey;
    }
  }
}

function notFound(id: SpotifyId): string {
  switch (id.kind) {
    case 'trackKey':
      return `unknown trackKey ${id.trackKey}`;
    case 'isrc':
      return `no source knows ISRC ${id.isrc}`;
    case 'spotify':
      return `no recording is linked to spotify:track:${id.spotifyId} (MusicBrainz links recordings to Spotify when it is enabled)`;
  }
}
