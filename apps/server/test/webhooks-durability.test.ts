import type { Orm } from '@shortlinks/db';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { createAccount, createLink, startTestServer, type TestServer } from './harness.ts';
import { isReady, startServerProcess, waitFor } from './processes.ts';
import { type WebhookProcessWorld, webhookProcessWorld } from './webhook-process-world.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/**
 * Webhooks never lost (issue #29): the server's real process SIGKILLed between the commit of the
 * changes and their delivery still delivers them after a restart, and two instances on one
 * database send each event once.
 */
describe('webhooks across a SIGKILL', () => {
  let world: WebhookProcessWorld;
  let orm: Orm;
  let key: string;
  let env: Record<string, string>;
  let base: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    world = await webhookProcessWorld('Hooks', { WEBHOOK_RETRY_DELAYS: '0,1,1,1,1,1,1,1,1,1' });
    ({ orm, key, env, base, receiver } = world);
  });
  afterAll(async () => {
    await world?.stop();
  });

  test('changes committed while the receiver hangs are delivered, once, after the server is killed and restarted', {
    timeout: 180_000,
  }, async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const first = startServerProcess(env);
    onTestFinished(() => {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    });
    await waitFor(() => isReady(base), 60_000, 'the server');
    const hook = (await (
      await fetch(`${base}/api/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, events: ['link.created'] }),
      })
    ).json()) as { secret: string };
    receiver.secrets.push(hook.secret);
    // The receiver takes the requests and does not answer: the server dies mid-delivery.
    receiver.delayMs = 600_000;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${base}/api/v1/links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: `Kill ${i}`, destination_url: `https://example.com/kill/${i}` }),
      });
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { id: string }).id);
    }
    const inFlight = async () =>
      (await orm.em.fork().getConnection().execute('select count(*)::int as n from webhook_delivery where claimed_until is not null'))[0]
        ?.n > 0;
    await waitFor(inFlight, 20_000, 'a delivery in flight');
    first.child.kill('SIGKILL');
    await new Promise((resolve) =>
      first.child.exitCode !== null || first.child.signalCode !== null ? resolve(undefined) : first.child.once('exit', resolve),
    );
    receiver.delayMs = 0;

    const second = startServerProcess(env);
    try {
      await waitFor(() => isReady(base), 60_000, 'the restarted server');
      // A delivery taken by the killed server is taken again once its claim runs out (45 s).
      await waitFor(() => receiver.uniqueIds().size === ids.length, 120_000, 'every event delivered');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.received.map((message) => message.data.id).sort()).toEqual([...ids].sort());
      expect(receiver.refused).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    }
  });
});

describe('webhooks with two instances on one database', () => {
  let servers: TestServer[];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const settings = { allowPrivateTargets: true, retryDelays: [0, 1, 1] };
    const first = await startTestServer({ webhooks: settings });
    servers = [first, await startTestServer({ databaseUrl: first.databaseUrl, webhooks: settings })];
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    for (const server of servers ?? []) await server.close();
    await receiver?.stop();
  });

  test('each event is sent by one of them, once', { timeout: 60_000 }, async () => {
    const [first, second] = servers as [TestServer, TestServer];
    const account = await createAccount(first, { plan: 'unlimited' });
    const hook = (await account.call('POST', '/webhooks', { url: receiver.url, events: ['link.created', 'link.deleted'] })).body;
    receiver.secrets.push(hook.secret);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await createLink(account)).id);
    // The second instance's writes too (the same account, through its own process).
    const other = { ...account, call: (method: string, path: string, body?: unknown) => callOn(second, account.key, method, path, body) };
    for (const id of ids.slice(0, 10)) expect((await other.call('DELETE', `/links/${id}`)).status).toBe(204);
    await waitFor(() => receiver.uniqueIds().size === 40, 40_000, 'forty events');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(40);
  });
});

async function callOn(server: TestServer, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status };
}
