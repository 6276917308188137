import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, OperationTypeNode, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import type { GraphQLContext } from './graphql.context';

/*
 * Client mistakes about which operation to run, answered 400 as the GraphQL-over-HTTP
 * specification asks, instead of failing inside execution (a 500, or a 200 with an error).
 */

/**
 * A mutation or subscription on a schema without that root type is a document the schema
 * cannot validate (graphql-js 17 has the same rule, KnownOperationTypesRule; 16 leaves it to
 * execution, which fails with an error that has no code).
 */
export const knownOperationTypesRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    if (!context.getSchema().getRootType(node.operation)) {
      context.reportError(new GraphQLError(`the ${node.operation} operation is not supported by this schema`, { nodes: node }));
    }
    return false;
  },
});

/**
 * Refuses a request whose operation Apollo could not pick out of the document (an unknown
 * operationName, or several operations and no name), or that is a subscription (served over
 * WebSocket only), before any other plugin needs the operation. First among the plugins with a
 * didResolveOperation.
 */
export function operationResolutionPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request }) {
          if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
            throw new GraphQLError('subscriptions are served over WebSocket (graphql-ws) at /graphql, not over HTTP', {
              extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
            });
          }
          if (operation) return;
          const name = request.operationName;
          const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
          const message =
            name !== undefined && name !== null
              ? `Unknown operation named "${name}".`
              : operations > 1
                ? 'Must provide operation name if query contains multiple operations.'
                : 'Must provide an operation.';
          throw new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } });
        },
      };
    },
  };
}
