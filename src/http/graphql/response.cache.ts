import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, OperationTypeNode, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { GraphQLContext } from './graphql.context';

/**
 * Root fields whose complete answer changes only when a stored analysis is replaced (a
 * re-analysis, announced as `analysis.replaced`: the cache is then emptied) and trackKey is a
 * pure function. search and analysisStatus change, so a
 * document asking for them is never cached.
 */
const IMMUTABLE_ROOTS = new Set(['analysis', 'analyses', 'trackKey', '__typename']);

interface RootField {
  responseKey: string;
  field: string;
}

interface Cached {
  data: Record<string, unknown>;
  /** Analyses held, the unit of the cache's bound. */
  size: number;
}

/**
 * Answers a repeated document from memory when its previous answer was complete: every root
 * field immutable, no error, no analysis missing (a null may be an analysis still running).
 * Execution is about a quarter of a GraphQL request's CPU; a hit skips it. Everything before
 * execution still runs for every request: authentication, depth and cost limits, rate limits.
 * A complete answer is also announced to the HTTP edge cache (contextValue.edge), which keeps
 * the bytes sent for a byte-identical repeat of the request.
 */
export function immutableResponseCachePlugin(maxAnalyses: number): { plugin: ApolloServerPlugin<GraphQLContext>; clear(): void } {
  const cache = new LRUCache<string, Cached>({ maxSize: maxAnalyses, sizeCalculation: (entry) => entry.size });
  // Apollo hands the same operation node for a repeated query string (its document cache).
  const rootsOf = new WeakMap<OperationDefinitionNode, RootField[] | null>();
  const cacheableRoots = (operation: OperationDefinitionNode): RootField[] | null => {
    let roots = rootsOf.get(operation);
    if (roots === undefined) {
      roots = immutableRoots(operation);
      rootsOf.set(operation, roots);
    }
    return roots;
  };

  const plugin: ApolloServerPlugin<GraphQLContext> = {
    async requestDidStart() {
      let key: string | undefined;
      let roots: RootField[] | null = null;
      return {
        async responseForOperation({ operation, queryHash, request, response, contextValue }) {
          roots = cacheableRoots(operation);
          if (!roots) return null;
          key = `${queryHash}\u0000${request.operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}`;
          const hit = cache.get(key);
          if (!hit) return null;
          contextValue.edge?.complete(contextValue.cost ?? 1);
          // A new result object each time: later plugins may add extensions to it.
          return { http: response.http, body: { kind: 'single', singleResult: { data: hit.data } } };
        },
        async willSendResponse({ response, contextValue }) {
          if (key === undefined || !roots || response.body.kind !== 'single' || cache.has(key)) return;
          const { data, errors } = response.body.singleResult;
          if (errors || !data) return;
          const size = completeSize(data, roots);
          if (size === undefined) return;
          cache.set(key, { data, size });
          // The HTTP edge may keep the bytes of this answer too (edge.cache.ts).
          contextValue.edge?.complete(contextValue.cost ?? 1);
        },
      };
    },
  };
  // Answers are kept by document and variables, not by the keys they hold: a replaced analysis
  // empties the whole cache (re-analysis is rare; the cache fills again from the next requests).
  return { plugin, clear: () => cache.clear() };
}

/** The root fields of a query made only of immutable fields, or null (fragments and directives included). */
function immutableRoots(operation: OperationDefinitionNode): RootField[] | null {
  if (operation.operation !== OperationTypeNode.QUERY) return null;
  const roots: RootField[] = [];
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || (selection.directives?.length ?? 0) > 0) return null;
    if (!IMMUTABLE_ROOTS.has(selection.name.value)) return null;
    roots.push({ responseKey: selection.alias?.value ?? selection.name.value, field: selection.name.value });
  }
  return roots;
}

/** Number of analyses in a complete answer (at least 1), or undefined when one is missing. */
function completeSize(data: Record<string, unknown>, roots: readonly RootField[]): number | undefined {
  let size = 1;
  for (const { responseKey, field } of roots) {
    const value = data[responseKey];
    if (field === 'analysis') {
      if (value === null || value === undefined) return undefined;
      size++;
    } else if (field === 'analyses') {
      if (!Array.isArray(value) || value.some((a) => a === null)) return undefined;
      size += value.length;
    }
  }
  return size;
}
