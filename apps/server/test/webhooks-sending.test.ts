import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/**
 * The rules of sending (issue #29, docs/webhooks.md "Limits"): a redirect is not followed, the
 * first 4 KiB of an answer are kept, a receiver has 15 s to answer, the deliveries of one webhook
 * go a few at a time (a slow receiver holds no other), and delivery records are deleted after
 * WEBHOOK_LOG_DAYS.
 */
describe('sending webhooks', () => {
  let server: TestServer;
  const servers: Server[] = [];

  beforeAll(async () => {
    // One attempt: each outcome below is the first and last.
    server = await startTestServer({ webhooks: { allowPrivateTargets: true, retryDelays: [0], logDays: 1 } });
  });
  afterAll(async () => {
    await server?.close();
    for (const other of servers) {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  /** A plain receiver on loopback answering with `answer`; `hits` counts its requests. */
  async function plainReceiver(
    answer: (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void,
  ) {
    const state = { hits: 0, url: '' };
    const receiver = createServer((request, response) => {
      state.hits += 1;
      request.resume();
      request.on('end', () => answer(request, response));
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    servers.push(receiver);
    state.url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    return state;
  }

  async function onlyDelivery(account: TestAccount, hookId: string) {
    await waitFor(
      async () => (await account.call('GET', `/webhooks/${hookId}/deliveries`)).body.deliveries[0]?.status === 'failed',
      40_000,
      'the delivery failed',
    );
    const [delivery] = (await account.call('GET', `/webhooks/${hookId}/deliveries`)).body.deliveries;
    return (await account.call('GET', `/webhooks/${hookId}/deliveries/${delivery.id}`)).body;
  }

  test('a redirect is not followed: the delivery fails with the 3xx, and its target is never called', async () => {
    const target = await plainReceiver((_request, response) => response.writeHead(204).end());
    const redirecting = await plainReceiver((_request, response) => response.writeHead(307, { location: `${target.url}/hook` }).end());
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: `${redirecting.url}/hook`, events: ['link.created'] })).body;
    await createLink(account);
    const delivery = await onlyDelivery(account, hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 307 });
    expect(delivery.last_error).toMatch(/307/);
    expect(redirecting.hits).toBe(1);
    expect(target.hits).toBe(0);
  });

  test('one delivery shows the first 4 KiB of the last answer', async () => {
    const long = await plainReceiver((_request, response) => response.writeHead(500).end('x'.repeat(10_000)));
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: `${long.url}/hook`, events: ['link.created'] })).body;
    const link = await createLink(account);
    const delivery = await onlyDelivery(account, hook.id);
    expect(delivery.last_status_code).toBe(500);
    expect(delivery.last_response_body).toBe('x'.repeat(4096));
    expect(JSON.parse(delivery.request_body)).toMatchObject({ type: 'link.created', data: { id: link.id } });
  });

  test('a receiver that does not answer within 15 s fails the attempt', { timeout: 60_000 }, async () => {
    const silent = await plainReceiver(() => {});
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: `${silent.url}/hook`, events: ['link.created'] })).body;
    await createLink(account);
    const delivery = await onlyDelivery(account, hook.id);
    expect(delivery).toMatchObject({ status: 'failed', last_status_code: null });
    expect(delivery.last_error).toMatch(/no answer within 15 s/);
    expect(delivery.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(14_900);
  });

  test('deliveries of one webhook go a few at a time; a slow receiver holds no other webhook', { timeout: 90_000 }, async () => {
    let inFlight = 0;
    let most = 0;
    const counting = await plainReceiver((_request, response) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.writeHead(204).end();
      }, 3_000);
    });
    const fast = await new WebhookReceiver().start();
    try {
      const account = await createAccount(server, { plan: 'unlimited' });
      await account.call('POST', '/webhooks', { url: `${counting.url}/hook`, events: ['link.created'] });
      const quick = (await account.call('POST', '/webhooks', { url: fast.url, events: ['link.created'] })).body;
      fast.secrets.push(quick.secret);
      for (let i = 0; i < 12; i++) await createLink(account);
      // The quick receiver has all twelve while the slow one, four at a time, is still at it.
      await waitFor(() => fast.uniqueIds().size === 12, 30_000, 'the quick receiver');
      expect(counting.hits).toBeLessThan(12);
      await waitFor(() => counting.hits === 12 && inFlight === 0, 60_000, 'the slow receiver');
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(4);
    } finally {
      await fast.stop();
    }
  });

  test('delivery records older than WEBHOOK_LOG_DAYS are deleted; pending ones are kept', async () => {
    const receiver = await plainReceiver((_request, response) => response.writeHead(204).end());
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: `${receiver.url}/hook`, events: ['link.created'] })).body;
    await createLink(account);
    await createLink(account);
    await waitFor(
      async () => (await account.call('GET', `/webhooks/${hook.id}/deliveries?status=succeeded`)).body.total === 2,
      20_000,
      'two deliveries',
    );
    const db = server.orm.em.fork().getConnection();
    const [old, recent] = (await account.call('GET', `/webhooks/${hook.id}/deliveries`)).body.deliveries;
    // Two days old (the setting is one day): one sent, and one made to look still pending.
    await db.execute("update webhook_delivery set created_at = clock_timestamp() - interval '2 days' where id in (?, ?)", [
      old.id,
      recent.id,
    ]);
    await db.execute(
      "update webhook_delivery set status = 'pending', next_attempt_at = clock_timestamp() + interval '1 hour' where id = ?",
      [recent.id],
    );
    await server.services.webhookQueue.sweep();
    const left = (await account.call('GET', `/webhooks/${hook.id}/deliveries`)).body.deliveries.map((d: { id: string }) => d.id);
    expect(left).toEqual([recent.id]);
    expect((await db.execute('select count(*)::int as n from webhook_attempt where delivery_id = ?', [old.id]))[0]?.n).toBe(0);
  });
  // Last: it stops this server's queue for a while, and starts it again.
  test('the sweep gives a job again only to a delivery whose job is gone, not to one waiting its turn', async () => {
    const receiver = await plainReceiver((_request, response) => response.writeHead(204).end());
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: `${receiver.url}/hook`, events: ['link.created'] })).body;
    await server.services.webhookQueue.stop();
    try {
      await createLink(account);
      const db = server.orm.em.fork().getConnection();
      const [delivery] = await db.execute('select id from webhook_delivery where webhook_id = ?', [hook.id]);
      if (!delivery) throw new Error('no delivery');
      const key = `webhook_delivery:${delivery.id}`;
      const job = async () => (await db.execute('select id::text, revision from graphile_worker.jobs where key = ?', [key]))[0];
      const waiting = await job();
      expect(waiting).toMatchObject({ revision: 0 });
      // Overdue by a minute, its job waiting in line: the sweep leaves it alone.
      await db.execute("update webhook_delivery set next_attempt_at = clock_timestamp() - interval '1 minute' where id = ?", [delivery.id]);
      await server.services.webhookQueue.sweep();
      expect(await job()).toEqual(waiting);
      // Its job gone (as after a restore, or a job given up on): the sweep adds one.
      await db.execute('select graphile_worker.remove_job(?)', [key]);
      expect(await job()).toBeUndefined();
      await server.services.webhookQueue.sweep();
      expect(await job()).toMatchObject({ revision: 0 });
    } finally {
      await server.services.webhookQueue.start(server.databaseUrl);
    }
    await waitFor(async () => receiver.hits === 1, 20_000, 'the delivery sent');
  });
});
