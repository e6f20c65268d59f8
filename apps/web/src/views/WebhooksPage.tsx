import type { ShortlinksClient, Webhook, WebhookDelivery, WebhookDeliveryDetail } from '@shortlinks/client';
import { WEBHOOK_EVENT_TYPES } from '@shortlinks/contract/rules';
import { useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/**
 * Webhooks (docs/webhooks.md): add one (the events to pick; the secret shown once, with how to
 * verify it), enable or disable it, its delivery log with each attempt, retry a delivery, send a test.
 */
export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  const { client } = useShortlinks();
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [error, setError] = useState<string>();
  const [secret, setSecret] = useState<{ id: string; secret: string }>();
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let current = true;
    client.webhooks.list().then(
      (list) => current && setWebhooks(list.webhooks),
      (caught) => current && setError(formErrorOf(caught).message),
    );
    return () => {
      current = false;
    };
  }, [client, version]);

  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
      </div>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      <NewWebhookForm
        client={client}
        onCreated={(created) => {
          setSecret(created);
          changed();
        }}
      />
      {secret ? <SecretNotice secret={secret.secret} onDone={() => setSecret(undefined)} /> : null}
      {webhooks === undefined ? (
        <div className="spinner" role="status" aria-label="Loading webhooks" />
      ) : webhooks.length === 0 ? (
        <p className="panel">No webhooks yet.</p>
      ) : (
        <ul className="webhook-list" aria-label="Webhooks">
          {webhooks.map((webhook) => (
            <WebhookItem key={webhook.id} client={client} webhook={webhook} onChanged={changed} onSecret={setSecret} />
          ))}
        </ul>
      )}
    </>
  );
}

function NewWebhookForm({ client, onCreated }: { client: ShortlinksClient; onCreated: (created: { id: string; secret: string }) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['link.created']);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const created = await client.webhooks.create({
        url,
        events: events as (typeof WEBHOOK_EVENT_TYPES)[number][],
        ...(description ? { description } : {}),
      });
      setUrl('');
      setDescription('');
      setProblem(undefined);
      onCreated({ id: created.id, secret: created.secret });
    } catch (caught) {
      setProblem(formErrorOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel webhook-form" aria-label="Add a webhook" onSubmit={submit}>
      <label>
        Endpoint URL
        <input type="url" required value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://example.com/hooks" />
      </label>
      <label>
        Description
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(event) => setEvents(event.target.checked ? [...events, type] : events.filter((chosen) => chosen !== type))}
            />
            {type}
          </label>
        ))}
      </fieldset>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={busy}>
        Add webhook
      </button>
    </form>
  );
}

/** The secret, shown once, and how a receiver verifies a delivery with it. */
function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <section className="panel webhook-secret" aria-label="Signing secret">
      <p>
        The signing secret, shown only now. Keep it with your receiver: it verifies each delivery with the <code>standardwebhooks</code>{' '}
        package.
      </p>
      <code data-testid="webhook-secret">{secret}</code>
      <pre>{`import { Webhook } from 'standardwebhooks';
const event = new Webhook(secret).verify(rawBody, request.headers);`}</pre>
      <button type="button" className="button small" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function WebhookItem({
  client,
  webhook,
  onChanged,
  onSecret,
}: {
  client: ShortlinksClient;
  webhook: Webhook;
  onChanged: () => void;
  onSecret: (secret: { id: string; secret: string }) => void;
}) {
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string>();
  const act = (work: () => Promise<unknown>) => () => work().then(onChanged, (caught) => setProblem(formErrorOf(caught).message));
  return (
    <li className="panel webhook" aria-label={webhook.url}>
      <div className="webhook-head">
        <strong>{webhook.url}</strong>
        <span className="webhook-state">{webhook.enabled ? 'Enabled' : 'Disabled'}</span>
      </div>
      {webhook.description ? <p>{webhook.description}</p> : null}
      <p className="webhook-events">{webhook.events.join(', ')}</p>
      {webhook.disabled_reason ? <p role="status">Disabled: {webhook.disabled_reason}</p> : null}
      {problem ? <p role="alert">{problem}</p> : null}
      <div className="webhook-actions">
        <button
          type="button"
          className="button small"
          onClick={act(() => client.webhooks.update({ id: webhook.id, enabled: !webhook.enabled }))}
        >
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="button small" onClick={act(() => client.webhooks.test(webhook.id))}>
          Send a test
        </button>
        <button type="button" className="button small" onClick={act(async () => onSecret(await client.webhooks.rotateSecret(webhook.id)))}>
          Rotate secret
        </button>
        <button type="button" className="button small" onClick={() => setOpen(!open)} aria-expanded={open}>
          Deliveries
        </button>
        <button type="button" className="button small danger" onClick={act(() => client.webhooks.delete(webhook.id))}>
          Delete
        </button>
      </div>
      {open ? <DeliveryLog client={client} webhookId={webhook.id} /> : null}
    </li>
  );
}

/** The delivery log, newest first, refreshed every few seconds while open; a delivery opens to its attempts. */
function DeliveryLog({ client, webhookId }: { client: ShortlinksClient; webhookId: string }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>();
  const [shown, setShown] = useState<WebhookDeliveryDetail>();
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 2_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    let current = true;
    client.webhooks.deliveries(webhookId, { per_page: 20 }).then((page) => current && setDeliveries(page.deliveries));
    return () => {
      current = false;
    };
  }, [client, webhookId, tick]);

  if (!deliveries) return <div className="spinner" role="status" aria-label="Loading deliveries" />;
  if (deliveries.length === 0) return <p>No deliveries yet.</p>;
  return (
    <table className="delivery-log" aria-label="Deliveries">
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Last answer</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <DeliveryRow
            key={delivery.id}
            delivery={delivery}
            detail={shown?.id === delivery.id ? shown : undefined}
            onShow={async () =>
              setShown(shown?.id === delivery.id ? undefined : await client.webhooks.delivery({ id: webhookId, delivery_id: delivery.id }))
            }
            onRetry={async () => {
              await client.webhooks.retryDelivery({ id: webhookId, delivery_id: delivery.id });
              setTick((t) => t + 1);
            }}
          />
        ))}
      </tbody>
    </table>
  );
}

function DeliveryRow({
  delivery,
  detail,
  onShow,
  onRetry,
}: {
  delivery: WebhookDelivery;
  detail: WebhookDeliveryDetail | undefined;
  onShow: () => void;
  onRetry: () => void;
}) {
  return (
    <>
      <tr data-testid="delivery">
        <td>{delivery.type}</td>
        <td>{delivery.status}</td>
        <td>{delivery.attempts}</td>
        <td>{delivery.last_status_code ?? delivery.last_error ?? ''}</td>
        <td>
          <button type="button" className="button small" onClick={onShow}>
            Attempts
          </button>
          <button type="button" className="button small" onClick={onRetry}>
            Retry
          </button>
        </td>
      </tr>
      {detail ? (
        <tr>
          <td colSpan={5}>
            <ol aria-label="Attempts">
              {detail.attempt_log.map((attempt) => (
                <li key={attempt.attempted_at}>
                  {new Date(attempt.attempted_at).toLocaleString()}: {attempt.status_code ?? attempt.error} ({attempt.duration_ms} ms)
                </li>
              ))}
            </ol>
            <pre className="delivery-body">{detail.request_body}</pre>
          </td>
        </tr>
      ) : null}
    </>
  );
}
