import { toContractAnalysis } from '../../../src/analysis/contract';
import type { AudioFeatures, StoredAnalysis } from '../../../src/core/types';

const features: AudioFeatures = {
  durationMs: 382_833.6, tempo: 123.4, key: 1, mode: 1, timeSignature: 3, loudness: -9.5, energy: 0.71, liveness: 0.12,
  danceability: 0.64, instrumentalness: 0.02, speechiness: 0.05, acousticness: 0.2, valence: 0.55, arousal: 0.6, approachability: 0.7,
  engagement: 0.66, mood: { happy: 0.5, sad: 0.3, relaxed: 0.2, aggressive: 0.4 },
  confidence: { tempo: 0.9, key: 0.8, mode: 0.7, timeSignature: 0.6 },
  timeline: { beats: [{ start: 1, duration: 0.5, confidence: 1 }], bars: [], sections: [] },
  engine: 'trackgraph-engine/3',
};

const stored: StoredAnalysis = {
  trackKey: 'bc24aaa5a97c70ed', artist: 'Pink Floyd', trackName: 'Money', features,
  analysedAt: '2026-01-01T00:00:00.000Z', source: 'library',
};

describe('toContractAnalysis', () => {
  it('when a stored analysis is shaped for the contract, then it has exactly the contract’s fields', () => {
    const a = toContractAnalysis(stored);
    expect(Object.keys(a).sort()).toEqual(
      [
        'artist', 'trackKey', 'trackName', 'duration_ms', 'tempo', 'key', 'keyString', 'mode', 'timeSignature', 'energy',
        'liveness', 'danceability', 'instrumentalness', 'speechiness', 'acousticness', 'valence', 'arousal', 'approachability',
        'engagement', 'mood', 'meta',
      ].sort(),
    );
    expect(a).toMatchObject({
      artist: 'Pink Floyd', trackName: 'Money', trackKey: 'bc24aaa5a97c70ed', duration_ms: 382_834, keyString: 'C# major',
      timeSignature: 3, meta: { artist: 'Pink Floyd', track: 'Money' }, mood: features.mood,
    });
    expect(Number.isInteger(a.duration_ms)).toBe(true);
  });

  it('when the mood object of the result is changed, then the stored features are not', () => {
    const a = toContractAnalysis(stored);
    a.mood.happy = 0;
    expect(stored.features.mood.happy).toBe(0.5);
  });
});
