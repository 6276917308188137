import type { RequestHandler, Response } from 'express';
import { GraphQLError, Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/*
 * Limits on the shape of a document, checked at the edge before Apollo parses and validates it.
 *
 * A few hundred bytes of fragments that each spread the previous one eight times expand to
 * billions of fields: whatever follows every expansion (a naive depth or cost walk) stalls, and
 * graphql-js's own rules, which Apollo runs first and in full, spend up to hundreds of
 * milliseconds on documents built against them before their budgets stop them. So the shape of
 * a document (depth, selections, aliases, directives) is measured first, each fragment
 * definition once (a spread adds its fragment's remembered measure), in time proportional to the
 * document's length whatever it expands to; then, within those bounds, the pairs of selections
 * graphql-js would compare to merge them are counted. A document over a limit is refused there;
 * only documents within every limit reach Apollo's validation and execution.
 */

export interface DocumentLimits {
  /** GRAPHQL_MAX_TOKENS: the parser stops past this many tokens. */
  maxTokens: number;
  /** GRAPHQL_MAX_DEPTH: field nesting outside introspection. */
  maxDepth: number;
  /** GRAPHQL_MAX_SELECTIONS: fields, fragment spreads and inline fragments, fragments expanded. */
  maxSelections: number;
  /** GRAPHQL_MAX_ALIASES: aliased fields, fragments expanded. */
  maxAliases: number;
  /** GRAPHQL_MAX_DIRECTIVES: directives, fragments expanded. */
  maxDirectives: number;
}

/**
 * Deepest nesting of an introspection path (from the operation's root into `__schema` or
 * `__type` and down). The standard introspection query (graphql-js, typeDepth 9, every option)
 * is 15 deep; 20 leaves room for tools that follow `ofType` further.
 */
export const MAX_INTROSPECTION_DEPTH = 20;

/**
 * Pairs of selections that graphql-js's OverlappingFieldsCanBeMergedRule compares: fields with
 * one response name at one place of the merged answer, and fragments spread at one place. The
 * rule's work grows with their square (its own budget stops it at 500,000 steps, a few hundred
 * milliseconds); documents written by hand or by codegen have a few dozen.
 */
export const MAX_OVERLAPS = 1000;

/** What a document asks for once its fragments are expanded: all its operations together. */
export interface DocumentMeasure {
  /** Deepest field nesting, not counting fields under `__schema` and `__type`. */
  depth: number;
  /** Deepest path into introspection, counted from the root (0 when there is none). */
  introspectionDepth: number;
  /** Fields, fragment spreads and inline fragments; a fragment spread n times counts n times. */
  selections: number;
  aliases: number;
  directives: number;
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

const EMPTY: DocumentMeasure = { depth: 0, introspectionDepth: 0, selections: 0, aliases: 0, directives: 0 };

/** A fragment that spreads itself, directly or through others: no finite expansion. */
export class FragmentCycleError extends Error {
  constructor(readonly fragment: string) {
    super(`fragment "${fragment}" spreads itself`);
  }
}

/** The definitions a document's measure starts from: its operations, and fragments nothing spreads. */
type Root = { selectionSet: SelectionSetNode; directives: number };

/**
 * Measures a document: its operations, and the fragments no definition spreads (validation
 * reads those too before refusing them as unused). Each fragment is measured once per mode
 * (inside introspection or not) and a spread adds its remembered measure, so this takes time
 * in proportion to the document's length. Counts grow as numbers: a deep fan-out reaches 1e9
 * or Infinity without looping. Throws FragmentCycleError for a cycle.
 */
export function measureDocument(document: DocumentNode): DocumentMeasure {
  const definitions = fragmentDefinitions(document);
  const measured = new Map<string, DocumentMeasure>();
  const inProgress = new Set<string>();
  const spread = new Set<string>();

  const fragment = (name: string, introspection: boolean): DocumentMeasure => {
    const key = `${introspection ? 'i' : 'd'}${name}`;
    const known = measured.get(key);
    if (known) return known;
    const definition = definitions.get(name);
    // An unknown fragment is KnownFragmentNamesRule's to report.
    if (!definition) return EMPTY;
    if (inProgress.has(key)) throw new FragmentCycleError(name);
    inProgress.add(key);
    const m = selectionSet(definition.selectionSet, introspection);
    inProgress.delete(key);
    // A directive on the definition applies to every spread of it.
    const result = { ...m, directives: m.directives + (definition.directives?.length ?? 0) };
    measured.set(key, result);
    return result;
  };

  const selectionSet = (set: SelectionSetNode, introspection: boolean): DocumentMeasure => {
    const total = { ...EMPTY };
    for (const selection of set.selections) {
      total.selections += 1;
      total.directives += selection.directives?.length ?? 0;
      if (selection.kind === Kind.FIELD) {
        const inside = introspection || INTROSPECTION_ROOTS.has(selection.name.value);
        const child = selection.selectionSet ? selectionSet(selection.selectionSet, inside) : EMPTY;
        total.selections += child.selections;
        total.aliases += (selection.alias ? 1 : 0) + child.aliases;
        total.directives += child.directives;
        if (inside) total.introspectionDepth = Math.max(total.introspectionDepth, 1 + Math.max(child.depth, child.introspectionDepth));
        else {
          total.depth = Math.max(total.depth, 1 + child.depth);
          if (child.introspectionDepth > 0) total.introspectionDepth = Math.max(total.introspectionDepth, 1 + child.introspectionDepth);
        }
      } else {
        if (selection.kind === Kind.FRAGMENT_SPREAD) spread.add(selection.name.value);
        const inner = selection.kind === Kind.INLINE_FRAGMENT ? selectionSet(selection.selectionSet, introspection) : fragment(selection.name.value, introspection);
        total.selections += inner.selections;
        total.aliases += inner.aliases;
        total.directives += inner.directives;
        total.depth = Math.max(total.depth, inner.depth);
        total.introspectionDepth = Math.max(total.introspectionDepth, inner.introspectionDepth);
      }
    }
    return total;
  };

  const document_ = { ...EMPTY };
  const add = (m: DocumentMeasure): void => {
    document_.selections += m.selections;
    document_.aliases += m.aliases;
    document_.directives += m.directives;
    document_.depth = Math.max(document_.depth, m.depth);
    document_.introspectionDepth = Math.max(document_.introspectionDepth, m.introspectionDepth);
  };
  for (const root of operationRoots(document)) {
    const m = selectionSet(root.selectionSet, false);
    add({ ...m, directives: m.directives + root.directives });
  }
  // Measuring every fragment finds every spread, and so the fragments nothing spreads.
  for (const name of definitions.keys()) fragment(name, false);
  for (const name of definitions.keys()) if (!spread.has(name)) add(fragment(name, false));
  return document_;
}

function fragmentDefinitions(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const definitions = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    // A name defined twice is UniqueFragmentNamesRule's to report; the first one counts.
    if (definition.kind === Kind.FRAGMENT_DEFINITION && !definitions.has(definition.name.value)) {
      definitions.set(definition.name.value, definition);
    }
  }
  return definitions;
}

function operationRoots(document: DocumentNode): Root[] {
  const roots: Root[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) roots.push({ selectionSet: definition.selectionSet, directives: definition.directives?.length ?? 0 });
  }
  return roots;
}

