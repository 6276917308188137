import fc from 'fast-check';
import { Kind, visit, type DocumentNode, type SelectionSetNode } from 'graphql';

/*
 * GraphQL documents that expand: the shapes an attacker sends to stall a server (fragment
 * fan-out, nested introspection, alias and directive spam, cycles), and generators of random
 * documents built from the same parts, for property tests.
 */

/** `levels` fragments each spreading the previous one `spreads` times, on a leaf of Query. */
export function fanOut(levels: number, spreads = 8, leaf = 'trackKey(artist: "a", track: "b")'): string {
  const fragments = [`fragment F0 on Query { ${leaf} }`];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Query { ${Array(spreads).fill(`...F${i - 1}`).join(' ')} }`);
  return `query FanOut { ...F${levels} } ${fragments.join(' ')}`;
}

/** Selections in fanOut(levels, spreads): each spread and each field counts once per expansion. */
export function fanOutSelections(levels: number, spreads = 8): number {
  let fragment = 1;
  for (let i = 1; i <= levels; i++) fragment = spreads * (1 + fragment);
  return 1 + fragment;
}

/** `__schema { types { ofType { ofType … } } }`, `levels` deep in all. */
export function nestedSchema(levels: number): string {
  let inner = 'name';
  for (let i = 3; i < levels; i++) inner = `ofType { ${inner} }`;
  return `{ __schema { types { ${inner} } } }`;
}

export function aliasSpam(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ')} }`;
}

export function directiveSpam(count: number): string {
  return `{ __typename ${'@include(if: true) '.repeat(count)}}`;
}

/** The documents issue reports and tests replay, by name. */
export const ATTACKS: Record<string, string> = {
  'fan-out of 8 levels, 8 spreads each': fanOut(8),
  'fan-out of 10 levels, 8 spreads each': fanOut(10),
  '__schema nested 40 levels': nestedSchema(40),
  '500 aliases': aliasSpam(500),
  '300 directives': directiveSpam(300),
};

/** Counts reads of every selection set's `selections` in a document (each read is one visit). */
export function countingVisits(document: DocumentNode): { document: DocumentNode; visits: () => number; selectionSets: number } {
  let visits = 0;
  let selectionSets = 0;
  const counted = visit(document, {
    SelectionSet: {
      leave(node: SelectionSetNode) {
        selectionSets++;
        const { selections } = node;
        const copy = { ...node };
        Object.defineProperty(copy, 'selections', {
          get: () => {
            visits++;
            return selections;
          },
        });
        return copy;
      },
    },
  });
  return { document: counted, visits: () => visits, selectionSets };
}

/** Parts of a generated document, all valid GraphQL syntax; the schema may still refuse them. */
interface FragmentSpec {
  /** Spreads of other fragments, by index: lower ones make fan-out, higher or equal ones may make cycles. */
  spreads: number[];
  fields: string[];
}

/** Fields of the schema (and, rarely, one it lacks): what comes before the directives, and the selection after them. */
const FIELD = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      ['__typename', ''],
      ['trackKey(artist: "a", track: "b")', ''],
      ['analysisStatus(trackKey: "0123456789abcdef")', '{ status trackKey }'],
      ['analysis(trackKey: "0123456789abcdef")', '{ tempo mood { happy } }'],
      ['search(track: "x", limit: 2)', '{ trackKey }'],
      ['__schema', '{ queryType { name } }'],
    ),
  },
  { weight: 1, arbitrary: fc.constant(['unknownField', '']) },
);

/** Directives on one field: ones fields take, and (rarely) ones they do not or twice the same. */
const DIRECTIVES = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom([], ['@include(if: true)'], ['@skip(if: false)'], ['@include(if: false)'], ['@include(if: true)', '@skip(if: false)']) },
  { weight: 1, arbitrary: fc.constantFrom(['@deprecated'], ['@unknown'], ['@skip(if: false)', '@skip(if: true)']) },
);

/** A field, sometimes aliased (aliases drawn widely, so that they seldom clash), with a few directives. */
const selection = fc
  .tuple(FIELD, fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined }), DIRECTIVES)
  .map(([[head, body], alias, directives]) => `${alias === undefined ? '' : `x${alias}: `}${head} ${directives.join(' ')} ${body}`);

const fragmentSpec = (count: number): fc.Arbitrary<FragmentSpec> =>
  fc.record({
    spreads: fc.array(fc.integer({ min: 0, max: count - 1 }), { maxLength: 10 }),
    fields: fc.array(selection, { maxLength: 3 }),
  });

