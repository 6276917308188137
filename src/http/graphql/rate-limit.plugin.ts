import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { rateLimitHeaders, refusal, type GraphQLCharges } from '../../ops/rate-limit';
import type { GraphQLContext } from './graphql.context';

/**
 * GraphQL: each operation is charged by its cost (set on the context by the cost-limit plugin
 * before this one runs), through the one GraphQLCharges the edge cache and subscriptions share.
 */
export function graphqlRateLimitPlugin(charges: GraphQLCharges): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, response }) {
          // The edge cache may have charged this request already (it then fell through to be refused here).
          const decision = contextValue.charged ?? (await charges.charge(contextValue.principal.id, contextValue.cost ?? 1));
          if (!decision) return;
          // Apollo's header maps want lower-case names.
          const headers = rateLimitHeaders(decision).map(([name, value]): [string, string] => [name.toLowerCase(), value]);
          for (const [name, value] of headers) response.http.headers.set(name, value);
          if (decision.allowed) return;
          throw new GraphQLError(refusal(decision), {
            extensions: {
              code: 'RATE_LIMITED',
              retryAfter: decision.resetS,
              http: { status: 429, headers: new Map(headers) },
            },
          });
        },
      };
    },
  };
}
