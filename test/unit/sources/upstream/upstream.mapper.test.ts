import { NEUTRAL, toCandidates, toStoredAnalysis } from '../../../../src/sources/upstream/upstream.mapper';
import type { UpstreamAnalysisResponse, UpstreamSearchResponse } from '../../../../src/sources/upstream/upstream.types';
import { sourceFixture } from '../../../helpers/fake-http';

describe('upstream mapper', () => {
  it('maps search results: their key as the locator, their match_score as the source score; drops invalid ones', () => {
    const response = sourceFixture<UpstreamSearchResponse>('upstream/search-money.json');
    const candidates = toCandidates(response.data);
    expect(candidates).toHaveLength(2);
    expect(candidates[0]).toEqual({
      artist: 'Pink Floyd',
      trackName: 'Money',
      thumbnailUrl: 'https://i.scdn.co/image/ab67616d00001e02ea7caaff71dea1051d49b2fe',
      source: 'upstream',
      sourceId: 'bc24aaa5a97c70ed',
      sourceScore: 1,
      audio: { source: 'upstream', locator: 'bc24aaa5a97c70ed' },
    });
    expect(candidates[1]?.thumbnailUrl).toBeUndefined();
  });

  it('maps the contract analysis to features, with neutral values for fields the contract lacks', () => {
    const response = sourceFixture<UpstreamAnalysisResponse>('upstream/analysis-money.json');
    const stored = toStoredAnalysis(response.data!, new Date('2026-01-01T00:00:00Z'));
    expect(stored).toMatchObject({
      trackKey: 'bc24aaa5a97c70ed',
      artist: 'Pink Floyd',
      trackName: 'Money',
      source: 'upstream',
      analysedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(stored.features).toMatchObject({
      durationMs: 382_813,
      tempo: 123.2,
      key: 11,
      mode: 0,
      timeSignature: 7,
      energy: 0.541,
      mood: { happy: 0.31, sad: 0.22, relaxed: 0.48, aggressive: 0.14 },
      loudness: NEUTRAL.loudness,
      confidence: NEUTRAL.confidence,
      timeline: { beats: [], bars: [], sections: [] },
      engine: 'upstream',
    });
  });

  it('keeps loudness, confidences and timeline when the upstream sends them', () => {
    const response = sourceFixture<UpstreamAnalysisResponse>('upstream/analysis-money.json');
    const timeline = { beats: [{ start: 0.5, duration: 0.49, confidence: 0.9 }], bars: [], sections: [] };
    const stored = toStoredAnalysis({
      ...response.data!,
      loudness: -9.5,
      confidence: { tempo: 0.8, key: 0.7, mode: 0.6, timeSignature: 0.5 },
      timeline,
      engine: 'trackgraph-1',
    });
    expect(stored.features.loudness).toBe(-9.5);
    expect(stored.features.confidence.key).toBe(0.7);
    expect(stored.features.timeline).toEqual(timeline);
    expect(stored.features.engine).toBe('upstream:trackgraph-1');
  });

  it('keeps the tempo alternatives another server of this project sends, and drops them (the record kept) when out of range', () => {
    const response = sourceFixture<UpstreamAnalysisResponse>('upstream/analysis-money.json');
    const alternatives = [{ tempo: 61.2, confidence: 0.21 }];
    expect(toStoredAnalysis({ ...response.data!, tempoAlternatives: alternatives }).features.tempoAlternatives).toEqual(alternatives);
    const outOfRange = toStoredAnalysis({ ...response.data!, tempoAlternatives: [{ tempo: 61.2, confidence: 3 }] });
    expect(outOfRange.features).not.toHaveProperty('tempoAlternatives');
    expect(outOfRange.features.tempo).toBe(response.data!.tempo);
    expect(toStoredAnalysis(response.data!).features).not.toHaveProperty('tempoAlternatives');
  });

  it('keeps the tuning another server of this project sends, and drops it (the record kept) when it is no tuning', () => {
    const response = sourceFixture<UpstreamAnalysisResponse>('upstream/analysis-money.json');
    expect(toStoredAnalysis({ ...response.data!, tuningHz: 443.1 }).features.tuningHz).toBe(443.1);
    for (const wrong of [44310, 'A440', -1]) {
      const kept = toStoredAnalysis({ ...response.data!, tuningHz: wrong });
      expect(kept.features).not.toHaveProperty('tuningHz');
      expect(kept.features.tempo).toBe(response.data!.tempo);
    }
  });

  it('when another server of this project sends the tagger’s tags, then they are kept; out of range or too many, dropped and the rest kept', () => {
    const response = sourceFixture<UpstreamAnalysisResponse>('upstream/analysis-money.json');
    const tags = [{ name: 'rock', probability: 0.41 }, { name: '70s', probability: 0.2 }];
    expect(toStoredAnalysis({ ...response.data!, tags }).features.tags).toEqual(tags);
    for (const bad of [
      [{ name: 'rock', probability: 2 }],
      [{ name: '', probability: 0.1 }],
      [{ name: 'rock\u0000', probability: 0.1 }],
      Array.from({ length: 51 }, (_, i) => ({ name: `tag ${i}`, probability: 0.1 })),
      'rock',
    ]) {
      const stored = toStoredAnalysis({ ...response.data!, tags: bad });
      expect(stored.features).not.toHaveProperty('tags');
      expect(stored.features.tempo).toBe(response.data!.tempo);
    }
  });
});
