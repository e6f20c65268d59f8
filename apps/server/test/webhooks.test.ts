import { WEBHOOK_EVENT_TYPES } from '@shortlinks/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/** The events of links and tags; `domain.verified` needs a DNS server and has its own test (domain-roles-webhooks.test.ts). */
const LINK_AND_TAG_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'domain.verified');

/**
 * Webhooks end to end (issue #29, docs/webhooks.md): a real server sends to a real receiver on
 * 127.0.0.1, which verifies every signature with the official `standardwebhooks` package.
 * Private targets are allowed here (the receiver is on loopback); the refusal without that
 * setting has its own server below.
 */
describe('webhooks', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await startTestServer({
      webhooks: { allowPrivateTargets: true, retryDelays: [0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2] },
    });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  async function subscribe(account: TestAccount, events: readonly string[] = WEBHOOK_EVENT_TYPES, url = receiver.url) {
    const created = await account.call('POST', '/webhooks', { url, events, description: 'test receiver' });
    expect(created.status).toBe(201);
    receiver.secrets.push(created.body.secret);
    return created.body as { id: string; secret: string };
  }

  test('POST /webhooks answers 201 with the secret; GET, PATCH and DELETE as the issue says', async () => {
    const account = await createAccount(server);
    const created = await account.call('POST', '/webhooks', {
      url: 'https://hooks.example.com/in',
      events: ['link.created', 'link.created'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: 'https://hooks.example.com/in',
      events: ['link.created'],
      description: null,
      enabled: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      created_at: expect.any(Number),
    });
    const { id, secret } = created.body;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const one = await account.call('GET', `/webhooks/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
    expect((await account.call('GET', '/webhooks')).body.webhooks.map((hook: { id: string }) => hook.id)).toEqual([id]);

    const patched = await account.call('PATCH', `/webhooks/${id}`, { events: ['tag.created'], description: 'tags', enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['tag.created'], description: 'tags', enabled: false });

    const other = await createAccount(server);
    expect((await other.call('GET', `/webhooks/${id}`)).status).toBe(404);
    expect((await other.call('DELETE', `/webhooks/${id}`)).body.code).toBe('WEBHOOK_NOT_FOUND');
    expect((await account.call('DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await account.call('GET', `/webhooks/${id}`)).status).toBe(404);
  });

  test('bad input: 422 VALIDATION_ERROR with its field, and nothing saved', async () => {
    const account = await createAccount(server);
    const cases: [unknown, string][] = [
      [{ url: 'https://hooks.example.com/', events: ['link.exploded'] }, 'events'],
      [{ url: 'https://hooks.example.com/', events: [] }, 'events'],
      [{ url: 'https://hooks.example.com/' }, 'events'],
      [{ url: 'ftp://hooks.example.com/', events: ['link.created'] }, 'url'],
      [{ url: 'https://sho.rt/hook', events: ['link.created'] }, 'url'],
      [{ url: 'https://hooks.example.com/', events: ['link.created'], description: 'x'.repeat(501) }, 'description'],
    ];
    for (const [body, field] of cases) {
      const answer = await account.call('POST', '/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    expect((await account.call('GET', '/webhooks')).body.webhooks).toEqual([]);
  });

  test('each event type arrives once, signed, with the object as the API returns it; never the visitor', async () => {
    const account = await createAccount(server);
    await subscribe(account);
    const tag = (await account.call('POST', '/tags', { name: 'Spring' })).body;
    expect((await account.call('PATCH', `/tags/${tag.id}`, { color: 'lime' })).status).toBe(200);
    const link = await createLink(account, { slug: 'hooked', tag_names: ['Autumn'] });
    const updated = (await account.call('PATCH', `/links/${link.id}`, { title: 'Renamed' })).body;
    await fetch(`${server.origin}/hooked`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_USER_AGENT, referer: 'https://news.example.org/a' },
    });
    await server.services.clicks.flush();
    expect((await account.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    expect((await account.call('DELETE', `/tags/${tag.id}`)).status).toBe(204);

    const mine = () =>
      receiver.received.filter(
        (message) =>
          JSON.stringify(message.data).includes(link.id) || [tag.id].includes(message.data?.id) || message.data?.name === 'Autumn',
      );
    await waitFor(() => new Set(mine().map((message) => message.type)).size === LINK_AND_TAG_EVENTS.length, 20_000, 'every event type');
    // A moment more: nothing arrives twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const messages = mine();
    for (const type of LINK_AND_TAG_EVENTS)
      expect(
        messages.filter((message) => message.type === type),
        type,
      ).toHaveLength(type === 'tag.created' ? 2 : 1);
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);

    const byType = (type: string) =>
      messages.find((message) => message.type === type && (type !== 'tag.created' || message.data.name === 'Spring'));
    expect(byType('link.created')?.data).toEqual(link);
    expect(byType('link.updated')?.data).toEqual(updated);
    expect(byType('link.deleted')?.data).toMatchObject({
      id: link.id,
      title: 'Renamed',
      tags: [expect.objectContaining({ name: 'Autumn' })],
    });
    expect(byType('tag.created')?.data).toEqual({ ...tag, link_count: 0 });
    expect(byType('tag.updated')?.data).toMatchObject({ id: tag.id, color: 'lime' });
    expect(byType('tag.deleted')?.data).toMatchObject({ id: tag.id, name: 'Spring' });
    const click = byType('link.clicked');
    expect(click?.data).toEqual({
      link_id: link.id,
      slug: 'hooked',
      clicked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      country: null,
      device: 'desktop',
      browser: 'Chrome',
      os: 'Linux',
      referrer_host: 'news.example.org',
      bot: false,
    });
    expect(click?.body).not.toMatch(/127\.0\.0\.1|visitor/);
    for (const message of messages) {
      expect(Object.keys(JSON.parse(message.body)).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(message.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    expect(receiver.refused).toEqual([]);
  });

  test('a bulk call sends one event per link done; a refused (rolled-back) change sends nothing', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    await subscribe(account, ['link.created', 'link.deleted', 'tag.created']);
    await createLink(account, { slug: 'taken-by-me' });
    const bulk = await account.call('POST', '/links/bulk', {
      links: [
        { title: 'One', destination_url: 'https://example.com/1', tag_names: ['bulk-new'] },
        { title: 'Two', destination_url: 'https://example.com/2', slug: 'taken-by-me', tag_names: ['never-made'] },
        { title: 'Three', destination_url: 'https://example.com/3' },
      ],
    });
    expect(bulk.status).toBe(207);
    const refused = await account.call('POST', '/links', {
      title: 'X',
      destination_url: 'https://example.com/x',
      slug: 'taken-by-me',
      tag_names: ['nor-this'],
    });
    expect(refused.status).toBe(409);
    expect((await account.call('DELETE', '/links/lnk_doesnotexist')).status).toBe(404);
    const done = bulk.body.results.filter((item: { ok: boolean }) => item.ok).map((item: { link: { id: string } }) => item.link.id);
    const mine = () =>
      receiver.received.filter(
        (message) =>
          message.data?.id &&
          (done.includes(message.data.id) ||
            message.data.slug === 'taken-by-me' ||
            /bulk-new|never-made|nor-this/.test(message.data.name ?? '')),
      );
    await waitFor(() => mine().length >= 4, 20_000, 'the bulk events');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const types = mine()
      .map((message) => `${message.type}:${message.data.name ?? message.data.title}`)
      .sort();
    expect(types).toEqual(['link.created:Link', 'link.created:One', 'link.created:Three', 'tag.created:bulk-new']);
  });

  test('the delivery log lists each delivery; one shows the body sent and the answer; retry and test send again', async () => {
    const account = await createAccount(server);
    const hook = await subscribe(account, ['link.created']);
    const link = await createLink(account);
    await waitFor(() => receiver.received.some((message) => message.data?.id === link.id), 20_000, 'the delivery');
    await waitFor(
      async () => (await account.call('GET', `/webhooks/${hook.id}/deliveries?status=succeeded`)).body.total === 1,
      10_000,
      'it logged',
    );
    const page = await account.call('GET', `/webhooks/${hook.id}/deliveries?page=1&per_page=10`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 1, per_page: 10, total: 1 });
    const [delivery] = page.body.deliveries;
    expect(delivery).toEqual({
      id: expect.any(String),
      event_id: expect.stringMatching(/^evt_/),
      type: 'link.created',
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(Number),
    });
    expect((await account.call('GET', `/webhooks/${hook.id}/deliveries?status=failed`)).body.total).toBe(0);
    expect((await account.call('GET', `/webhooks/${hook.id}/deliveries?status=lost`)).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'status',
    });

    const one = await account.call('GET', `/webhooks/${hook.id}/deliveries/${delivery.id}`);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.body.request_body)).toMatchObject({ type: 'link.created', data: { id: link.id } });
    expect(one.body.last_response_body).toBe('answered 200');
    expect(one.body.attempt_log).toEqual([
      { attempted_at: expect.any(Number), status_code: 200, error: null, duration_ms: expect.any(Number) },
    ]);
    expect((await account.call('GET', `/webhooks/${hook.id}/deliveries/whd_nothing`)).body.code).toBe('WEBHOOK_DELIVERY_NOT_FOUND');

    const retried = await account.call('POST', `/webhooks/${hook.id}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(200);
    await waitFor(() => receiver.received.filter((message) => message.data?.id === link.id).length === 2, 20_000, 'the retry');
    const again = receiver.received.filter((message) => message.data?.id === link.id);
    expect(again[1]?.id).toBe(again[0]?.id);

    const sent = await account.call('POST', `/webhooks/${hook.id}/test`);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ type: 'webhook.test', status: 'pending' });
    await waitFor(() => receiver.received.some((message) => message.id === sent.body.event_id), 20_000, 'the test event');
    expect(receiver.received.find((message) => message.id === sent.body.event_id)?.data).toEqual({
      webhook_id: hook.id,
      url: receiver.url,
    });
  });

  // The schedule above keeps a delivery retrying for about 30 s, so a slow machine that takes a while
  // to bring the receiver back still finds attempts left.
  test('a receiver down for a while gets everything once it is back', { timeout: 120_000 }, async () => {
    const account = await createAccount(server);
    const down = await new WebhookReceiver().start();
    down.secrets = receiver.secrets;
    const port = down.port;
    await down.stop();
    const created = await account.call('POST', '/webhooks', { url: down.url, events: ['link.created'] });
    down.secrets.push(created.body.secret);
    const links = [await createLink(account), await createLink(account), await createLink(account)];
    await waitFor(
      async () =>
        (await account.call('GET', `/webhooks/${created.body.id}/deliveries`)).body.deliveries.every(
          (d: { attempts: number }) => d.attempts >= 2,
        ),
      45_000,
      'failed attempts',
    );
    const failing = (await account.call('GET', `/webhooks/${created.body.id}/deliveries`)).body.deliveries[0];
    expect(failing).toMatchObject({ status: 'pending', last_status_code: null, last_error: expect.stringMatching(/ECONNREFUSED/) });
    await down.start(port);
    try {
      await waitFor(() => down.uniqueIds().size === 3, 45_000, 'every event after the receiver came back');
      expect(down.received.map((message) => message.data.id).sort()).toEqual(links.map((link) => link.id).sort());
    } finally {
      await down.stop();
    }
  });

  test('410 Gone disables the webhook at once, and the API says why', async () => {
    const account = await createAccount(server);
    const gone = await new WebhookReceiver().start();
    gone.status = 410;
    try {
      const created = await account.call('POST', '/webhooks', { url: gone.url, events: ['link.created'] });
      gone.secrets.push(created.body.secret);
      await createLink(account);
      await waitFor(
        async () => (await account.call('GET', `/webhooks/${created.body.id}`)).body.enabled === false,
        20_000,
        'the webhook disabled',
      );
      const hook = (await account.call('GET', `/webhooks/${created.body.id}`)).body;
      expect(hook.disabled_reason).toMatch(/410/);
      const [delivery] = (await account.call('GET', `/webhooks/${created.body.id}/deliveries`)).body.deliveries;
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });
      // Disabled: a new link sends nothing.
      await createLink(account);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(gone.received).toHaveLength(1);
      // Enabled again: the reason goes.
      const enabled = await account.call('PATCH', `/webhooks/${created.body.id}`, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    } finally {
      await gone.stop();
    }
  });

  test('after a rotation deliveries carry both signatures, each verifiable alone', async () => {
    const account = await createAccount(server);
    const hook = await subscribe(account, ['link.created']);
    const rotated = await account.call('POST', `/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const link = await createLink(account);
    await waitFor(() => receiver.received.some((message) => message.data?.id === link.id), 20_000, 'the delivery');
    const message = receiver.received.find((m) => m.data?.id === link.id);
    if (!message) throw new Error('no message');
    const signatures = message.signature.split(' ');
    expect(signatures).toHaveLength(2);
    for (const secret of [hook.secret, rotated.body.secret]) {
      expect(() => new Webhook(secret).verify(message.body, message.headers)).not.toThrow();
    }
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(message.body, message.headers)).toThrow();
  });
});

describe('webhooks without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await startTestServer({ webhooks: { retryDelays: [0] } });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  test('a loopback or private URL is refused with 422 field url', async () => {
    const account = await createAccount(server);
    for (const url of [receiver.url, 'http://localhost:8080/', 'http://10.0.0.7/hook', 'http://[::1]/x', 'http://169.254.169.254/latest']) {
      const answer = await account.call('POST', '/webhooks', { url, events: ['link.created'] });
      expect(answer.status, url).toBe(422);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'url' });
    }
    const hook = (await account.call('POST', '/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).body;
    expect((await account.call('PATCH', `/webhooks/${hook.id}`, { url: receiver.url })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'url',
    });
  });

  test('a name that resolves to 127.0.0.1 is refused when connecting (DNS rebinding reaches nothing)', async () => {
    const account = await createAccount(server);
    const hook = (await account.call('POST', '/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).body;
    // The name passed the rule when it was saved; now it resolves to loopback, as a rebinding
    // attacker's would. `localhost` resolves to 127.0.0.1 without any DNS server.
    await server.orm.em
      .fork()
      .getConnection()
      .execute('update webhook set url = ? where id = ?', [`http://localhost:${receiver.port}/hook`, hook.id]);
    await createLink(account);
    await waitFor(
      async () => (await account.call('GET', `/webhooks/${hook.id}/deliveries?status=failed`)).body.total === 1,
      20_000,
      'the refused delivery',
    );
    const [delivery] = (await account.call('GET', `/webhooks/${hook.id}/deliveries`)).body.deliveries;
    expect(delivery.last_error).toMatch(/private, loopback or reserved address/);
    expect(receiver.received).toEqual([]);
    expect(receiver.refused).toEqual([]);
  });

  test('50 failed deliveries in a row disable the webhook, and the API says why', { timeout: 60_000 }, async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const hook = (await account.call('POST', '/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).body;
    // Every attempt fails (refused when connecting); WEBHOOK_RETRY_DELAYS here is one attempt.
    await server.orm.em.fork().getConnection().execute('update webhook set url = ? where id = ?', ['http://localhost:9/hook', hook.id]);
    const links = Array.from({ length: 50 }, (_, i) => ({ title: `Fail ${i}`, destination_url: `https://example.com/fail/${i}` }));
    expect((await account.call('POST', '/links/bulk', { links })).status).toBe(201);
    await waitFor(async () => (await account.call('GET', `/webhooks/${hook.id}`)).body.enabled === false, 40_000, 'the webhook disabled');
    expect((await account.call('GET', `/webhooks/${hook.id}`)).body.disabled_reason).toMatch(/^50 deliveries in a row failed/);
    expect((await account.call('GET', `/webhooks/${hook.id}/deliveries?status=failed`)).body.total).toBe(50);
  });
});
