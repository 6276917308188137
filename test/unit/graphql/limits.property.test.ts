import fc from 'fast-check';
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { FragmentCycleError, checkDocument, measureDocument, type DocumentMeasure } from '../../../src/http/graphql/graphql.limits';
import { countingVisits, documents } from '../../../measure/http/graphql-documents';

/** Expands every spread, as the old depth rule did; gives up past `cap` selections. */
function naiveMeasure(document: DocumentNode, cap: number): DocumentMeasure | 'too big' {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(d.name.value)) fragments.set(d.name.value, d);
  const total: DocumentMeasure = { depth: 0, introspectionDepth: 0, selections: 0, aliases: 0, directives: 0 };
  const walk = (set: SelectionSetNode, level: number, introspectionFrom: number | undefined): void => {
    for (const s of set.selections) {
      if (++total.selections > cap) throw new Error('too big');
      total.directives += s.directives?.length ?? 0;
      if (s.kind === Kind.FIELD) {
        if (s.alias) total.aliases++;
        const from = introspectionFrom ?? (s.name.value === '__schema' || s.name.value === '__type' ? level : undefined);
        if (from === undefined) total.depth = Math.max(total.depth, level + 1);
        else total.introspectionDepth = Math.max(total.introspectionDepth, level + 1);
        if (s.selectionSet) walk(s.selectionSet, level + 1, from);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, level, introspectionFrom);
      else {
        const f = fragments.get(s.name.value);
        if (!f) continue;
        total.directives += f.directives?.length ?? 0;
        walk(f.selectionSet, level, introspectionFrom);
      }
    }
  };
  const spread = new Set<string>();
  const collect = (set: SelectionSetNode): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) spread.add(s.name.value);
      else if (s.selectionSet) collect(s.selectionSet);
    }
  };
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) collect(d.selectionSet);
  try {
    for (const d of document.definitions) {
      if (d.kind === Kind.OPERATION_DEFINITION) {
        total.directives += d.directives?.length ?? 0;
        walk(d.selectionSet, 0, undefined);
      }
    }
    for (const [name, f] of fragments) {
      if (spread.has(name)) continue;
      total.directives += f.directives?.length ?? 0;
      walk(f.selectionSet, 0, undefined);
    }
  } catch {
    return 'too big';
  }
  return total;
}

const limits = fc.record({
  maxTokens: fc.integer({ min: 100, max: 5000 }),
  maxDepth: fc.integer({ min: 1, max: 20 }),
  maxSelections: fc.integer({ min: 1, max: 5000 }),
  maxAliases: fc.integer({ min: 0, max: 300 }),
  maxDirectives: fc.integer({ min: 0, max: 200 }),
});

describe('GraphQL document limits, on generated documents (fan-out, cycles, aliases, directives)', () => {
  it('answers every document with a verdict, never an exception', () => {
    fc.assert(
      fc.property(documents, limits, ({ query }, l) => {
        const refusal = checkDocument(query, l);
        if (refusal) expect(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED']).toContain(refusal.code);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses exactly the documents with a fragment cycle as cycles', () => {
    fc.assert(
      fc.property(documents, ({ query, cyclic }) => {
        if (cyclic) expect(() => measureDocument(parse(query))).toThrow(FragmentCycleError);
        else expect(() => measureDocument(parse(query))).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('visits each selection set at most twice (outside and inside introspection), whatever the document expands to', () => {
    fc.assert(
      fc.property(
        documents.filter((d) => !d.cyclic),
        ({ query }) => {
          const { document, visits, selectionSets } = countingVisits(parse(query));
          measureDocument(document);
          expect(visits()).toBeLessThanOrEqual(2 * selectionSets);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('measures what a full expansion counts, when the expansion is small enough to count', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        documents.filter((d) => !d.cyclic),
        ({ query }) => {
          const document = parse(query);
          const naive = naiveMeasure(document, 20_000);
          if (naive === 'too big') return;
          compared++;
          expect(measureDocument(document)).toEqual(naive);
        },
      ),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(100);
  });
});
