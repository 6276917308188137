import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

/** A failure as the dashboard shows it: the API's code (when it gave one) and a message for people. */
export interface Problem {
  code?: string;
  message: string;
  /** HTTP status of an answer refused before GraphQL ran (401, 429 …). */
  status?: number;
}

interface ErrorBody {
  errors?: { message?: unknown; extensions?: { code?: unknown } }[];
}

/** The first error of a GraphQL response body, when the body is one. */
function firstOfBody(text: string): { code?: string; message?: string } {
  try {
    const first = (JSON.parse(text) as ErrorBody).errors?.[0];
    return {
      ...(typeof first?.extensions?.code === 'string' ? { code: first.extensions.code } : {}),
      ...(typeof first?.message === 'string' ? { message: first.message } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * What went wrong, from whatever Apollo Client reports: GraphQL errors (200 with `errors`), an
 * HTTP refusal (401, 429, 400 with the API's body) or a network failure.
 */
export function problemOf(error: unknown): Problem {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const code = first?.extensions?.['code'];
    return { ...(typeof code === 'string' ? { code } : {}), message: first?.message ?? error.message };
  }
  if (ServerError.is(error)) {
    const body = firstOfBody(error.bodyText);
    return { ...body, message: body.message ?? `the server answered ${error.statusCode}`, status: error.statusCode };
  }
  if (error instanceof TypeError) return { message: 'the server cannot be reached' };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** Is this the API refusing the key (unknown, revoked or expired)? */
export function isRefusedKey(problem: Problem): boolean {
  return problem.status === 401 || problem.code === 'UNAUTHENTICATED';
}
