import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { relayStylePagination } from '@apollo/client/utilities';
import { isRefusedKey, problemOf, type Problem } from './problem';

export interface ClientOptions {
  /** The signed-in key, read for every operation (null when signed out). */
  apiKey: () => string | null;
  /** The API refused the signed-in key (revoked, expired): the user is signed out. */
  onKeyRefused: (problem: Problem) => void;
}

/**
 * Objects the API identifies: analyses by trackKey, keys and webhooks by id. The rest (search
 * results, similar tracks, usage rows) are values inside their parent answer.
 */
function cache(): InMemoryCache {
  return new InMemoryCache({
    typePolicies: {
      Query: {
        fields: {
          // A filter and an order make one list; "Load more" pages append to it.
          tracks: relayStylePagination(['filter', 'orderBy']),
        },
      },
      TrackAnalysis: { keyFields: ['trackKey'] },
      AnalysisStatus: { keyFields: ['trackKey'] },
      SearchResult: { keyFields: false },
      SimilarTrack: { keyFields: false },
      UsageDay: { keyFields: false },
    },
  });
}

/** The dashboard's GraphQL client: this server's /graphql, the signed-in key as a Bearer token. */
export function createClient(options: ClientOptions): ApolloClient {
  const auth = new SetContextLink((previous) => {
    const key = options.apiKey();
    // A header set by the operation itself (the sign-in check of a new key) wins.
    return { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(previous['headers'] as Record<string, string> | undefined) } };
  });
  const refused = new ErrorLink(({ error, operation }) => {
    if (operation.getContext()['signInCheck'] === true) return;
    const problem = problemOf(error);
    if (isRefusedKey(problem)) options.onKeyRefused(problem);
  });
  return new ApolloClient({
    link: ApolloLink.from([refused, auth, new HttpLink({ uri: '/graphql' })]),
    cache: cache(),
  });
}
