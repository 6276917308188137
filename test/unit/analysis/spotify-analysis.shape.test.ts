import { tatumsOf, toSpotifyAudioAnalysis } from '../../../src/analysis/spotify-analysis.shape';
import type { Segment, StoredAnalysis } from '../../../src/core/types';
import { syntheticAnalysis } from '../../../measure/store/synthetic-analyses';

const SEGMENT: Segment = {
  start: 30.5,
  duration: 0.25,
  confidence: 0.8,
  loudnessStart: -40,
  loudnessMax: -12.5,
  loudnessMaxTime: 0.046,
  loudnessEnd: -30,
  pitches: [1, 0, 0, 0, 0.5, 0, 0, 0.7, 0, 0, 0, 0],
  timbre: [40, 12, -3, 1, 0, 0, 0, 0, 0, 0, 0, 0.5],
};

/** An analysis of a window from 30 s to 42 s: three beats, one bar, two sections, one segment. */
function analysis(overrides: Partial<StoredAnalysis['features']> = {}): StoredAnalysis {
  const base = syntheticAnalysis(7);
  return {
    ...base,
    analysedAt: '2026-01-02T03:04:05.678Z',
    features: {
      ...base.features,
      durationMs: 180_000,
      tempo: 120,
      key: 9,
      mode: 0,
      timeSignature: 4,
      confidence: { tempo: 0.7, key: 0.6, mode: 0.55, timeSignature: 0.4 },
      timeline: {
        beats: [
          { start: 30.5, duration: 0.5, confidence: 0.9 },
          { start: 31, duration: 0.5, confidence: 0.3 },
          { start: 31.5, duration: 0.4, confidence: 1 },
        ],
        bars: [{ start: 30.5, duration: 2, confidence: 0.5 }],
        sections: [
          { start: 30, duration: 6, confidence: 1, loudness: -9, tempo: 120, tempoConfidence: 0.6, key: 9, keyConfidence: 0.5, mode: 0, modeConfidence: 0.6 },
          { start: 36, duration: 6, confidence: 0.4, loudness: -7, tempo: 121, tempoConfidence: 0.5, key: 2, keyConfidence: 0, mode: 1, modeConfidence: 0.5 },
        ],
        segments: [SEGMENT],
      },
      tempoAlternatives: [{ tempo: 60, confidence: 0.2 }],
      engine: 'trackgraph-engine/11',
      ...overrides,
    },
  };
}

describe('toSpotifyAudioAnalysis', () => {
  it('has Spotify’s top-level objects and the track’s fields, the window read off the sections', () => {
    const a = toSpotifyAudioAnalysis(analysis());
    expect(Object.keys(a).sort()).toEqual(['bars', 'beats', 'meta', 'sections', 'segments', 'tatums', 'track']);
    expect(a.meta).toMatchObject({ analyzer_version: 'trackgraph-engine/11', status_code: 0, timestamp: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000 });
    expect(a.track).toMatchObject({
      duration: 180,
      num_samples: 180 * 22050,
      offset_seconds: 30,
      window_seconds: 12,
      tempo: 120,
      tempo_confidence: 0.7,
      tempo_alternatives: [{ tempo: 60, confidence: 0.2 }],
      key: 9,
      key_confidence: 0.6,
      mode: 0,
      time_signature: 4,
      time_signature_confidence: 0.4,
    });
  });

  it('writes segments in Spotify’s snake_case, values unchanged', () => {
    expect(toSpotifyAudioAnalysis(analysis()).segments).toEqual([
      {
        start: 30.5,
        duration: 0.25,
        confidence: 0.8,
        loudness_start: -40,
        loudness_max: -12.5,
        loudness_max_time: 0.046,
        loudness_end: -30,
        pitches: SEGMENT.pitches,
        timbre: SEGMENT.timbre,
      },
    ]);
  });

  it('gives each section the track’s time signature, and key -1 where the section’s key has no confidence', () => {
    const [first, second] = toSpotifyAudioAnalysis(analysis()).sections;
    expect(first).toMatchObject({ key: 9, key_confidence: 0.5, tempo_confidence: 0.6, mode: 0, time_signature: 4, time_signature_confidence: 0.4 });
    expect(second).toMatchObject({ key: -1, key_confidence: 0, mode: 1 });
  });

  it('answers an analysis older than engine 11 with no segments and no tempo alternatives, and key -1 when the key is unknown', () => {
    const old = analysis({ timeline: { ...analysis().features.timeline, segments: undefined }, confidence: { tempo: 0.7, key: 0, mode: 0, timeSignature: 0.4 } });
    delete old.features.tempoAlternatives;
    const a = toSpotifyAudioAnalysis(old);
    expect(a.segments).toEqual([]);
    expect(a.track.tempo_alternatives).toEqual([]);
    expect(a.track.key).toBe(-1);
    expect(a.beats).toHaveLength(3);
  });

  it('answers an empty timeline (another server’s analysis) with empty lists and a window of 0', () => {
    const a = toSpotifyAudioAnalysis(analysis({ timeline: { beats: [], bars: [], sections: [] } }));
    expect([a.bars, a.beats, a.tatums, a.sections, a.segments]).toEqual([[], [], [], [], []]);
    expect(a.track).toMatchObject({ offset_seconds: 0, window_seconds: 0 });
  });
});

describe('tatumsOf', () => {
  it('halves every beat, each half with its beat’s confidence, so the tatums tile the beats', () => {
    const beats = analysis().features.timeline.beats;
    expect(tatumsOf(beats)).toEqual([
      { start: 30.5, duration: 0.25, confidence: 0.9 },
      { start: 30.75, duration: 0.25, confidence: 0.9 },
      { start: 31, duration: 0.25, confidence: 0.3 },
      { start: 31.25, duration: 0.25, confidence: 0.3 },
      { start: 31.5, duration: 0.2, confidence: 1 },
      { start: 31.7, duration: 0.2, confidence: 1 },
    ]);
  });
});