/**
 * Pairs of selections OverlappingFieldsCanBeMergedRule would compare, counted on the merged
 * answer (each place of it gathers the fields of one response name from every fragment and
 * repeated field), stopping as soon as there are more than `budget`. The walk expands
 * fragments (once per place they are spread at), so it runs only on a document whose
 * expansion measureDocument has bounded.
 */
export function overlaps(document: DocumentNode, budget: number): number {
  const definitions = fragmentDefinitions(document);
  let pairs = 0;
  const place = (sets: readonly SelectionSetNode[]): void => {
    const fields = new Map<string, SelectionSetNode[]>();
    const counts = new Map<string, number>();
    const fragments = new Set<string>();
    const gather = (set: SelectionSetNode): void => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const name = selection.alias?.value ?? selection.name.value;
          counts.set(name, (counts.get(name) ?? 0) + 1);
          if (selection.selectionSet) {
            const children = fields.get(name);
            if (children) children.push(selection.selectionSet);
            else fields.set(name, [selection.selectionSet]);
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) gather(selection.selectionSet);
        else if (!fragments.has(selection.name.value)) {
          // graphql-js compares a fragment spread twice at one place once.
          fragments.add(selection.name.value);
          const definition = definitions.get(selection.name.value);
          if (definition) gather(definition.selectionSet);
        }
      }
    };
    for (const set of sets) gather(set);
    for (const count of counts.values()) pairs += (count * (count - 1)) / 2;
    pairs += (fragments.size * (fragments.size - 1)) / 2;
    if (pairs > budget) return;
    for (const children of fields.values()) {
      place(children);
      if (pairs > budget) return;
    }
  };
  for (const root of operationRoots(document)) place([root.selectionSet]);
  const spread = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) collectSpreads(definition.selectionSet, spread);
  }
  for (const [name, definition] of definitions) if (!spread.has(name) && pairs <= budget) place([definition.selectionSet]);
  return pairs;
}

