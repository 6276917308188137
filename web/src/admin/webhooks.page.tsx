import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState, type FormEvent } from 'react';
import { usePageTitle } from '../app/page';
import { problemOf } from '../graphql/problem';
import { dateTime } from '../lib/format';
import { AdminGuard } from './admin.guard';
import { CreateWebhookDocument, DeleteWebhookDocument, TestWebhookDocument, WebhooksDocument, type WebhooksQuery } from '../gql/graphql';
import { SecretNotice } from './secret.notice';

const EVENTS = ['analysis.completed', 'analysis.failed'] as const;
/** Deliveries shown per webhook, newest first. */
const LOG = 10;
const POLL_MS = 1000;

type Webhook = WebhooksQuery['webhooks'][number];

function CreateWebhook() {
  const id = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...EVENTS]);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [create, { loading, error }] = useMutation(CreateWebhookDocument, { refetchQueries: [WebhooksDocument] });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await create({ variables: { url: url.trim(), events } }).catch(() => undefined);
    const made = result?.data?.createWebhook;
    if (made) {
      setCreated({ url: made.webhook.url, secret: made.secret });
      setUrl('');
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add a webhook</h2>
      {created ? (
        <SecretNotice title={`The signing secret of ${created.url}:`} secret={created.secret} onDone={() => setCreated(null)} />
      ) : (
        <form className="inline-form" onSubmit={(e) => void submit(e)}>
          <div className="field grow">
            <label htmlFor={`${id}-url`}>Endpoint URL</label>
            <input id={`${id}-url`} type="url" inputMode="url" placeholder="https://example.com/hooks/trackgraph" value={url} onChange={(e) => setUrl(e.target.value)} required />
          </div>
          <fieldset className="events">
            <legend>Events</legend>
            {EVENTS.map((e) => (
              <label key={e} className="check">
                <input type="checkbox" checked={events.includes(e)} onChange={(ev) => setEvents(ev.target.checked ? [...events, e] : events.filter((x) => x !== e))} />
                {e}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={loading || events.length === 0}>
            {loading ? 'Adding…' : 'Add webhook'}
          </button>
        </form>
      )}
      {error && (
        <p className="error" role="alert">
          The webhook was not added: {problemOf(error).message}
        </p>
      )}
    </section>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  if (webhook.deliveries.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption>Deliveries to {webhook.url}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Attempt</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Response
            </th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {webhook.deliveries.map((d) => (
            <tr key={`${d.id}-${d.attempt}`}>
              <th scope="row">{d.event}</th>
              <td>{d.attempt}</td>
              <td>
                <span className={`badge delivery-${d.status.toLowerCase()}`}>{d.status.toLowerCase()}</span>
                {d.nextAttemptAt && <span className="muted"> next {dateTime(d.nextAttemptAt)}</span>}
              </td>
              <td className="num">{d.responseStatus ?? '—'}</td>
              <td className="num">{d.durationMs !== null ? `${d.durationMs} ms` : '—'}</td>
              <td>{dateTime(d.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WebhookCard({ webhook, onTested }: { webhook: Webhook; onTested: (deliveryId: string) => void }) {
  const [test, testing] = useMutation(TestWebhookDocument);
  const [remove, removing] = useMutation(DeleteWebhookDocument, { refetchQueries: [WebhooksDocument] });
  const [confirming, setConfirming] = useState(false);
  const failure = testing.error ?? removing.error;
  return (
    <li className="webhook panel">
      <h3 className="webhook-url">{webhook.url}</h3>
      <p className="webhook-facts">
        {webhook.events.join(', ')} · added {dateTime(webhook.createdAt)} ·{' '}
        {webhook.disabledAt ? (
          <span className="badge delivery-failed">
            disabled {dateTime(webhook.disabledAt)}: {webhook.disabledReason ?? 'no reason given'}
          </span>
        ) : (
          <span className="badge delivery-succeeded">active</span>
        )}
        {webhook.consecutiveFailures > 0 && ` · ${webhook.consecutiveFailures} failures in a row`}
      </p>
      <div className="actions">
        <button
          type="button"
          disabled={testing.loading}
          onClick={() =>
            void test({ variables: { id: webhook.id } }).then(
              (result) => result.data && onTested(result.data.testWebhook.id),
              () => undefined,
            )
          }
          aria-label={`Send test to ${webhook.url}`}
        >
          {testing.loading ? 'Sending…' : 'Send test'}
        </button>
        {confirming ? (
          <>
            <button type="button" className="danger" autoFocus disabled={removing.loading} onClick={() => void remove({ variables: { id: webhook.id } }).catch(() => undefined)}>
              Delete this webhook now
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirming(true)} aria-label={`Delete the webhook ${webhook.url}`}>
            Delete
          </button>
        )}
      </div>
      {failure && (
        <p className="error" role="alert">
          {problemOf(failure).message}
        </p>
      )}
      <h4>Delivery log</h4>
      <Deliveries webhook={webhook} />
    </li>
  );
}

function WebhookList() {
  // After "Send test", the log is asked again every second until that delivery has an outcome.
  const [watched, setWatched] = useState<string | null>(null);
  const { data, loading, error, refetch } = useQuery(WebhooksDocument, { variables: { deliveries: LOG }, pollInterval: watched ? POLL_MS : 0 });
  const delivery = watched ? data?.webhooks.flatMap((w) => w.deliveries).find((d) => d.id === watched) : undefined;
  if (watched && delivery && delivery.status !== 'PENDING') setWatched(null);
  return (
    <section className="panel-group" aria-labelledby="webhook-list-title">
      <h2 id="webhook-list-title">Webhooks</h2>
      {loading && <p role="status">Loading webhooks…</p>}
      {error && (
        <p className="error" role="alert">
          {problemOf(error).message}
        </p>
      )}
      {data && data.webhooks.length === 0 && <p>No webhooks yet.</p>}
      {data && data.webhooks.length > 0 && (
        <ul className="webhooks">
          {data.webhooks.map((w) => (
            <WebhookCard
              key={w.id}
              webhook={w}
              onTested={(deliveryId) => {
                setWatched(deliveryId);
                void refetch();
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Webhooks: add one (its signing secret shown once), send a test event, read the delivery log.
 * A read key manages its own, an admin key all of them.
 */
export function WebhooksPage() {
  usePageTitle('Webhooks');
  return (
    <section>
      <h1 id="webhooks-title" tabIndex={-1}>
        Webhooks
      </h1>
      <AdminGuard adminOnly={false}>
        <CreateWebhook />
        <WebhookList />
      </AdminGuard>
    </section>
  );
}
