import { MAX_NAME_LENGTH, nameProblem, tidyName } from '../../../src/core/name';
import { BrowseService } from '../../../src/analysis/browse.service';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import type { TracksQuery } from '../../../src/analysis/store/tracks.query';
import { nameRule, parse } from '../../../src/http/argument.rules';

describe('the name rule', () => {
  it('collapses whitespace runs to one space and trims', () => {
    expect(tidyName('  Pink \t\n Floyd  ')).toBe('Pink Floyd');
  });

  it('refuses an empty name and one over MAX_NAME_LENGTH, naming the field; accepts the longest', () => {
    expect(nameProblem('track', '')).toBe('track must not be empty');
    expect(nameProblem('artist', 'x'.repeat(MAX_NAME_LENGTH + 1))).toBe('artist must be at most 300 characters');
    expect(nameProblem('track', 'x'.repeat(MAX_NAME_LENGTH))).toBeUndefined();
  });

  it('refuses control characters (NUL, escape, DEL, C1) but not letters of any script', () => {
    for (const bad of ['a\u0000b', 'red\u001b[31m', 'x\u007f', 'y\u0085z']) {
      expect(nameProblem('track', tidyName(bad))).toBe('track must not contain control characters');
    }
    // Tabs and line breaks are whitespace: tidied to a space, not refused.
    expect(nameProblem('artist', tidyName('Sigur\tRós'))).toBeUndefined();
    expect(nameProblem('artist', tidyName('Björk · 坂本龍一 · Ибрагим'))).toBeUndefined();
  });

  it('the edges\' zod rule tidies as the rule does and refuses with its message', () => {
    expect(parse(nameRule('track'), '  Money \n')).toBe('Money');
    expect(() => parse(nameRule('track'), '   ')).toThrow('track must not be empty');
    // Counted after tidying: padding does not push a name over the limit.
    expect(parse(nameRule('track'), ` ${'x'.repeat(MAX_NAME_LENGTH)} `)).toHaveLength(MAX_NAME_LENGTH);
    expect(() => parse(nameRule('artist'), 'y'.repeat(MAX_NAME_LENGTH + 1))).toThrow('artist must be at most 300 characters');
    expect(() => parse(nameRule('artist'), 7)).toThrow('artist must be a single string');
  });

  it('browse text filters follow the same rule, as INVALID_ARGUMENT', () => {
    const browse = new BrowseService({} as TracksQuery, {} as AnalysisStore);
    const filterOf = (artist: string) => browse.pageRequest({ filter: { artist } }).filter;
    expect(filterOf(' Pink   Floyd ').artist).toBe('Pink Floyd');
    expect(filterOf(` ${'x'.repeat(MAX_NAME_LENGTH)} `).artist).toHaveLength(MAX_NAME_LENGTH);
    const refused = (artist: string): unknown => {
      try {
        filterOf(artist);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused('y'.repeat(MAX_NAME_LENGTH + 1))).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'filter.artist must be at most 300 characters' });
    expect(refused(' \t ')).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'filter.artist must not be empty' });
  });
});
