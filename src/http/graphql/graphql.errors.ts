import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, INTERNAL_MESSAGE } from '../../core/errors';
import type { GraphQLContext } from './graphql.context';

/** Apollo's code for errors it knows nothing about; ours are masked as INTERNAL instead. */
const APOLLO_INTERNAL = 'INTERNAL_SERVER_ERROR';


type Classified = { kind: 'app'; error: AppError } | { kind: 'graphql' } | { kind: 'request'; message: string } | { kind: 'unexpected'; error: unknown };

/**
 * What a GraphQL error is: an AppError (thrown by a service or an argument rule), an error of
 * GraphQL itself that carries its own code (parse, validation, variables, document limits), a
 * request Apollo refused with a 4xx status but no code (a persisted-query hash that does not
 * match its query, an unsupported version), or anything else (a programmer error, or a null in
 * a non-null field), to be masked.
 */
function classify(error: unknown): Classified {
  const original = unwrapResolverError(error);
  if (original instanceof AppError) return { kind: 'app', error: original };
  if (!(original instanceof GraphQLError)) return { kind: 'unexpected', error: original };
  const code = original.extensions.code;
  if (typeof code === 'string' && code !== APOLLO_INTERNAL) return { kind: 'graphql' };
  const status = (original.extensions.http as { status?: unknown } | undefined)?.status;
  if (code === undefined && typeof status === 'number' && status >= 400 && status < 500) return { kind: 'request', message: original.message };
  return { kind: 'unexpected', error: original };
}

/**
 * Apollo's formatError: the one place GraphQL maps errors. AppErrors keep their code in
 * extensions.code and their message (plus retryAfter when they have one); GraphQL's own errors
 * keep Apollo's codes; anything else is masked as INTERNAL, its details going only to the log.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const c = classify(error);
  const where = { ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}) };
  if (c.kind === 'app') {
    const retryAfter = c.error.retryAfterS;
    return { message: c.error.message, ...where, extensions: { code: c.error.code, ...(retryAfter !== undefined ? { retryAfter } : {}) } };
  }
  if (c.kind === 'graphql') return formatted;
  if (c.kind === 'request') return { message: c.message, ...where, extensions: { code: 'BAD_REQUEST' } };
  return { message: INTERNAL_MESSAGE, ...where, extensions: { code: 'INTERNAL' } };
}

/** Logs each error of a request once, on the request's logger: expected ones as warnings, the rest as errors. */
export function errorLoggingPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const c = classify(error);
            if (c.kind === 'app' && c.error.code !== 'INTERNAL') {
              contextValue.log.warn({ code: c.error.code, msg: c.error.message, path: error.path }, 'graphql field failed');
            } else if (c.kind === 'graphql' || c.kind === 'request') {
              contextValue.log.warn({ code: error.extensions.code ?? 'BAD_REQUEST', msg: error.message }, 'graphql request refused');
            } else {
              contextValue.log.error({ err: c.kind === 'unexpected' ? c.error : error, path: error.path }, 'unexpected error');
            }
          }
        },
      };
    },
  };
}
