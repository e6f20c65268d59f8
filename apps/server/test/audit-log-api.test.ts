import type { Scope } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { storedEntries } from './audit.ts';
import {
  callApi,
  createAccount as createAccountWithKey,
  createLink,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';
import { addPerson, Browser } from './people.ts';

/**
 * GET /api/v1/audit-log and `audit.list` (issue #27, docs/accounts.md "The audit log"): newest
 * first, filtered and paged, for owners and admins and keys with `audit.read`, each workspace its
 * own; who acted (a key, a person signed in) and from where; entries past AUDIT_RETENTION_DAYS go.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * Forgets the entries of the keys a test makes (key.created, which audit-concerns.test.ts checks),
 * so the entries counted here are the links' alone.
 */
async function forgetKeyEntries(on: TestServer, account: TestAccount) {
  await on.orm.em
    .fork()
    .getConnection()
    .execute("delete from audit_entry where account_id = ? and resource_type = 'key'", [account.account.id]);
}

/** An account with its key, and no entry yet. */
async function createAccount(on: TestServer): Promise<TestAccount> {
  const account = await createAccountWithKey(on);
  await forgetKeyEntries(on, account);
  return account;
}

/** A key of the account with only these scopes. */
async function keyWith(account: TestAccount, scopes: Scope[], name = 'scoped') {
  const { secret } = await server.services.apiKeys.create(account.account.id, { name, scopes });
  await forgetKeyEntries(server, account);
  return secret;
}

describe('GET /audit-log', () => {
  test('newest first, with total, paging and each filter; one shape on REST and tRPC', async () => {
    const account = await createAccount(server);
    const one = await createLink(account, { title: 'One' });
    const two = await createLink(account, { title: 'Two' });
    expect((await account.call('PATCH', `/links/${one.id}`, { title: 'One again' })).status).toBe(200);
    const writer = await keyWith(account, ['links.write'], 'writer');
    expect((await callApi(server, writer, 'DELETE', `/links/${two.id}`)).status).toBe(204);

    const all = await account.call('GET', '/audit-log');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, per_page: 20, total: 4 });
    expect(all.body.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'link.deleted',
      'link.updated',
      'link.created',
      'link.created',
    ]);
    expect(all.body.entries[0]).toEqual({
      id: expect.stringMatching(/^aud_/),
      action: 'link.deleted',
      actor: { type: 'key', id: expect.stringMatching(/^key_/), name: 'writer' },
      resource: { type: 'link', id: two.id },
      changes: expect.objectContaining({ title: { before: 'Two', after: null } }),
      ip: '127.0.0.1',
      created_at: expect.any(Number),
    });
    const times = all.body.entries.map((entry: { created_at: number }) => entry.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const second = await account.call('GET', '/audit-log?per_page=3&page=2');
    expect(second.body).toMatchObject({ page: 2, per_page: 3, total: 4 });
    expect(second.body.entries).toEqual([all.body.entries[3]]);

    const ofOne = await account.call('GET', `/audit-log?resource_id=${one.id}`);
    expect(ofOne.body.total).toBe(2);
    expect(ofOne.body.entries.map((entry: { action: string }) => entry.action)).toEqual(['link.updated', 'link.created']);
    const byWriter = await account.call('GET', `/audit-log?actor_id=${all.body.entries[0].actor.id}`);
    expect(byWriter.body.entries.map((entry: { id: string }) => entry.id)).toEqual([all.body.entries[0].id]);
    const created = await account.call('GET', '/audit-log?action=link.created&per_page=1');
    expect(created.body).toMatchObject({ total: 2, per_page: 1 });
    const both = await account.call('GET', `/audit-log?action=link.created&resource_id=${two.id}`);
    expect(both.body.entries.map((entry: { resource: { id: string } }) => entry.resource.id)).toEqual([two.id]);
    const none = await account.call('GET', '/audit-log?resource_id=lnk_nothing00000000');
    expect(none.body).toEqual({ entries: [], page: 1, per_page: 20, total: 0 });

    const overTrpc = await fetch(`${server.origin}/trpc/audit.list?input=${encodeURIComponent(JSON.stringify({ per_page: 2 }))}`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
    expect(overTrpc.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tRPC's envelope
    expect(((await overTrpc.json()) as any).result.data).toEqual({ ...all.body, per_page: 2, entries: all.body.entries.slice(0, 2) });
  });

  test('a bad query answers 422 VALIDATION_ERROR naming its field, on REST and tRPC', async () => {
    const account = await createAccount(server);
    for (const [query, field] of [
      ['page=0', 'page'],
      ['per_page=101', 'per_page'],
      ['per_page=abc', 'per_page'],
      ['action=link.exploded', 'action'],
      ['actor_id=%20%20', 'actor_id'],
      [`resource_id=${'x'.repeat(101)}`, 'resource_id'],
      ['sort=new', 'sort'],
    ] as const) {
      const answer = await account.call('GET', `/audit-log?${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body, query).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    const overTrpc = await fetch(`${server.origin}/trpc/audit.list?input=${encodeURIComponent(JSON.stringify({ action: 'nope' }))}`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
    expect(overTrpc.status).toBe(422);
    // biome-ignore lint/suspicious/noExplicitAny: tRPC's envelope
    expect(((await overTrpc.json()) as any).error.data).toMatchObject({ appCode: 'VALIDATION_ERROR', field: 'action' });
  });

  test('needs audit.read: a key without it gets 403 naming the scope, on both transports', async () => {
    const account = await createAccount(server);
    await createLink(account);
    const linksOnly = await keyWith(account, ['links.write', 'tags.write', 'analytics.read', 'keys.write']);
    const refused = await callApi(server, linksOnly, 'GET', '/audit-log');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', message: 'This key lacks the scope audit.read' });
    const overTrpc = await fetch(`${server.origin}/trpc/audit.list?input=%7B%7D`, { headers: { authorization: `Bearer ${linksOnly}` } });
    expect(overTrpc.status).toBe(403);
    const auditor = await keyWith(account, ['audit.read']);
    const allowed = await callApi(server, auditor, 'GET', '/audit-log');
    expect(allowed.status).toBe(200);
    expect(allowed.body.total).toBe(1);
    expect((await callApi(server, undefined, 'GET', '/audit-log')).status).toBe(401);
  });

  test("each workspace sees its own entries only; another's resource id finds nothing", async () => {
    const ours = await createAccount(server);
    const theirs = await createAccount(server);
    await createLink(ours);
    const their = await createLink(theirs, { title: 'Theirs' });
    const mine = await ours.call('GET', '/audit-log');
    expect(mine.body.total).toBe(1);
    expect(JSON.stringify(mine.body)).not.toContain(their.id);
    expect((await ours.call('GET', `/audit-log?resource_id=${their.id}`)).body).toMatchObject({ entries: [], total: 0 });
    const theirActor = (await theirs.call('GET', '/audit-log')).body.entries[0].actor.id;
    expect((await ours.call('GET', `/audit-log?actor_id=${theirActor}`)).body.total).toBe(0);
  });
});

describe('who acted: a person signed in to the dashboard', () => {
  test("a session's change names the person and the address; owners and admins read the log, members and viewers are refused", async () => {
    const account = await createAccount(server);
    const people = {
      owner: await addPerson(server, account.account.id, 'owner', 'owner@audit.example'),
      admin: await addPerson(server, account.account.id, 'admin', 'admin@audit.example'),
      member: await addPerson(server, account.account.id, 'member', 'member@audit.example'),
      viewer: await addPerson(server, account.account.id, 'viewer', 'viewer@audit.example'),
    };
    const browsers = Object.fromEntries(
      await Promise.all(
        Object.entries(people).map(async ([role, person]) => {
          const browser = new Browser(server);
          expect((await browser.signIn(person.email)).status).toBe(200);
          return [role, browser] as const;
        }),
      ),
    );

    const made = await browsers.member?.mutate('links.create', { title: 'By a person', destination_url: 'https://example.com/person' });
    expect(made?.status).toBe(201);
    const [entry] = await storedEntries(server, account.account.id);
    expect(entry).toMatchObject({
      action: 'link.created',
      actor: { type: 'user', id: people.member.id, name: 'member@audit.example' },
      resource: { type: 'link', id: made?.data.id },
      ip: '127.0.0.1',
    });

    for (const role of ['owner', 'admin'] as const) {
      const read = await browsers[role]?.query('audit.list', { actor_id: people.member.id });
      expect(read?.status, role).toBe(200);
      expect(read?.data.entries.map((one: { id: string }) => one.id)).toEqual([entry?.id]);
    }
    for (const role of ['member', 'viewer'] as const) {
      const read = await browsers[role]?.query('audit.list');
      expect(read?.status, role).toBe(403);
      expect(read?.code).toBe('FORBIDDEN');
    }
  });

  test('behind a trusted proxy, the address is the client’s as TRUST_PROXY reads it', async () => {
    const proxied = await startTestServer({ trustProxy: true });
    try {
      const account = await createAccount(proxied);
      const answer = await callApi(
        proxied,
        account.key,
        'POST',
        '/links',
        { title: 'P', destination_url: 'https://example.com/p' },
        {
          'x-forwarded-for': '203.0.113.7',
        },
      );
      expect(answer.status).toBe(201);
      const [entry] = await storedEntries(proxied, account.account.id);
      expect(entry?.ip).toBe('203.0.113.7');
    } finally {
      await proxied.close();
    }
  });
});

describe('retention (AUDIT_RETENTION_DAYS)', () => {
  test('the sweep deletes only the entries older than the retention', async () => {
    const account = await createAccount(server);
    const links = await Promise.all([1, 2, 3].map((n) => createLink(account, { title: `Kept ${n}` })));
    const [oldest, old] = links;
    const connection = server.orm.em.fork().getConnection();
    await connection.execute("update audit_entry set created_at = now() - interval '366 days' where resource_id = ?", [oldest.id]);
    await connection.execute("update audit_entry set created_at = now() - interval '364 days' where resource_id = ?", [old.id]);
    expect(server.services.auditRetention.days).toBe(365);
    expect(await server.services.auditRetention.sweep()).toBeGreaterThanOrEqual(1);
    const left = (await account.call('GET', '/audit-log')).body.entries.map((entry: { resource: { id: string } }) => entry.resource.id);
    expect(left.sort()).toEqual([links[1].id, links[2].id].sort());
  });
});

describe('the OpenAPI document', () => {
  test('lists GET /audit-log under "Audit log" with its scope and role', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is asserted field by field
    const document: any = await (await fetch(`${server.api}/openapi.json`)).json();
    const operation = document.paths['/audit-log'].get;
    expect(operation.tags).toEqual(['Audit log']);
    expect(operation['x-scope']).toBe('audit.read');
    expect(operation['x-role']).toBe('admin');
    expect(operation.security).toEqual([{ bearerAuth: ['audit.read'] }]);
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(
      ['action', 'actor_id', 'page', 'per_page', 'resource_id'].sort(),
    );
  });
});
