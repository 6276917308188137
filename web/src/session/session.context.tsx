import { ApolloProvider, useQuery } from '@apollo/client/react';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ViewerDocument, type ApiKeyScope } from '../gql/graphql';
import { createClient } from '../graphql/apollo.client';
import { problemOf, type Problem } from '../graphql/problem';
import { storedKey, storeKey } from '../lib/stored-key';

export interface Session {
  signedIn: boolean;
  /** Why the user was signed out, when the API refused the key (revoked or expired). */
  notice: string | null;
  /** Checks the key with the API and keeps it; resolves to the refusal, or null when signed in. */
  signIn(key: string): Promise<Problem | null>;
  signOut(notice?: string): void;
  /** The key's scope, once the server has told it (null while loading). */
  scope: ApiKeyScope | null;
  /** The key's name, as the server knows it. */
  name: string | null;
  /** The signed-in key, for the calls the GraphQL client does not make (the REST upload). */
  apiKey(): string | null;
}

const SessionContext = createContext<Session | null>(null);

/** The sign-in: the key, the GraphQL client that sends it, and what the key may do. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const keyRef = useRef<string | null>(storedKey());
  const [signedIn, setSignedIn] = useState(keyRef.current !== null);
  const [notice, setNotice] = useState<string | null>(null);

  const endSession = useRef<(notice?: string) => void>(() => undefined);
  const client = useMemo(
    () =>
      createClient({
        apiKey: () => keyRef.current,
        onKeyRefused: (problem) => endSession.current(`The API refused the key: ${problem.message}. Sign in again.`),
      }),
    [],
  );

  const signOut = useCallback(
    (why?: string) => {
      keyRef.current = null;
      storeKey(null);
      setNotice(why ?? null);
      setSignedIn(false);
      // Nothing one key was allowed to read stays for the next.
      void client.clearStore();
    },
    [client],
  );
  endSession.current = signOut;

  const signIn = useCallback(
    async (key: string): Promise<Problem | null> => {
      try {
        await client.query({
          query: ViewerDocument,
          fetchPolicy: 'network-only',
          context: { signInCheck: true, headers: { authorization: `Bearer ${key}` } },
        });
      } catch (error) {
        return problemOf(error);
      }
      keyRef.current = key;
      storeKey(key);
      setNotice(null);
      setSignedIn(true);
      return null;
    },
    [client],
  );

  const apiKey = useCallback(() => keyRef.current, []);

  return (
    <ApolloProvider client={client}>
      <Capabilities signedIn={signedIn} notice={notice} signIn={signIn} signOut={signOut} apiKey={apiKey}>
        {children}
      </Capabilities>
    </ApolloProvider>
  );
}

/** What the key may do (its scope), asked once per sign-in. */
function Capabilities(props: Pick<Session, 'signedIn' | 'notice' | 'signIn' | 'signOut' | 'apiKey'> & { children: ReactNode }) {
  const { signedIn } = props;
  const viewer = useQuery(ViewerDocument, { skip: !signedIn });
  const value = useMemo<Session>(
    () => ({
      signedIn,
      notice: props.notice,
      signIn: props.signIn,
      signOut: props.signOut,
      scope: viewer.data?.viewer.scope ?? null,
      name: viewer.data?.viewer.name ?? null,
      apiKey: props.apiKey,
    }),
    [signedIn, props.notice, props.signIn, props.signOut, props.apiKey, viewer.data],
  );
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
