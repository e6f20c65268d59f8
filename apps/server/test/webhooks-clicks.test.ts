import type { Orm } from '@shortlinks/db';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestServer } from './harness.ts';
import { isReady, startServerProcess, waitFor } from './processes.ts';
import { type WebhookProcessWorld, webhookProcessWorld } from './webhook-process-world.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/**
 * `link.clicked` (issue #29): each click is an event, written with the click when clicks are
 * flushed (click-batch.ts). A flush while a webhook subscribes to clicks is cut into statements
 * of a bounded number of clicks (click-chunks.ts), so it stays under the statement bound however
 * many clicks came; and a SIGTERM right after the clicks still writes them and their events.
 */
describe('link.clicked from a flush cut into statements', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // Three clicks per statement at most: every flush below takes several.
    server = await startTestServer({ clickEventsPerChunk: 3, webhooks: { allowPrivateTargets: true, retryDelays: [0, 1, 1, 1, 1] } });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  test('every click is counted and sent once, as many statements as it takes', { timeout: 60_000 }, async () => {
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: receiver.url, events: ['link.clicked'] })).body;
    receiver.secrets.push(hook.secret);
    const links = [await createLink(account), await createLink(account), await createLink(account)];
    // Four visitors (their User-Agents differ) twice on each link: groups of two clicks, four per link.
    for (const link of links)
      for (let visitor = 0; visitor < 4; visitor++)
        for (let visit = 0; visit < 2; visit++) {
          const answer = await fetch(`${server.origin}/${link.slug}`, {
            redirect: 'manual',
            headers: { 'user-agent': `${BROWSER_USER_AGENT} visitor/${visitor}` },
          });
          expect(answer.status).toBe(302);
        }
    await server.services.clicks.flush();
    expect(server.services.clicks.pending).toBe(0);

    for (const link of links) expect((await account.call('GET', `/links/${link.id}`)).body.click_count).toBe(8);
    await waitFor(() => receiver.ofType('link.clicked').length >= 24, 30_000, 'twenty-four link.clicked events');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const clicked = receiver.ofType('link.clicked');
    expect(clicked).toHaveLength(24);
    expect(receiver.uniqueIds().size).toBe(24);
    for (const link of links) expect(clicked.filter((message) => message.data.link_id === link.id)).toHaveLength(8);
    expect(receiver.refused).toEqual([]);
  });
});

describe('link.clicked across a SIGTERM', () => {
  let world: WebhookProcessWorld;
  let orm: Orm;
  let key: string;
  let env: Record<string, string>;
  let base: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // A flush interval far longer than the test: only the shutdown can write the clicks.
    world = await webhookProcessWorld('Term', { CLICK_FLUSH_MS: '60000', WEBHOOK_RETRY_DELAYS: '0,1,1,1,1' });
    ({ orm, key, env, base, receiver } = world);
  });
  afterAll(async () => {
    await world?.stop();
  });

  test('clicks just before a SIGTERM are written with their events, and sent', { timeout: 180_000 }, async () => {
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
        body: JSON.stringify({ url: receiver.url, events: ['link.clicked'] }),
      })
    ).json()) as { secret: string };
    receiver.secrets.push(hook.secret);
    const link = (await (
      await fetch(`${base}/api/v1/links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Term', destination_url: 'https://example.com/term' }),
      })
    ).json()) as { id: string; slug: string };
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${base}/${link.slug}`, {
        redirect: 'manual',
        headers: { 'user-agent': `${BROWSER_USER_AGENT} visitor/${i}` },
      });
      expect(answer.status).toBe(302);
    }
    first.child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) =>
      first.child.exitCode !== null ? resolve(first.child.exitCode) : first.child.once('exit', (c) => resolve(c)),
    );
    expect(code, first.output()).toBe(0);

    const db = orm.em.fork().getConnection();
    expect((await db.execute('select click_count::int as click_count from link where id = ?', [link.id]))[0]?.click_count).toBe(3);
    expect((await db.execute("select count(*)::int as n from webhook_delivery where type = 'link.clicked'"))[0]?.n).toBe(3);

    // Whatever the stopping server had not sent, the next start does.
    const second = startServerProcess(env);
    try {
      await waitFor(() => isReady(base), 60_000, 'the restarted server');
      await waitFor(() => receiver.ofType('link.clicked').length >= 3, 60_000, 'three link.clicked events');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.ofType('link.clicked').map((message) => message.data.link_id)).toEqual([link.id, link.id, link.id]);
      expect(receiver.uniqueIds().size).toBe(3);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => (second.child.exitCode !== null ? resolve(undefined) : second.child.once('exit', resolve)));
    }
  });
});