function collectSpreads(set: SelectionSetNode, into: Set<string>): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) into.add(selection.name.value);
    else if (selection.selectionSet) collectSpreads(selection.selectionSet, into);
  }
}

/** Why a document is refused: a GraphQL error with Apollo's code for the failure, and HTTP 400. */
export interface Refusal {
  message: string;
  code: 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' | 'BAD_USER_INPUT' | 'BAD_REQUEST';
  locations?: readonly { line: number; column: number }[];
  /** The limit exceeded, by name (maxDepth, maxSelections …), for clients that adapt. */
  limit?: Record<string, number>;
}

const refuse = (message: string, limit: Record<string, number>): Refusal => ({ message, code: 'GRAPHQL_VALIDATION_FAILED', limit });

/** The first limit a measure exceeds, or undefined. Counts are never echoed: they may be astronomic. */
function exceeded(m: DocumentMeasure, limits: DocumentLimits): Refusal | undefined {
  if (m.depth > limits.maxDepth) {
    return refuse(`the document nests fields more than ${limits.maxDepth} levels deep; ask for less at once`, { maxDepth: limits.maxDepth });
  }
  if (m.introspectionDepth > MAX_INTROSPECTION_DEPTH) {
    return refuse(`the document's introspection nests more than ${MAX_INTROSPECTION_DEPTH} levels deep`, { maxIntrospectionDepth: MAX_INTROSPECTION_DEPTH });
  }
  if (m.selections > limits.maxSelections) {
    return refuse(`the document makes more than ${limits.maxSelections} selections once its fragments are expanded; ask for less at once`, {
      maxSelections: limits.maxSelections,
    });
  }
  if (m.aliases > limits.maxAliases) {
    return refuse(`the document uses more than ${limits.maxAliases} aliases once its fragments are expanded`, { maxAliases: limits.maxAliases });
  }
  if (m.directives > limits.maxDirectives) {
    return refuse(`the document uses more than ${limits.maxDirectives} directives once its fragments are expanded`, { maxDirectives: limits.maxDirectives });
  }
  return undefined;
}

/**
 * The verdict on a document's text: undefined when it parses within the token limit and keeps
 * within every limit, else why not. Never throws.
 */
export function checkDocument(query: string, limits: DocumentLimits): Refusal | undefined {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: limits.maxTokens, noLocation: true });
  } catch (error) {
    // The parser recurses per nesting level: a deep enough document overflows the stack.
    const message = error instanceof GraphQLError ? error.message : 'Syntax Error: the document nests too deeply to be read.';
    const locations = error instanceof GraphQLError ? error.locations : undefined;
    return { message, code: 'GRAPHQL_PARSE_FAILED', ...(locations ? { locations } : {}) };
  }
  let measure: DocumentMeasure;
  try {
    measure = measureDocument(document);
  } catch (error) {
    if (error instanceof FragmentCycleError) return { message: `Cannot spread fragment "${error.fragment}" within itself.`, code: 'GRAPHQL_VALIDATION_FAILED' };
    if (error instanceof RangeError) return exceeded({ ...EMPTY, depth: Infinity }, limits);
    throw error;
  }
  const refusal = exceeded(measure, limits);
  if (refusal) return refusal;
  if (overlaps(document, MAX_OVERLAPS) > MAX_OVERLAPS) {
    return refuse(`the document selects the same fields or fragments at one place too many times; merge them`, { maxOverlaps: MAX_OVERLAPS });
  }
  return undefined;
}

/** Verdicts remembered, by document text: a repeated document is checked once. */
const VERDICT_CACHE_CHARS = 8 * 1024 * 1024;

/** Response body of a refused document, as Apollo shapes its own errors. */
function refusalBody(refusal: Refusal): { errors: object[] } {
  return {
    errors: [
      {
        message: refusal.message,
        ...(refusal.locations ? { locations: refusal.locations } : {}),
        extensions: { code: refusal.code, ...refusal.limit },
      },
    ],
  };
}

