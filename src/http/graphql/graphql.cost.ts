import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  isAbstractType,
  isCompositeType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type InlineFragmentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type TypeNode,
} from 'graphql';
import { fieldExtensionsEstimator, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { GraphQLContext } from './graphql.context';

/*
 * The cost of an operation: what it may make the server do, from each field's `complexity`
 * option (list sizes read from arguments such as limit and trackKeys), else 1 per field plus
 * its children. It needs the variables, so it is computed per request, after validation.
 */

/** Extra cost of a field that queries every enabled source. */
export const SEARCH_COST = 10;
/** Extra cost of a field that may start an analysis (a store miss goes on to the engine). */
export const ANALYSIS_COST = 5;

/** The estimators of the cost: a field's own `complexity` option, else 1 per field plus its children. */
export function costEstimators(): ComplexityEstimator[] {
  return [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })];
}

/** Variables or arguments that do not fit their types: execution would refuse them the same way. */
export class CostInputError extends Error {}

/**
 * The cost of one operation with these variables, by graphql-query-complexity's estimators
 * and its rules (skipped and excluded selections cost nothing; an abstract type costs its
 * dearest possible type). Each fragment is priced once per concrete type it is spread on, so
 * the walk is as long as the document, not as its expansion. Throws CostInputError for
 * variables or arguments that do not coerce.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  inputs: Record<string, unknown>,
  estimators: readonly ComplexityEstimator[],
): number {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs, { maxErrors: 1 });
  if (coerced.errors) throw new CostInputError(coerced.errors[0]!.message);
  const variables = coerced.coerced;

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(definition.name.value)) fragments.set(definition.name.value, definition);
  }
  const priced = new Map<string, number>();
  const pricing = new Set<string>();

  const included = (node: FieldNode | InlineFragmentNode | FragmentSpreadNode): boolean => {
    if (!node.directives?.length) return true;
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  };

  const applies = (condition: string | undefined, type: GraphQLObjectType): boolean => {
    if (condition === undefined || condition === type.name) return true;
    const named = schema.getType(condition);
    return named !== undefined && isAbstractType(named) && schema.isSubType(named, type);
  };

  const fieldDef = (type: GraphQLObjectType, name: string): GraphQLField<unknown, unknown> | undefined => {
    if (name === SchemaMetaFieldDef.name) return schema.getQueryType() === type ? SchemaMetaFieldDef : undefined;
    if (name === TypeMetaFieldDef.name) return schema.getQueryType() === type ? TypeMetaFieldDef : undefined;
    if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
    return type.getFields()[name];
  };

  const setCost = (set: SelectionSetNode, type: GraphQLCompositeType): number => {
    if (isObjectType(type)) return objectCost(set, type);
    let dearest = 0;
    for (const possible of schema.getPossibleTypes(type)) dearest = Math.max(dearest, objectCost(set, possible));
    return dearest;
  };

  const objectCost = (set: SelectionSetNode, type: GraphQLObjectType): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const field = fieldDef(type, selection.name.value);
        // Validation has refused unknown fields; a missing one costs nothing here.
        if (!field) continue;
        let args: Record<string, unknown>;
        try {
          args = getArgumentValues(field, selection, variables);
        } catch (error) {
          throw new CostInputError(error instanceof Error ? error.message : String(error));
        }
        const named = getNamedType(field.type);
        const childComplexity = selection.selectionSet && isCompositeType(named) ? setCost(selection.selectionSet, named) : 0;
        total += estimate(estimators, { type, field, node: selection, args, childComplexity });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(selection.typeCondition?.name.value, type)) total += objectCost(selection.selectionSet, type);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || !applies(fragment.typeCondition.name.value, type)) continue;
        const key = `${type.name}\u0000${fragment.name.value}`;
        let cost = priced.get(key);
        if (cost === undefined) {
          // Cycles are refused before this runs (the document limits); here they must only end.
          if (pricing.has(key)) continue;
          pricing.add(key);
          cost = objectCost(fragment.selectionSet, type);
          pricing.delete(key);
          priced.set(key, cost);
        }
        total += cost;
      }
    }
    return total;
  };

  const root = schema.getRootType(operation.operation);
  return root ? objectCost(operation.selectionSet, root) : 0;
}

function estimate(estimators: readonly ComplexityEstimator[], args: Parameters<ComplexityEstimator>[0]): number {
  for (const estimator of estimators) {
    const cost = estimator(args);
    if (typeof cost === 'number' && !Number.isNaN(cost)) return cost;
  }
  // simpleEstimator always answers; a list without it has no opinion of this field.
  return 0;
}

/**
 * Rejects an operation costing more than `maxCost` before it runs, and records the cost on the
 * context (`context.cost`) for whoever counts usage by cost (rate limits).
 *
 * Prices are cached per document and per variable shape: the estimators read list lengths and
 * numbers (limit), never the text of a string, so variables that differ only in their strings
 * (another trackKey) cost the same.
 */
export function costLimitPlugin(maxCost: number, estimators = costEstimators()): ApolloServerPlugin<GraphQLContext> {
  // Apollo hands the same DocumentNode object for a repeated query string (its document cache).
  const priced = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          // The operation-resolution plugin has refused a request without an operation.
          if (!operation) return;
          const variables = request.variables ?? {};
          const shape = priceKey(operation, variables);
          const prices = priced.get(document) ?? new Map<string, number>();
          // No await before contextValue.cost is set: plugins after this one read it in their own didResolveOperation.
          let cost = prices.get(shape);
          if (cost === undefined) {
            try {
              cost = operationCost(schema, document, operation, variables, estimators);
            } catch (error) {
              if (!(error instanceof CostInputError)) throw error;
              throw new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
            }
            if (prices.size < MAX_PRICES_PER_DOCUMENT) {
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
