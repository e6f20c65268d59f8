import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/**
 * A process remembers the accounts it found with no enabled webhook, so their writes skip reading
 * the webhooks (webhook-outbox.ts, docs/webhooks.md "How it works"). That memory must never drop
 * an event: a webhook made, or enabled again, on one server counts for the very next write on
 * another, with no announcement awaited; one disabled or deleted stops its events at once.
 */
describe('webhook subscriptions across servers', () => {
  let first: TestServer;
  let second: TestServer;
  let receiver: WebhookReceiver;
  const settings = { allowPrivateTargets: true, retryDelays: [0, 1, 1, 2] };

  beforeAll(async () => {
    first = await startTestServer({ webhooks: settings });
    second = await startTestServer({ databaseUrl: first.databaseUrl, webhooks: settings });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await receiver?.stop();
  });

  /** Creates a link through the second server with the account's key. */
  async function createOnSecond(account: TestAccount, title: string): Promise<string> {
    const created = await callApi(second, account.key, 'POST', '/links', { title, destination_url: `https://example.com/${title}` });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  /** The webhooks a link's `link.created` event was queued for, as the database holds them once the create is answered. */
  async function deliveriesOf(linkId: string): Promise<string[]> {
    const { rows } = await sql<{ webhook_id: string }>`select d.webhook_id from webhook_delivery d
      join webhook_event e on e.id = d.event_id
      where e.type = 'link.created' and e.body -> 'data' ->> 'id' = ${linkId}`.execute(first.orm.em.fork().getKysely());
    return rows.map((row) => row.webhook_id).sort();
  }

  async function subscribe(account: TestAccount): Promise<string> {
    const created = await account.call('POST', '/webhooks', { url: receiver.url, events: ['link.created'] });
    expect(created.status).toBe(201);
    receiver.secrets.push(created.body.secret);
    return created.body.id;
  }

  test('a webhook made on one server counts for the next create on another, at once', async () => {
    const account = await createAccount(first, { plan: 'unlimited' });
    // The second server sees the account with no webhook, and remembers it.
    const before = await createOnSecond(account, 'before');
    expect(await deliveriesOf(before)).toEqual([]);

    const webhook = await subscribe(account);
    const after = await createOnSecond(account, 'after');
    // Queued in the create's own transaction: there as soon as the create is answered.
    expect(await deliveriesOf(after)).toEqual([webhook]);
    await waitFor(() => receiver.received.some((message) => message.data?.id === after), 20_000, 'the event of the create');
    expect(receiver.received.some((message) => message.data?.id === before)).toBe(false);
  });

  test('a webhook disabled or deleted stops its events at once; one enabled again counts at once', async () => {
    const account = await createAccount(first, { plan: 'unlimited' });
    const kept = await subscribe(account);
    const other = await subscribe(account);
    expect(await deliveriesOf(await createOnSecond(account, 'both'))).toEqual([kept, other].sort());

    expect((await account.call('PATCH', `/webhooks/${other}`, { enabled: false })).status).toBe(200);
    expect(await deliveriesOf(await createOnSecond(account, 'one-disabled'))).toEqual([kept]);

    expect((await account.call('DELETE', `/webhooks/${kept}`)).status).toBe(204);
    // No enabled webhook left: the second server now remembers the account as having none.
    expect(await deliveriesOf(await createOnSecond(account, 'none-left'))).toEqual([]);
    expect(await deliveriesOf(await createOnSecond(account, 'none-still'))).toEqual([]);

    expect((await account.call('PATCH', `/webhooks/${other}`, { enabled: true })).status).toBe(200);
    expect(await deliveriesOf(await createOnSecond(account, 'enabled-again'))).toEqual([other]);
  });

  test('a webhook enabled by SQL by hand counts at once too', async () => {
    const account = await createAccount(first, { plan: 'unlimited' });
    const webhook = await subscribe(account);
    expect((await account.call('PATCH', `/webhooks/${webhook}`, { enabled: false })).status).toBe(200);
    expect(await deliveriesOf(await createOnSecond(account, 'by-hand-before'))).toEqual([]);
    await sql`update webhook set enabled = true where id = ${webhook}`.execute(first.orm.em.fork().getKysely());
    expect(await deliveriesOf(await createOnSecond(account, 'by-hand-after'))).toEqual([webhook]);
  });
});
