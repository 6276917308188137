import { CompiledQuery } from 'kysely';
import { indexedByFeatures } from '../../../src/analysis/store/tracks.query';

describe('indexedByFeatures (SQLite INDEXED BY, which Kysely lacks)', () => {
  it('names the index after the one FROM of analyses, keeping the parameters; another table of a similar name is not it', () => {
    const q = CompiledQuery.raw('select seq from "analyses" where exists (select 1 from "analyses_features_x") and tempo > ?', [120]);
    const named = indexedByFeatures(q);
    expect(named.sql).toBe('select seq from "analyses" indexed by "analyses_features" where exists (select 1 from "analyses_features_x") and tempo > ?');
    expect(named.parameters).toEqual([120]);
  });

  it('refuses a statement with no FROM of analyses or with two, rather than reading it another way unsaid', () => {
    expect(() => indexedByFeatures(CompiledQuery.raw('select 1 from "analysis_tags"', []))).toThrow(/exactly one from "analyses"/);
    expect(() => indexedByFeatures(CompiledQuery.raw('select 1 from "analyses" where seq in (select seq from "analyses")', []))).toThrow(/exactly one/);
  });
});
