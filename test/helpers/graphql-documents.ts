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

/** Fields of the schema (and one it lacks): what comes before the directives, and the selection after them. */
const FIELD = fc.constantFrom(
  ['__typename', ''],
  ['trackKey(artist: "a", track: "b")', ''],
  ['analysisStatus(trackKey: "0123456789abcdef")', '{ status trackKey }'],
  ['analysis(trackKey: "0123456789abcdef")', '{ tempo mood { happy } }'],
  ['search(track: "x", limit: 2)', '{ trackKey }'],
  ['__schema', '{ queryType { name } }'],
  ['unknownField', ''],
);

const DIRECTIVE = fc.constantFrom('@include(if: true)', '@skip(if: false)', '@include(if: false)', '@deprecated', '@unknown');

/** A field, sometimes aliased, with a few directives. */
const selection = fc
  .tuple(FIELD, fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), fc.array(DIRECTIVE, { maxLength: 3 }))
  .map(([[head, body], alias, directives]) => `${alias === undefined ? '' : `x${alias}: `}${head} ${directives.join(' ')} ${body}`);

const fragmentSpec = (count: number): fc.Arbitrary<FragmentSpec> =>
  fc.record({
    spreads: fc.array(fc.integer({ min: 0, max: count - 1 }), { maxLength: 10 }),
    fields: fc.array(selection, { maxLength: 3 }),
  });

export interface GeneratedDocument {
  query: string;
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
 * directives, repeated and unknown fields, alias and directive spam, introspection.
 */
export const documents: fc.Arbitrary<GeneratedDocument> = fc
  .integer({ min: 0, max: 12 })
  .chain((count) =>
    fc.record({
      fragments: fc.array(fragmentSpec(Math.max(count, 1)), { minLength: count, maxLength: count }),
      root: fc.array(selection, { maxLength: 4 }),
      rootSpreads: fc.array(fc.integer({ min: 0, max: Math.max(count - 1, 0) }), { maxLength: count === 0 ? 0 : 8 }).map((spreads) => (count > 0 ? [count - 1, ...spreads] : spreads)),
      aliasSpam: fc.integer({ min: 0, max: 300 }),
      directiveSpam: fc.integer({ min: 0, max: 120 }),
      depth: fc.integer({ min: 0, max: 40 }),
      /** Each fragment also spreads the one before it this many times: the fan-out of the attack. */
      fan: fc.integer({ min: 0, max: 8 }),
    }),
  )
  .map(({ fragments: specs, root, rootSpreads, aliasSpam: aliases, directiveSpam: directives, depth, fan }) => {
    const fragments = specs.map((f, i) => (i === 0 ? f : { ...f, spreads: [...f.spreads, ...Array<number>(fan).fill(i - 1)] }));
    const body = [
      ...root,
      ...rootSpreads.map((i) => `...F${i}`),
      ...Array.from({ length: aliases }, (_, i) => `s${i}: __typename`),
      ...(depth > 0 ? [nestedSchema(depth).slice(1, -1)] : []),
    ];
    if (body.length === 0) body.push('__typename');
    const spam = directives > 0 ? `__typename ${'@include(if: true) '.repeat(directives)}` : '';
    const definitions = fragments.map((f, i) => {
      const selections = [...f.fields, ...f.spreads.map((j) => `...F${j}`)];
      return `fragment F${i} on Query { ${selections.length > 0 ? selections.join(' ') : '__typename'} }`;
    });
    return { query: `query Generated { ${body.join(' ')} ${spam} } ${definitions.join(' ')}`, cyclic: hasCycle(fragments) };
  });

/** Every selection set of a document (for brute-force checks on small documents). */
export function selectionSetsOf(document: DocumentNode): number {
  let n = 0;
  visit(document, { [Kind.SELECTION_SET]: () => void n++ });
  return n;
}
