import { pickDescriptors } from '../core/descriptors';
import { keyString } from '../core/music';
import type { StoredAnalysis, TrackAnalysis } from '../core/types';

/** The contract's analysis object for a stored analysis, field for field, descriptors in the registry's order. */
export function toContractAnalysis(stored: StoredAnalysis): TrackAnalysis {
  const f = stored.features;
  return {
    artist: stored.artist,
    trackKey: stored.trackKey,
    trackName: stored.trackName,
    duration_ms: Math.round(f.durationMs),
    tempo: f.tempo,
    key: f.key,
    keyString: keyString(f.key, f.mode),
    mode: f.mode,
    timeSignature: f.timeSignature,
    ...pickDescriptors(f),
    mood: { ...f.mood },
    meta: { artist: stored.artist, track: stored.trackName },
  };
}
