import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { GraphQLError } from 'graphql';

/** The parts of the page's location the endpoints derive from. */
export interface PageLocation {
  protocol: string;
  host: string;
  origin: string;
}

/** Where GraphiQL sends operations: this server's /graphql, subscriptions over graphql-ws on the same path. */
export function endpoints(location: PageLocation): { url: string; subscriptionUrl: string } {
  return {
    url: `${location.origin}/graphql`,
    subscriptionUrl: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
  };
}

/** What a request without a key gets, from the page itself: the server would refuse it (401). */
export const NO_KEY_ANSWER = {
  errors: [
    new GraphQLError('Every request needs an API key: enter it above, or set "Authorization": "Bearer <API key>" in the Headers tab.', {
      extensions: { code: 'UNAUTHENTICATED' },
    }),
  ],
};

/** A Bearer token with something after "Bearer " in the headers GraphiQL passes (any case of the name). */
export function hasBearerToken(headers: Record<string, unknown> | undefined): boolean {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return typeof value === 'string' && /^Bearer\s+\S+/i.test(value.trim());
}

/**
 * GraphiQL's fetcher: JSON POSTs to /graphql with the Headers tab's headers (so the Bearer key
 * and Apollo's CSRF rule are satisfied), and subscriptions over graphql-ws, which receives those
 * headers as its connection parameters. Without a key nothing is sent.
 */
export function createFetcher(location: PageLocation): Fetcher {
  const http = createGraphiQLFetcher({ ...endpoints(location), enableIncrementalDelivery: false });
  return (params, options) => (hasBearerToken(options?.headers) ? http(params, options) : Promise.resolve(NO_KEY_ANSWER));
}
