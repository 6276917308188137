import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState, type FormEvent } from 'react';
import { usePageTitle } from '../app/page';
import { problemOf } from '../graphql/problem';
import { dateTime } from '../lib/format';
import { AdminGuard } from './admin.guard';
import { ApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument, type ApiKeyRowFragment, type ApiKeyScope } from '../gql/graphql';
import { SecretNotice } from './secret.notice';

/** The first day a new key may expire: tomorrow (UTC), as the date input writes it. */
function tomorrow(): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString().slice(0, 10);
}

function stateOf(key: ApiKeyRowFragment, now: number): string {
  if (key.revokedAt) return `revoked ${dateTime(key.revokedAt)}`;
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return `expired ${dateTime(key.expiresAt)}`;
  return 'active';
}

function CreateKey() {
  const id = useId();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('READ');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [create, { loading, error }] = useMutation(CreateApiKeyDocument, { refetchQueries: [ApiKeysDocument] });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The key stops working at the start of that day, UTC, as the CLI's --expires reads a date.
    const expiresAt = expires ? `${expires}T00:00:00.000Z` : null;
    const result = await create({ variables: { name: name.trim(), scope, expiresAt } }).catch(() => undefined);
    const made = result?.data?.createApiKey;
    if (made) {
      setCreated({ name: made.apiKey.name, key: made.key });
      setName('');
      setExpires('');
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a key</h2>
      {created ? (
        <SecretNotice title={`The new key “${created.name}”:`} secret={created.key} onDone={() => setCreated(null)} />
      ) : (
        <form className="inline-form" onSubmit={(e) => void submit(e)}>
          <div className="field grow">
            <label htmlFor={`${id}-name`}>Name</label>
            <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor={`${id}-scope`}>Scope</label>
            <select id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
              <option value="READ">read (the API)</option>
              <option value="ADMIN">admin (also keys, webhooks, usage)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-expires`}>Expires on (optional, UTC)</label>
            <input id={`${id}-expires`} type="date" min={tomorrow()} value={expires} onChange={(e) => setExpires(e.target.value)} />
          </div>
          <button type="submit" disabled={loading}>
            {loading ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}
      {error && (
        <p className="error" role="alert">
          The key was not created: {problemOf(error).message}
        </p>
      )}
    </section>
  );
}

function RevokeButton({ apiKey }: { apiKey: ApiKeyRowFragment }) {
  const [confirming, setConfirming] = useState(false);
  const [revoke, { loading, error }] = useMutation(RevokeApiKeyDocument);
  if (apiKey.revokedAt) return null;
  // Keys of API_KEYS and ADMIN_API_KEYS are removed from the configuration, not revoked here.
  if (apiKey.source === 'API_KEYS' || apiKey.source === 'ADMIN_API_KEYS') return <span className="muted">set in configuration</span>;
  if (!confirming) {
    return (
      <button type="button" className="danger" onClick={() => setConfirming(true)} aria-label={`Revoke ${apiKey.name}`}>
        Revoke
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={`Confirm revoking ${apiKey.name}`}>
      <button
        type="button"
        className="danger"
        disabled={loading}
        autoFocus
        onClick={() => void revoke({ variables: { id: apiKey.id } }).catch(() => undefined)}
      >
        Revoke now<span className="visually-hidden"> “{apiKey.name}”</span>
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {error && (
        <span className="error" role="alert">
          {problemOf(error).message}
        </span>
      )}
    </span>
  );
}

function KeyList() {
  const { data, loading, error } = useQuery(ApiKeysDocument);
  const now = Date.now();
  return (
    <section className="panel" aria-labelledby="keys-list-title">
      <h2 id="keys-list-title">Keys</h2>
      {loading && <p role="status">Loading keys…</p>}
      {error && (
        <p className="error" role="alert">
          {problemOf(error).message}
        </p>
      )}
      {data && (
        // Focusable: a table wider than the screen scrolls, and a keyboard must reach it too.
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Table of API keys">
          <table className="keys-table">
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.apiKeys.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td>{k.scope.toLowerCase()}</td>
                  <td>{dateTime(k.createdAt)}</td>
                  <td>{k.expiresAt ? dateTime(k.expiresAt) : 'never'}</td>
                  <td>{k.lastUsedAt ? dateTime(k.lastUsedAt) : 'never'}</td>
                  <td>{stateOf(k, now)}</td>
                  <td>
                    <RevokeButton apiKey={k} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** API keys: create (with an expiry), revoke, and when each was last used. Admin keys only. */
export function KeysPage() {
  usePageTitle('Keys');
  return (
    <section>
      <h1 id="keys-title" tabIndex={-1}>
        Keys
      </h1>
      <AdminGuard adminOnly>
        <CreateKey />
        <KeyList />
      </AdminGuard>
    </section>
  );
}
