import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type TypeNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { GraphQLContext } from './graphql.context';

/*
 * Limits on what one document may ask, checked before execution: depth (a validation rule, so
 * Apollo runs it once per distinct document and caches the verdict) and cost (needs the
 * variables, so it is computed per request, cached per document and variable shape).
 */

/** Extra cost of a field that queries every enabled source. */
export const SEARCH_COST = 10;
/** Extra cost of a field that may start an analysis (a store miss goes on to the engine). */
export const ANALYSIS_COST = 5;

/**
 * Depth counts field nesting. Introspection (`__schema`, `__type`) is not counted: the standard
 * introspection query alone is 15 deep, and graphql-js's own MaxIntrospectionDepthRule (among
 * the specified rules Apollo runs) already stops its self-multiplying `fields { type { fields … } }`.
 */
export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      if (cappedDepth(context, operation.selectionSet, maxDepth, new Set()) > maxDepth) {
        context.reportError(
          new GraphQLError(
            `the document ${operation.name ? `"${operation.name.value}" ` : ''}nests fields more than ${maxDepth} levels deep; ask for less at once`,
            { nodes: [operation], extensions: { code: 'GRAPHQL_VALIDATION_FAILED', maxDepth } },
          ),
        );
      }
    },
  });
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/**
 * Depth of a selection set, or `limit + 1` when deeper than `limit`: it stops descending there,
 * so an absurdly deep document costs no more to reject than one just over the limit.
 */
function cappedDepth(context: ValidationContext, set: SelectionSetNode, limit: number, fragments: ReadonlySet<string>): number {
  let deepest = 0;
  for (const selection of set.selections) {
    let depth = 0;
    if (selection.kind === Kind.FIELD) {
      if (INTROSPECTION_ROOTS.has(selection.name.value)) continue;
      if (!selection.selectionSet) depth = 1;
      else depth = limit > 1 ? 1 + cappedDepth(context, selection.selectionSet, limit - 1, fragments) : 2;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = cappedDepth(context, selection.selectionSet, limit, fragments);
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      // A cycle is NoFragmentCyclesRule's to report; here it only must not recurse forever.
      if (!fragment || fragments.has(name)) continue;
      depth = cappedDepth(context, fragment.selectionSet, limit, new Set(fragments).add(name));
    }
    deepest = Math.max(deepest, depth);
    if (deepest > limit) break;
  }
  return deepest;
}

/** The estimators of the cost: a field's own `complexity` option, else 1 per field plus its children. */
export function costEstimators(): ComplexityEstimator[] {
  return [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })];
}

/**
 * Rejects a document costing more than `maxCost` before it runs, and records the cost on the
 * context (`context.cost`) for whoever counts usage by cost (rate limits).
 *
 * Pricing a document walks it with the schema (about 0.1 ms for one full analysis, as much as
 * the rest of the request), so prices are cached per document and per variable shape: the
 * estimators read list lengths and numbers (limit), never the text of a string, so variables
 * that differ only in their strings (another trackKey) cost the same.
 */
export function costLimitPlugin(maxCost: number, estimators = costEstimators()): ApolloServerPlugin<GraphQLContext> {
  // Apollo hands the same DocumentNode object for a repeated query string (its document cache).
  const priced = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, operationName, contextValue }) {
          const variables = request.variables ?? {};
          const shape = operation ? priceKey(operation, variables) : undefined;
          const prices = priced.get(document) ?? new Map<string, number>();
          // No await before contextValue.cost is set: plugins after this one read it in their own didResolveOperation.
          let cost = shape === undefined ? undefined : prices.get(shape);
          if (cost === undefined) {
            try {
              cost = getComplexity({ schema, query: document, variables, estimators, ...(operationName ? { operationName } : {}) });
            } catch (error) {
              // Variables that do not fit their types: execution would refuse them the same way.
              throw new GraphQLError(error instanceof Error ? error.message : String(error), {
                extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
              });
            }
            if (shape !== undefined && prices.size < MAX_PRICES_PER_DOCUMENT) {
              prices.set(shape, cost);
              priced.set(document, prices);
            }
          }
          contextValue.cost = cost;
          if (cost > maxCost) {
            throw new GraphQLError(`the document costs ${cost}, more than the ${maxCost} allowed per request; ask for fewer tracks or fields at once`, {
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', cost, maxCost, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

/** Variable shapes remembered per document (list lengths and limits vary; 100 covers them). */
const MAX_PRICES_PER_DOCUMENT = 128;

const STRING_TYPES = new Set(['String', 'ID']);

/**
 * The operation and its variables with every string in a String-typed variable blanked: two
 * requests with the same key cost the same. A blanked string is still a valid String, and
 * anything that is not a string is kept, so invalid variables stay invalid.
 */
function priceKey(operation: OperationDefinitionNode, variables: Record<string, unknown>): string {
  const shape: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!(name in variables)) continue;
    shape[name] = STRING_TYPES.has(namedType(definition.type)) ? blankStrings(variables[name]) : variables[name];
  }
  return `${operation.name?.value ?? ''}\u0000${JSON.stringify(shape)}`;
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

function blankStrings(value: unknown): unknown {
  if (typeof value === 'string') return '';
  return Array.isArray(value) ? value.map(blankStrings) : value;
}
