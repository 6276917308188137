import type { TrackCandidate } from '../core/types';
import type { Source, SourceCallContext } from './source';

/** A source that finds a recording by its ISRC (Deezer, MusicBrainz). */
export interface IsrcSource extends Source {
  /** The recording with this ISRC (capitals, no hyphens); undefined when the source has none. */
  byIsrc(isrc: string, context: SourceCallContext): Promise<TrackCandidate | undefined>;
}

export const isIsrcSource = (s: Source): s is IsrcSource => typeof (s as IsrcSource).byIsrc === 'function';