/** The GraphQL response type a client accepts, as Apollo chooses it (application/json unless preferred). */
export function graphqlResponseType(accepts: (types: string[]) => string | false): string {
  return accepts(['application/json', 'application/graphql-response+json']) === 'application/graphql-response+json'
    ? 'application/graphql-response+json; charset=utf-8'
    : 'application/json; charset=utf-8';
}

/**
 * Express middleware in front of Apollo: a document (POST body or GET parameter) over a limit,
 * or variables or extensions nested past MAX_NESTING, are answered 400 with a GraphQL error,
 * unvalidated; anything else goes on to Apollo, which answers requests without a readable
 * document itself. Verdicts are cached by document text, so a repeated document costs a map
 * lookup.
 */
export function documentLimits(limits: DocumentLimits & { /** GRAPHQL_MAX_BATCH: operations in one batched request. */ maxBatch: number }): RequestHandler {
  const verdicts = new LRUCache<string, { refusal: Refusal | null }>({ maxSize: VERDICT_CACHE_CHARS, sizeCalculation: (_v, key) => key.length + 1 });
  /** The refusal of one operation's parameters, or undefined when they are within the limits. */
  const judge = (params: { query?: unknown; variables?: unknown; extensions?: unknown }): Refusal | undefined => {
    for (const field of ['variables', 'extensions'] as const) {
      if (nestedDeeperThan(params[field], MAX_NESTING)) {
        return { message: `the request's ${field} nest more than ${MAX_NESTING} levels deep`, code: field === 'variables' ? 'BAD_USER_INPUT' : 'BAD_REQUEST' };
      }
    }
    const { query } = params;
    // Apollo answers a request without a readable document itself.
    if (typeof query !== 'string' || query.length === 0) return undefined;
    let verdict = verdicts.get(query);
    if (!verdict) {
      verdict = { refusal: checkDocument(query, limits) ?? null };
      verdicts.set(query, verdict);
    }
    return verdict.refusal ?? undefined;
  };
  return (req, res, next) => {
    let refusal: Refusal | undefined;
    if (req.method !== 'GET' && Array.isArray(req.body)) {
      // A batch (Apollo's BatchHttpLink): bounded in size, and each operation held to the limits.
      const batch = req.body as unknown[];
      if (batch.length === 0) refusal = { message: 'a batched request must hold at least one operation', code: 'BAD_REQUEST' };
      else if (batch.length > limits.maxBatch) {
        refusal = { message: `a batched request may hold at most ${limits.maxBatch} operations (got ${batch.length})`, code: 'BAD_REQUEST', limit: { maxBatch: limits.maxBatch } };
      } else {
        for (const operation of batch) {
          refusal = judge(typeof operation === 'object' && operation !== null ? (operation) : {});
          if (refusal) break;
        }
      }
    } else {
      refusal = judge(requestParams(req.method, req.query, req.body));
    }
    if (!refusal) {
      next();
      return;
    }
    req.log.warn({ code: refusal.code, msg: refusal.message }, 'graphql request refused');
    answerRefusal(res, refusal, graphqlResponseType((types) => req.accepts(types)));
  };
}

/**
 * Deepest nesting of variables and extensions accepted (the deepest input of the schema, a
 * track filter's mood range, is 4). Past it, Apollo and the plugins that serialise variables
 * would recurse deeper than the stack allows: a 100 kB body holds 50,000 nested arrays.
 */
const MAX_NESTING = 32;

/** What Apollo will read of the request: the JSON body of a POST, the URL parameters of a GET (JSON-encoded). */
function requestParams(method: string, query: Record<string, unknown>, body: unknown): { query?: unknown; variables?: unknown; extensions?: unknown } {
  if (method !== 'GET') return typeof body === 'object' && body !== null ? (body) : {};
  const json = (value: unknown): unknown => {
    if (typeof value !== 'string') return undefined;
    try {
      return JSON.parse(value);
    } catch {
      // Apollo answers a parameter that is not JSON itself.
      return undefined;
    }
  };
  return { query: query.query, variables: json(query.variables), extensions: json(query.extensions) };
}

/** Whether a JSON value nests objects and arrays more than `max` deep; iterative, so any depth is safe to ask. */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

function answerRefusal(res: Response, refusal: Refusal, contentType: string): void {
  res.status(400).type(contentType).send(JSON.stringify(refusalBody(refusal)));
}
