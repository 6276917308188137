import type { TrackCandidate } from '../core/types';
import type { Source, SourceCallContext } from './source';

/** A source that knows which recording a Spotify track is (MusicBrainz, by its URL relationships). */
export interface SpotifyLinkSource extends Source {
  /** The recording linked to this Spotify track id (22 base-62 characters); undefined when none is. */
  bySpotifyTrack(spotifyId: string, context: SourceCallContext): Promise<TrackCandidate | undefined>;
}

export const isSpotifyLinkSource = (s: Source): s is SpotifyLinkSource => typeof (s as SpotifyLinkSource).bySpotifyTrack === 'function';

/** The canonical URL of a Spotify track, as MusicBrainz stores it. */
export const spotifyTrackUrl = (spotifyId: string): string => `https://open.spotify.com/track/${spotifyId}`;
