import { getIntrospectionQuery, parse } from 'graphql';
import {
  FragmentCycleError,
  MAX_INTROSPECTION_DEPTH,
  MAX_OVERLAPS,
  checkDocument,
  measureDocument,
  overlaps,
  type DocumentLimits,
} from '../../../src/http/graphql/graphql.limits';
import { ATTACKS, aliasSpam, countingVisits, directiveSpam, fanOut, fanOutSelections, nestedSchema } from '../../../measure/http/graphql-documents';

const LIMITS: DocumentLimits = { maxTokens: 3000, maxDepth: 12, maxSelections: 1000, maxAliases: 100, maxDirectives: 50 };

describe('GraphQL document measure', () => {
  it.each([8, 10])('measures a fan-out of %i levels of 8 spreads by visiting each selection set once', (levels) => {
    const { document, visits, selectionSets } = countingVisits(parse(fanOut(levels)));
    const measure = measureDocument(document);
    expect(measure.selections).toBe(fanOutSelections(levels));
    expect(measure.selections).toBeGreaterThan(8 ** levels);
    expect(visits()).toBe(selectionSets);
  });

  it('counts fields, aliases and directives once per expansion, and depth through fragments without adding any', () => {
    const m = measureDocument(
      parse(`query Q @a { a: x { ...F ...F ... on T @b { y } } }
        fragment F on T @c { b: y z { w @d } }`),
    );
    // x, 2 × (spread, y, z, w), inline fragment, y
    expect(m.selections).toBe(1 + 2 * 4 + 2);
    expect(m.aliases).toBe(1 + 2);
    // @a, @b, and per spread of F: @c on the definition and @d inside it
    expect(m.directives).toBe(2 + 2 * 2);
    expect(m.depth).toBe(3);
  });

  it('counts introspection apart from depth: the standard introspection query is 15 deep there and 0 here', () => {
    const m = measureDocument(parse(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true })));
    expect(m.depth).toBe(0);
    expect(m.introspectionDepth).toBe(15);
    expect(m.introspectionDepth).toBeLessThanOrEqual(MAX_INTROSPECTION_DEPTH);
    expect(measureDocument(parse(nestedSchema(40))).introspectionDepth).toBe(40);
    expect(measureDocument(parse('{ a { b { __type(name: "X") { name } } } }'))).toMatchObject({ depth: 2, introspectionDepth: 4 });
  });

  it('counts the fragments no operation spreads (validation reads them before refusing them)', () => {
    expect(measureDocument(parse(`{ a } fragment Unused on Query { ${'b '.repeat(20)}}`)).selections).toBe(21);
  });

  it.each([
    ['itself', '{ ...A } fragment A on Query { a ...A }'],
    ['another', '{ ...A } fragment A on Query { a ...B } fragment B on Query { b { ...A } }'],
    ['itself from inside introspection', '{ __schema { types { ...T } } } fragment T on __Type { name ofType { ...T } }'],
    ['itself, unspread by any operation', '{ a } fragment A on Query { ...B } fragment B on Query { ...A }'],
  ])('throws FragmentCycleError for a fragment that spreads %s', (_case, query) => {
    expect(() => measureDocument(parse(query))).toThrow(FragmentCycleError);
  });
});

describe('GraphQL overlaps (the pairs graphql-js compares to merge fields)', () => {
  it('counts pairs of one response name at one place, through fragments and between sibling fields', () => {
    expect(overlaps(parse('{ a a b }'), 100)).toBe(1);
    expect(overlaps(parse('{ x { a } x { a } }'), 100)).toBe(1 + 1);
    expect(overlaps(parse('{ x { ...F ...G } } fragment F on T { a } fragment G on T { a b }'), 100)).toBe(1 + 1);
    expect(overlaps(parse('{ a: b b: a }'), 100)).toBe(0);
  });

  it('stops as soon as the budget is spent, without expanding the rest', () => {
    const query = `{ ${'x { y } '.repeat(200)} }`;
    const { document, visits, selectionSets } = countingVisits(parse(query));
    expect(overlaps(document, 50)).toBeGreaterThan(50);
    // One pass over the document for its spreads, then the root place only: its 200
    // same-named fields exceed the budget before the place of their children is opened.
    expect(visits()).toBe(selectionSets + 1);
  });
});

describe('GraphQL document limits', () => {
  it.each(Object.entries(ATTACKS))('refuses %s with GRAPHQL_VALIDATION_FAILED naming the limit', (_name, query) => {
    const refusal = checkDocument(query, LIMITS);
    expect(refusal).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: expect.any(Object) });
  });

  it('says which limit: depth, introspection depth, selections, aliases, directives, overlaps', () => {
    const deep = `{ ${'a { '.repeat(13)}b${' }'.repeat(13)} }`;
    expect(checkDocument(deep, LIMITS)).toMatchObject({ limit: { maxDepth: 12 }, message: expect.stringMatching(/more than 12 levels deep/) });
    expect(checkDocument(nestedSchema(40), LIMITS)?.limit).toEqual({ maxIntrospectionDepth: MAX_INTROSPECTION_DEPTH });
    expect(checkDocument(fanOut(10), LIMITS)?.limit).toEqual({ maxSelections: 1000 });
    expect(checkDocument(aliasSpam(101), LIMITS)?.limit).toEqual({ maxAliases: 100 });
    expect(checkDocument(aliasSpam(100), LIMITS)).toBeUndefined();
    expect(checkDocument(directiveSpam(51), LIMITS)?.limit).toEqual({ maxDirectives: 50 });
    expect(checkDocument(directiveSpam(50), LIMITS)).toBeUndefined();
    const repeated = `{ analysis(trackKey: "x") { ${'mood { happy } '.repeat(60)}} }`;
    expect(checkDocument(repeated, LIMITS)?.limit).toEqual({ maxOverlaps: MAX_OVERLAPS });
  });

  it('accepts the standard introspection query and a document just within every limit', () => {
    expect(checkDocument(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true, oneOf: true }), LIMITS)).toBeUndefined();
    expect(checkDocument(fanOut(2, 8), LIMITS)).toBeUndefined();
    expect(checkDocument(nestedSchema(MAX_INTROSPECTION_DEPTH), LIMITS)).toBeUndefined();
  });

  it('refuses a fragment cycle as graphql-js would, without recursing forever', () => {
    expect(checkDocument('{ ...A } fragment A on Query { ...A }', LIMITS)).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', message: 'Cannot spread fragment "A" within itself.' });
  });

  it('refuses past the token limit unparsed, and a document nested past the parser’s stack, as parse failures', () => {
    expect(checkDocument(`{ ${'a '.repeat(3001)}}`, LIMITS)).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', message: expect.stringMatching(/3000 tokens/) });
    const overflow = checkDocument(`${'{ a '.repeat(100_000)}${'}'.repeat(100_000)}`, { ...LIMITS, maxTokens: 1_000_000 });
    expect(overflow?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(checkDocument('{ a', LIMITS)).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', locations: [{ line: 1, column: 4 }] });
  });
});
