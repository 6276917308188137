import './workers';
import 'graphiql/style.css';
import './graphiql.css';
import { GraphiQL } from 'graphiql';
import { StrictMode, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { storedKey, storeKey } from '../lib/stored-key';
import { createFetcher } from './fetcher';

/** What the editor opens with: a search, then the analysis of a key it returns. */
const EXAMPLE = `# Every request carries the API key of the Headers tab below.
# Run a search, then paste a trackKey it returns into the second query.

query Search {
  search(track: "Money", artist: "Pink Floyd", limit: 3) {
    trackKey
    trackName
    artist
    match_score
  }
}

query Analysis {
  analysis(trackKey: "bc24aaa5a97c70ed") {
    trackName
    tempo
    keyString
    energy
    mood { happy sad relaxed aggressive }
  }
}
`;

const headersFor = (key: string): string => JSON.stringify({ Authorization: `Bearer ${key}` }, null, 2);

function Explorer() {
  // A key signed in on the dashboard is used here too (the same tab's storage).
  const [key, setKey] = useState(() => storedKey() ?? '');
  const [draft, setDraft] = useState(key);
  const fetcher = useMemo(() => createFetcher(window.location), []);

  const useKey = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    storeKey(next);
    setKey(next);
  };

  return (
    <div className="explorer">
      <form className="explorer-bar" onSubmit={useKey} aria-label="Authorization">
        <a className="explorer-home" href="/">
          trackgraph
        </a>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="sent as Authorization: Bearer …"
        />
        <button type="submit">Use key</button>
        <span className="explorer-note">Kept in this tab only, as the dashboard keeps it.</span>
      </form>
      {/* A new key starts GraphiQL afresh: its Headers tab holds it and the schema is read with it. */}
      <GraphiQL
        key={key}
        fetcher={fetcher}
        defaultQuery={EXAMPLE}
        defaultHeaders={headersFor(key)}
        initialHeaders={headersFor(key)}
        shouldPersistHeaders={false}
        defaultEditorToolsVisibility="headers"
      >
        <GraphiQL.Logo>trackgraph</GraphiQL.Logo>
      </GraphiQL>
    </div>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('graphiql/index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <Explorer />
  </StrictMode>,
);