/** 0 two times in three, else a value of `arbitrary`. */
function sometimes(arbitrary: fc.Arbitrary<number>): fc.Arbitrary<number> {
  return fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary });
}

export interface GeneratedDocument {
  query: string;
  /** The operation a client would name with it, if any (possibly one the document lacks). */
  operationName?: string;
  /** True when some fragment reaches itself through its spreads. */
  cyclic: boolean;
}

function hasCycle(specs: readonly FragmentSpec[]): boolean {
  const state = new Map<number, 'open' | 'done'>();
  const reach = (i: number): boolean => {
    if (state.get(i) === 'done') return false;
    if (state.get(i) === 'open') return true;
    state.set(i, 'open');
    for (const j of specs[i]!.spreads) if (j < specs.length && reach(j)) return true;
    state.set(i, 'done');
    return false;
  };
  return specs.some((_, i) => reach(i));
}

/**
 * Random documents: fragments on Query spreading each other (fan-out, cycles), aliases,
 * directives, repeated and unknown fields, alias and directive spam, introspection, operations
 * the schema lacks (mutation, subscription), and operation names that may not match.
 */
export const documents: fc.Arbitrary<GeneratedDocument> = fc
  .integer({ min: 0, max: 12 })
  .chain((count) =>
    fc.record({
      fragments: fc.array(fragmentSpec(Math.max(count, 1)), { minLength: count, maxLength: count }),
      root: fc.array(selection, { maxLength: 4 }),
      rootSpreads: fc.array(fc.integer({ min: 0, max: Math.max(count - 1, 0) }), { maxLength: count === 0 ? 0 : 8 }).map((spreads) => (count > 0 ? [count - 1, ...spreads] : spreads)),
      aliasSpam: sometimes(fc.integer({ min: 1, max: 300 })),
      directiveSpam: sometimes(fc.integer({ min: 1, max: 120 })),
      depth: sometimes(fc.integer({ min: 3, max: 40 })),
      /** Fragments may spread later ones too (else only earlier ones): cycles become possible. */
      cycles: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      /** Each fragment also spreads the one before it this many times: the fan-out of the attack. */
      fan: sometimes(fc.integer({ min: 1, max: 8 })),
      kind: fc.constantFrom('query', 'query', 'query', 'mutation', 'subscription'),
      /** A second operation: without an operationName, Apollo cannot pick one. */
      second: fc.boolean(),
      operationName: fc.constantFrom(undefined, 'Generated', 'Other', 'Missing'),
      /** Half the documents keep to what a client would send (no spam, cycle or missing operation). */
      hostile: fc.boolean(),
    }),
  )
  .map(({ hostile, ...drawn }) => (hostile ? drawn : { ...drawn, aliasSpam: 0, directiveSpam: 0, depth: 0, cycles: false, fan: Math.min(drawn.fan, 1), kind: 'query', second: false, operationName: undefined }))
  .map(({ fragments: specs, root, rootSpreads, aliasSpam: aliases, directiveSpam: directives, depth, cycles, fan, kind, second, operationName }) => {
    const fragments = specs.map((f, i) => ({
      ...f,
      spreads: [...f.spreads.filter((j) => cycles || j < i), ...Array<number>(i === 0 ? 0 : fan).fill(i - 1)],
    }));
    // Without a chain of spreads, the operation spreads every fragment (none is left unused).
    const spreads = fan === 0 ? [...rootSpreads, ...fragments.map((_, i) => i)] : rootSpreads;
    const body = [
      ...root,
      ...spreads.map((i) => `...F${i}`),
      ...Array.from({ length: aliases }, (_, i) => `s${i}: __typename`),
      ...(depth > 0 ? [nestedSchema(depth).slice(1, -1)] : []),
    ];
    if (body.length === 0) body.push('__typename');
    const spam = directives > 0 ? `__typename ${'@include(if: true) '.repeat(directives)}` : '';
    const definitions = fragments.map((f, i) => {
      const selections = [...f.fields, ...f.spreads.map((j) => `...F${j}`)];
      return `fragment F${i} on Query { ${selections.length > 0 ? selections.join(' ') : '__typename'} }`;
    });
    const operations = `${kind} Generated { ${body.join(' ')} ${spam} }${second ? ' query Other { __typename }' : ''}`;
    return { query: `${operations} ${definitions.join(' ')}`, cyclic: hasCycle(fragments), ...(operationName ? { operationName } : {}) };
  });

/** Every selection set of a document (for brute-force checks on small documents). */
export function selectionSetsOf(document: DocumentNode): number {
  let n = 0;
  visit(document, { [Kind.SELECTION_SET]: () => void n++ });
  return n;
}
