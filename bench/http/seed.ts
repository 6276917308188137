import { trackKey } from '../../src/core/track-key';
import type { StoredAnalysis } from '../../src/core/types';

/**
 * A synthetic stored analysis for load benchmarks (the shape of a real one, values made up: a
 * benchmark measures serving, not analysing).
 */
export function syntheticAnalysis(i: number): StoredAnalysis {
  const r = (k: number): number => ((i * 7919 + k * 104729) % 1000) / 1000;
  const artist = `Bench Artist ${i % 997}`;
  const trackName = `Bench Track ${i}`;
  return {
    trackKey: trackKey(artist, trackName),
    artist,
    trackName,
    analysedAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    source: 'library',
    features: {
      durationMs: 120_000 + i,
      tempo: 70 + r(1) * 110,
      key: i % 12,
      mode: i % 2,
      timeSignature: i % 5 === 0 ? 3 : 4,
      loudness: -20 + r(2) * 14,
      energy: r(3),
      liveness: r(4),
      danceability: r(5),
      instrumentalness: r(6),
      speechiness: r(7),
      valence: r(8),
      arousal: r(9),
      approachability: r(10),
      engagement: r(11),
      mood: { happy: r(12), sad: r(13), relaxed: r(14), aggressive: r(15) },
      confidence: { tempo: r(16), key: r(17), mode: r(18), timeSignature: r(19) },
      timeline: { beats: [], bars: [], sections: [] },
      engine: 'synthetic',
    },
  };
}
