import {
  decodeCursor,
  encodeCursor,
  featureDistance,
  fifthsPosition,
  fifthsSteps,
  keyNeighbourhood,
  type SimilarityFeatures,
} from '../../../src/analysis/browse.service';

const base: SimilarityFeatures = {
  tempo: 120, key: 0, mode: 1, energy: 0.5, liveness: 0.1, danceability: 0.6, instrumentalness: 0.2, speechiness: 0.05, acousticness: 0.3,
  valence: 0.6, arousal: 0.5, approachability: 0.7, engagement: 0.5, mood_happy: 0.6, mood_sad: 0.2, mood_relaxed: 0.3, mood_aggressive: 0.1,
};

describe('circle of fifths', () => {
  it('places a minor key at its relative major: A minor with C major, E minor with G major', () => {
    expect(fifthsPosition(9, 0)).toBe(fifthsPosition(0, 1));
    expect(fifthsPosition(4, 0)).toBe(fifthsPosition(7, 1));
  });

  it('counts steps the short way round: C–G 1, C–F 1, C–F# 6, C–E 4', () => {
    const c = { key: 0, mode: 1 };
    expect(fifthsSteps(c, { key: 7, mode: 1 })).toBe(1);
    expect(fifthsSteps(c, { key: 5, mode: 1 })).toBe(1);
    expect(fifthsSteps(c, { key: 6, mode: 1 })).toBe(6);
    expect(fifthsSteps(c, { key: 4, mode: 1 })).toBe(4);
  });

  it('the neighbourhood of C major: C, G, F major and their relative minors A, E, D', () => {
    const pairs = keyNeighbourhood(0, 1).map((p) => `${p.key}${p.mode ? 'M' : 'm'}`).sort();
    expect(pairs).toEqual(['0M', '2m', '4m', '5M', '7M', '9m'].sort());
  });
});

describe('featureDistance', () => {
  it('is 0 for identical features and symmetric', () => {
    const other = { ...base, tempo: 90, key: 3, energy: 0.9 };
    expect(featureDistance(base, base)).toBe(0);
    expect(featureDistance(base, other)).toBeCloseTo(featureDistance(other, base), 12);
  });

  it('weighs tempo by ratio: 60 vs 66 BPM as far as 120 vs 132; half an octave counts 1', () => {
    expect(featureDistance({ ...base, tempo: 60 }, { ...base, tempo: 66 })).toBeCloseTo(
      featureDistance({ ...base, tempo: 120 }, { ...base, tempo: 132 }),
      12,
    );
    expect(featureDistance(base, { ...base, tempo: 120 * Math.SQRT2 })).toBeCloseTo(1, 12);
  });

  it('a relative minor is nearer than a distant major key: C major–A minor 0.5, C major–F# major 1', () => {
    expect(featureDistance(base, { ...base, key: 9, mode: 0 })).toBeCloseTo(0.5, 12);
    expect(featureDistance(base, { ...base, key: 6 })).toBeCloseTo(1, 12);
  });

  it('adds each descriptor and mood difference in quadrature', () => {
    expect(featureDistance(base, { ...base, energy: 0.8, mood_happy: 0.2 })).toBeCloseTo(Math.hypot(0.3, 0.4), 12);
  });
});

describe('cursors', () => {
  it('round-trip the ordering and position', () => {
    const c = { field: 'MOOD_HAPPY' as const, direction: 'DESC' as const, value: 0.123456789, seq: 42 };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
  });

  it.each([
    ['garbage', 'not base64 json'],
    ['unknown field', Buffer.from(JSON.stringify(['toString', 'ASC', 1, 1])).toString('base64url')],
    ['bad direction', Buffer.from(JSON.stringify(['TEMPO', 'UP', 1, 1])).toString('base64url')],
    ['fractional seq', Buffer.from(JSON.stringify(['TEMPO', 'ASC', 1, 1.5])).toString('base64url')],
    ['too long', 'x'.repeat(300)],
  ])('refuse %s with INVALID_ARGUMENT', (_label, text) => {
    expect(() => decodeCursor(text)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
