import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser } from './people.ts';
import { waitFor } from './processes.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/*
 * Branded domains among people and webhooks (docs/domains.md): every role reads the domains (a
 * member picks one for a link), admins and owners manage them; a domain becoming verified sends
 * `domain.verified` to a subscribed receiver, once.
 */

let dns: TestDnsServer;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer({
    dnsServers: [dns.address],
    webhooks: { allowPrivateTargets: true, retryDelays: [0, 1, 1, 1, 1, 1] },
  });
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await server?.close();
  await receiver?.stop();
  await dns?.close();
});

async function addDomain(account: TestAccount, name: string): Promise<{ id: string; verification: { name: string; value: string } }> {
  const response = await account.call('POST', '/domains', { name });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('roles', () => {
  const browsers: Record<'owner' | 'admin' | 'member' | 'viewer', Browser> = {} as never;
  let workspace: TestAccount;
  let domainId: string;

  beforeAll(async () => {
    workspace = await createAccount(server, { name: 'Domain roles', plan: 'unlimited' });
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
      await addPerson(server, workspace.account.id, role, `${role}@domain-roles.example`);
      browsers[role] = new Browser(server);
      expect((await browsers[role].signIn(`${role}@domain-roles.example`)).status).toBe(200);
    }
    domainId = (await addDomain(workspace, 'go.roles.example')).id;
  });

  test('every role lists and reads the domains', async () => {
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
      const list = await browsers[role].query('domains.list');
      expect(list.status, role).toBe(200);
      expect((await browsers[role].query('domains.get', { id: domainId })).status, role).toBe(200);
    }
  });

  test('members and viewers are refused adding, changing, verifying and deleting with 403 FORBIDDEN; nothing changes', async () => {
    const domains = () => countRows(server, 'domain' as 'link', `account_id = '${workspace.account.id}'`);
    const before = await domains();
    for (const role of ['member', 'viewer'] as const) {
      const browser = browsers[role];
      const created = await browser.mutate('domains.create', { name: `${role}.roles.example` });
      expect(created, role).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect((await browser.mutate('domains.update', { id: domainId, not_found_url: 'https://example.com/' })).status, role).toBe(403);
      expect((await browser.mutate('domains.verify', { id: domainId })).status, role).toBe(403);
      expect((await browser.mutate('domains.delete', { id: domainId })).status, role).toBe(403);
    }
    expect(await domains()).toBe(before);
    expect((await workspace.call('GET', `/domains/${domainId}`)).body.not_found_url).toBeNull();
  });

  test('admins and owners manage domains', async () => {
    const added = await browsers.admin.mutate('domains.create', { name: 'admin.roles.example' });
    expect(added.status).toBe(201);
    const id = (added.data as { id: string }).id;
    expect((await browsers.admin.mutate('domains.update', { id, not_found_url: 'https://example.com/missing' })).status).toBe(200);
    expect((await browsers.admin.mutate('domains.verify', { id })).status).toBe(200);
    // tRPC answers a deletion 200 (REST: 204).
    expect((await browsers.owner.mutate('domains.delete', { id })).status).toBe(200);
    expect((await workspace.call('GET', `/domains/${id}`)).status).toBe(404);
  });
});

describe('the domain.verified webhook event', () => {
  test('a subscribed receiver gets it once, with the domain as GET /domains/{id} returns it', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const hook = await account.call('POST', '/webhooks', { url: receiver.url, events: ['domain.verified'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    receiver.secrets.push(hook.body.secret);
    // Someone else's: subscribed to links only, it hears nothing of domains.
    const other = await createAccount(server, { plan: 'unlimited' });
    const otherHook = await other.call('POST', '/webhooks', { url: receiver.url, events: ['link.created'] });
    receiver.secrets.push(otherHook.body.secret);

    const domain = await addDomain(account, 'go.hooked.example');
    // Not verified yet (no record): no event.
    expect((await account.call('POST', `/domains/${domain.id}/verify`)).body.verified).toBe(false);
    dns.txt.set(domain.verification.name, [domain.verification.value]);
    const verified = await account.call('POST', `/domains/${domain.id}/verify`);
    expect(verified.body.verified).toBe(true);
    // Verified again while it stays verified: not a new event.
    expect((await account.call('POST', `/domains/${domain.id}/verify`)).body.verified).toBe(true);
    const otherDomain = await addDomain(other, 'go.unhooked.example');
    dns.txt.set(otherDomain.verification.name, [otherDomain.verification.value]);
    expect((await other.call('POST', `/domains/${otherDomain.id}/verify`)).body.verified).toBe(true);

    const events = () => receiver.received.filter((message) => message.type === 'domain.verified');
    await waitFor(() => events().length > 0, 20_000, 'the domain.verified event');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(events()).toHaveLength(1);
    const current = (await account.call('GET', `/domains/${domain.id}`)).body;
    expect(events()[0]?.data).toMatchObject({ id: domain.id, name: 'go.hooked.example', verified: true, status: current.status });
    expect(receiver.refused).toEqual([]);
  });

  test('is in the list of events a webhook may subscribe to', async () => {
    const account = await createAccount(server);
    const refused = await account.call('POST', '/webhooks', { url: receiver.url, events: ['domain.exploded'] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('domain.verified');
  });
});
