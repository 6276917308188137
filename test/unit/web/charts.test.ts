import { fillDays } from '../../../web/src/charts/usage.days';
import { clock, keyName, ticks } from '../../../web/src/lib/format';
import { PITCH_CLASSES } from '../../../src/core/music';
import { stepSelection, timelineDomain } from '../../../web/src/track/timeline.geometry';

describe('chart geometry of the dashboard', () => {
  it('labels axes with round steps of 1, 2 or 5 times a power of ten', () => {
    expect(ticks(24, 4)).toEqual([0, 10, 20]);
    expect(ticks(100, 4)).toEqual([0, 50, 100]);
    expect(ticks(7, 4)).toEqual([0, 2, 4, 6]);
    expect(ticks(0.9, 3)).toEqual([0, 0.5]);
    expect(ticks(0, 4)).toEqual([0]);
    // Counts: no step below 1.
    expect(ticks(1, 4, 1)).toEqual([0, 1]);
    expect(ticks(3, 4, 1)).toEqual([0, 1, 2, 3]);
    expect(ticks(1, 4)).toEqual([0, 0.5, 1]);
  });

  it('draws the timeline over the span its beats, bars and sections cover', () => {
    // A 4-minute file analysed in a 30 s window from its middle.
    expect(timelineDomain([{ start: 105, duration: 10 }, { start: 115, duration: 20 }], 240)).toEqual({ from: 105, to: 135 });
    // Spans that cover the file: the whole file, from 0:00.
    expect(timelineDomain([{ start: 0.4, duration: 23.5 }], 24)).toEqual({ from: 0, to: 24 });
    // No spans at all: the whole file.
    expect(timelineDomain([], 12.5)).toEqual({ from: 0, to: 12.5 });
  });

  it('moves the section selection with arrow keys, Home and End, within bounds', () => {
    expect(stepSelection('ArrowRight', -1, 3)).toBe(0);
    expect(stepSelection('ArrowRight', 1, 3)).toBe(2);
    expect(stepSelection('ArrowRight', 2, 3)).toBe(2);
    expect(stepSelection('ArrowLeft', 0, 3)).toBe(0);
    expect(stepSelection('End', 0, 3)).toBe(2);
    expect(stepSelection('Home', 2, 3)).toBe(0);
    expect(stepSelection('Tab', 1, 3)).toBeUndefined();
    expect(stepSelection('ArrowRight', -1, 0)).toBeUndefined();
  });

  it('fills the days of a usage period without rows with zeros, oldest first', () => {
    const days = fillDays([{ day: '2026-11-22', requests: 5, analyses: 1 }], 3, new Date('2026-11-23T10:00:00Z'));
    expect(days).toEqual([
      { day: '2026-11-21', requests: 0, analyses: 0 },
      { day: '2026-11-22', requests: 5, analyses: 1 },
      { day: '2026-11-23', requests: 0, analyses: 0 },
    ]);
  });

  it('writes keys and times as the API and people do', () => {
    expect(keyName(PITCH_CLASSES, 9, 0)).toBe('A minor');
    expect(keyName(PITCH_CLASSES, 1, 1)).toBe('C# major');
    expect(clock(83.9)).toBe('1:23');
  });
});
