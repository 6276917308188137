import { TEMPO_RANGE_LIMITS, parseTempoRange, tempoInRange, tempoRangeFlag, withTempoRange } from '../../../src/core/tempo-range';

/** An analysis' tempo part: the chosen tempo with its confidence, and the runner-ups. */
const analysed = (tempo: number, confidence: number, ...alternatives: [number, number][]) => ({
  tempo,
  confidence: { tempo: confidence, key: 0.5, mode: 0.5, timeSignature: 0.5 },
  tempoAlternatives: alternatives.map(([t, c]) => ({ tempo: t, confidence: c })),
});

describe('a BPM range (parseTempoRange)', () => {
  it.each([
    ['70-140', 70, 140],
    ['70..140', 70, 140],
    [' 85.5 - 171 ', 85.5, 171],
  ])('reads "%s" as %d to %d BPM', (text, min, max) => {
    expect(parseTempoRange(text)).toEqual({ min, max });
  });

  it.each(['140-70', '70-70', `${TEMPO_RANGE_LIMITS.min - 1}-100`, `100-${TEMPO_RANGE_LIMITS.max + 1}`, '70', 'fast', '70-', '-70-140', ''])(
    'refuses "%s", saying what a range is',
    (text) => {
      expect(() => parseTempoRange(text)).toThrow(/a BPM range is two tempi from 20 to 400, the lower first, as 70-140/);
    },
  );
});

describe('the --bpm-range flag of the command lines (tempoRangeFlag)', () => {
  it('when the flag is absent, then there is no range and nothing is refused', () => {
    expect(tempoRangeFlag(undefined)).toEqual({});
  });

  it('when the flag holds a range, then it is parsed', () => {
    expect(tempoRangeFlag('85-170')).toEqual({ range: { min: 85, max: 170 } });
  });

  it('when the flag holds no range, then the refusal names the flag and what a range is', () => {
    expect(tempoRangeFlag('170-85')).toEqual({ refused: expect.stringMatching(/^--bpm-range: a BPM range is two tempi from 20 to 400, the lower first, as 70-140; not "170-85"$/) as unknown });
  });
});

describe('the tempo counted within a range (tempoInRange)', () => {
  it('keeps the engine\'s tempo where the range holds it', () => {
    expect(tempoInRange(analysed(128, 0.8, [64, 0.15]), { min: 70, max: 140 })).toEqual({ tempo: 128, confidence: 0.95, alternatives: [] });
  });

  it('takes the alternative at the other octave inside the range, with the grid\'s summed probability', () => {
    // Drum and bass read at its half: a crate counted at 160-180 gets the double.
    expect(tempoInRange(analysed(87, 0.6, [174, 0.3]), { min: 160, max: 180 })).toEqual({ tempo: 174, confidence: 0.9, alternatives: [] });
  });

  it('halves or doubles the tempo into the range where no level of its grid lies there', () => {
    expect(tempoInRange(analysed(174.2, 0.7), { min: 60, max: 120 })).toMatchObject({ tempo: 87.1, confidence: 0.7 });
    expect(tempoInRange(analysed(45, 0.7), { min: 70, max: 140 })).toMatchObject({ tempo: 90 });
    expect(tempoInRange(analysed(200, 0.7), { min: 40, max: 60 })).toMatchObject({ tempo: 50 });
  });

  it('chooses the beat grid, not the level: another grid\'s octaves summed can outweigh the engine\'s choice', () => {
    // 80 and 160 are one grid (0.6 together) against 120 (0.4), a 3:2 apart.
    const read = tempoInRange(analysed(120, 0.4, [80, 0.35], [160, 0.25]), { min: 100, max: 200 });
    expect(read).toEqual({ tempo: 160, confidence: 0.6, alternatives: [{ tempo: 120, confidence: 0.4 }] });
    // The grid of the engine's choice wins ties and keeps a 3:2 runner-up as an alternative.
    expect(tempoInRange(analysed(150, 0.6, [100, 0.25], [75, 0.1]), { min: 60, max: 120 })).toEqual({
      tempo: 75,
      confidence: 0.7,
      alternatives: [{ tempo: 100, confidence: 0.25 }],
    });
  });

  it('counts levels within 4 % of an octave as one grid, and no further', () => {
    expect(tempoInRange(analysed(120, 0.5, [62, 0.3]), { min: 50, max: 100 })).toMatchObject({ tempo: 62, confidence: 0.8 });
    expect(tempoInRange(analysed(120, 0.5, [64, 0.3]), { min: 50, max: 100 })).toMatchObject({ tempo: 60, confidence: 0.5 });
  });

  it('takes the octave nearest a range narrower than an octave that holds none', () => {
    expect(tempoInRange(analysed(90, 0.7), { min: 100, max: 120 })).toMatchObject({ tempo: 90 });
    expect(tempoInRange(analysed(130, 0.7), { min: 100, max: 120 })).toMatchObject({ tempo: 130 });
    expect(tempoInRange(analysed(230, 0.7), { min: 100, max: 120 })).toMatchObject({ tempo: 115 });
  });

  it('leaves no tempo as none', () => {
    expect(tempoInRange(analysed(0, 0), { min: 70, max: 140 })).toEqual({ tempo: 0, confidence: 0, alternatives: [] });
  });

  it('changes only the tempo, its confidence and its alternatives of the features', () => {
    const features = { ...analysed(170, 0.55, [85, 0.35]), key: 4, timeline: { beats: [{ start: 0.5, duration: 0.35, confidence: 1 }] } };
    expect(withTempoRange(features, { min: 70, max: 140 })).toEqual({
      ...features,
      tempo: 85,
      confidence: { ...features.confidence, tempo: 0.9 },
      tempoAlternatives: [],
    });
  });
});
