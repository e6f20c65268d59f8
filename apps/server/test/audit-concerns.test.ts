import { AUDIT_ACTIONS, LIMITS } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, PASSWORD } from './people.ts';

/*
 * Every change to keys, members, invitations, domains, webhooks and the workspace is recorded in
 * its own transaction (events/change-log.ts), once, without a secret; a refused change records
 * nothing. Read here through a recorder: a webhook subscribed to every audit action, written
 * straight into the table (the API only subscribes to webhook events), so the webhooks' outbox
 * keeps each record as an event row in the change's transaction.
 */

let dns: TestDnsServer;
let server: TestServer;

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer({ dnsServers: [dns.address] });
});
afterAll(async () => {
  await server?.close();
  await dns?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: rows are asserted field by field
const rows = async (sql: string, ...params: unknown[]): Promise<any[]> => server.orm.em.fork().getConnection().execute(sql, params);

const NOT_WEBHOOK_EVENTS = AUDIT_ACTIONS.filter((action) => !/^(link|tag)\./.test(action));

/** Starts recording the workspace's changes (see above). */
async function recording(accountId: string): Promise<void> {
  await rows(
    `insert into webhook (id, account_id, url, events, secret) values (?, ?, 'https://recorder.example/', ?::text[], 'whsec_recorder')`,
    `wh_recorder_${accountId}`,
    accountId,
    `{${NOT_WEBHOOK_EVENTS.join(',')}}`,
  );
}

interface Recorded {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  data: any;
  text: string;
}

/** What was recorded of the workspace, oldest first. */
async function recorded(accountId: string, type?: string): Promise<Recorded[]> {
  const found = await rows(`select type, body::text as text from webhook_event where account_id = ? order by created_at, id`, accountId);
  return found
    .filter((row) => type === undefined || row.type === type)
    .map((row) => ({ type: row.type, data: JSON.parse(row.text).data, text: row.text }));
}

/** A workspace with a signed-in person of each role, recording its changes. */
async function workspaceWithPeople(name: string) {
  const workspace = await createAccount(server, { name, plan: 'unlimited' });
  const people = {} as Record<'owner' | 'admin' | 'member' | 'viewer', { id: string; email: string; browser: Browser }>;
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const email = `${role}@${name.toLowerCase()}.example`;
    const user = await addPerson(server, workspace.account.id, role, email);
    const browser = new Browser(server);
    expect((await browser.signIn(email)).status).toBe(200);
    people[role] = { id: user.id, email, browser };
  }
  await recording(workspace.account.id);
  return { workspace, people };
}

describe('keys', () => {
  let workspace: TestAccount;
  let people: Awaited<ReturnType<typeof workspaceWithPeople>>['people'];
  beforeAll(async () => {
    ({ workspace, people } = await workspaceWithPeople('Keys'));
  });

  test('a key made and revoked: key.created and key.revoked, never the secret; refusals record nothing', async () => {
    const made = await workspace.call('POST', '/keys', { name: 'CI', scopes: ['links.read'], expires_at: null });
    expect(made.status).toBe(201);
    const narrow = made.body.key as string;
    // Refused: beyond its own scopes, a bad body, an unknown key, no keys.write.
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${narrow}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await call('POST', '/keys', { name: 'more', scopes: ['links.write'] })).status).toBe(403);
    expect((await workspace.call('POST', '/keys', { name: 'x', scopes: [] })).status).toBe(422);
    expect((await workspace.call('POST', '/keys', { name: 'x', scopes: ['links.read'], expires_at: Date.now() - 1000 })).status).toBe(422);
    expect((await workspace.call('DELETE', '/keys/key_unknown')).status).toBe(404);
    expect((await workspace.call('DELETE', `/keys/${made.body.id}`)).status).toBe(204);
    expect((await workspace.call('DELETE', `/keys/${made.body.id}`)).status).toBe(404);

    const records = await recorded(workspace.account.id);
    expect(records.map((record) => record.type)).toEqual(['key.created', 'key.revoked']);
    const view = { id: made.body.id, name: 'CI', scopes: ['links.read'], created_at: made.body.created_at, expires_at: null };
    expect(records[0]?.data).toEqual({ ...view, last_used_at: null });
    expect(records[1]?.data).toMatchObject(view);
    for (const record of records) {
      expect(record.text).not.toContain(narrow);
      expect(record.text).not.toContain(narrow.slice(12));
      expect(record.text).not.toMatch(/slk_|secret|hash/);
    }
  });

  test('a person makes a key over tRPC; revocations at once leave one record', async () => {
    const made = await people.member.browser.mutate('keys.create', { name: 'Mine', scopes: ['links.read'] });
    expect(made.status, made.message).toBe(201);
    const before = (await recorded(workspace.account.id, 'key.revoked')).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => workspace.call('DELETE', `/keys/${made.data.id}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 404, 404, 404, 404]);
    const revoked = (await recorded(workspace.account.id, 'key.revoked')).slice(before);
    expect(revoked.map((record) => record.data.id)).toEqual([made.data.id]);
  });
});

describe('members and the workspace', () => {
  let workspace: TestAccount;
  let people: Awaited<ReturnType<typeof workspaceWithPeople>>['people'];
  beforeAll(async () => {
    ({ workspace, people } = await workspaceWithPeople('Members'));
  });

  test('a role change: member.updated with the role before and after; refused ones record nothing', async () => {
    const { owner, admin, member, viewer } = people;
    expect((await admin.browser.mutate('members.changeRole', { user_id: owner.id, role: 'viewer' })).status).toBe(403);
    expect((await admin.browser.mutate('members.changeRole', { user_id: viewer.id, role: 'admin' })).status).toBe(403);
    expect((await viewer.browser.mutate('members.changeRole', { user_id: member.id, role: 'viewer' })).status).toBe(403);
    expect((await owner.browser.mutate('members.changeRole', { user_id: 'usr_nobody', role: 'viewer' })).status).toBe(404);
    expect((await owner.browser.mutate('members.changeRole', { user_id: owner.id, role: 'member' })).code).toBe('LAST_OWNER');
    expect(await recorded(workspace.account.id)).toEqual([]);

    const changed = await admin.browser.mutate('members.changeRole', { user_id: member.id, role: 'viewer' });
    expect(changed.status, changed.message).toBe(200);
    const [record] = await recorded(workspace.account.id);
    expect(record?.type).toBe('member.updated');
    expect(record?.data).toMatchObject({ id: member.id, user_id: member.id, email: member.email, role: 'viewer' });
  });

  test('role changes at once each leave one record', async () => {
    const { owner, viewer } = people;
    const before = (await recorded(workspace.account.id, 'member.updated')).length;
    const roles = ['member', 'viewer', 'admin', 'member', 'viewer', 'member'];
    const answers = await Promise.all(roles.map((role) => owner.browser.mutate('members.changeRole', { user_id: viewer.id, role })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const records = (await recorded(workspace.account.id, 'member.updated')).slice(before);
    expect(records).toHaveLength(roles.length);
    expect(records.map((record) => record.data.role).sort()).toEqual([...roles].sort());
  });

  test('removing a member: member.removed and key.revoked for each of their keys; leaving: member.removed', async () => {
    const { owner } = people;
    const leaver = await addPerson(server, workspace.account.id, 'member', 'leaver@members.example');
    const removed = await addPerson(server, workspace.account.id, 'member', 'removed@members.example');
    const browser = new Browser(server);
    expect((await browser.signIn('removed@members.example')).status).toBe(200);
    const key = await browser.mutate('keys.create', { name: 'Theirs', scopes: ['links.read'] });
    expect(key.status).toBe(201);
    const before = (await recorded(workspace.account.id)).length;

    expect((await owner.browser.mutate('members.remove', { user_id: removed.id })).status).toBe(200);
    const leaving = new Browser(server);
    expect((await leaving.signIn('leaver@members.example')).status).toBe(200);
    expect((await leaving.mutate('members.leave')).status).toBe(200);
    expect((await owner.browser.mutate('members.remove', { user_id: removed.id })).status).toBe(404);

    const records = (await recorded(workspace.account.id)).slice(before);
    expect(records.map((record) => [record.type, record.data.id])).toEqual([
      ['member.removed', removed.id],
      ['key.revoked', key.data.id],
      ['member.removed', leaver.id],
    ]);
    expect(records.map((record) => record.text).join()).not.toContain(key.data.key);
  });

  test('renaming the workspace: workspace.updated; a bad name records nothing', async () => {
    const { owner, admin } = people;
    expect((await admin.browser.mutate('workspace.rename', { name: 'Nope' })).status).toBe(403);
    expect((await owner.browser.mutate('workspace.rename', { name: ' ' })).status).toBe(422);
    const before = (await recorded(workspace.account.id)).length;
    expect((await owner.browser.mutate('workspace.rename', { name: 'Renamed' })).status).toBe(200);
    const records = (await recorded(workspace.account.id)).slice(before);
    expect(records.map((record) => [record.type, record.data])).toEqual([
      ['workspace.updated', { id: workspace.account.id, name: 'Renamed', require_two_factor: false }],
    ]);
  });
});

describe('invitations', () => {
  let workspace: TestAccount;
  let people: Awaited<ReturnType<typeof workspaceWithPeople>>['people'];
  beforeAll(async () => {
    ({ workspace, people } = await workspaceWithPeople('Invites'));
  });

  test('made, replaced, revoked and accepted: each recorded, never the token; refused ones record nothing', async () => {
    const { owner, admin, member } = people;
    expect((await member.browser.mutate('invitations.create', { email: 'x@invites.example', role: 'viewer' })).status).toBe(403);
    expect((await admin.browser.mutate('invitations.create', { email: 'x@invites.example', role: 'owner' })).status).toBe(403);
    expect((await owner.browser.mutate('invitations.create', { email: 'not an email', role: 'viewer' })).status).toBe(422);
    expect((await owner.browser.mutate('invitations.create', { email: member.email, role: 'viewer' })).status).toBe(409);
    expect((await owner.browser.mutate('invitations.revoke', { id: 'inv_unknown' })).status).toBe(404);
    expect(await recorded(workspace.account.id)).toEqual([]);

    const first = await owner.browser.mutate('invitations.create', { email: 'grace@invites.example', role: 'viewer' });
    const second = await owner.browser.mutate('invitations.create', { email: 'grace@invites.example', role: 'member' });
    const other = await owner.browser.mutate('invitations.create', { email: 'hopper@invites.example', role: 'viewer' });
    expect((await owner.browser.mutate('invitations.revoke', { id: other.data.invitation.id })).status).toBe(200);
    const token = new URL(second.data.url).hash.slice(1);
    const invitee = new Browser(server);
    const accepted = await invitee.mutate('invitations.accept', { token, password: PASSWORD });
    expect(accepted.status, accepted.message).toBe(200);
    expect((await new Browser(server).mutate('invitations.accept', { token, password: PASSWORD })).code).toBe('INVITATION_ACCEPTED');

    const records = await recorded(workspace.account.id);
    expect(records.map((record) => [record.type, record.data.id])).toEqual([
      ['invitation.created', first.data.invitation.id],
      ['invitation.revoked', first.data.invitation.id],
      ['invitation.created', second.data.invitation.id],
      ['invitation.created', other.data.invitation.id],
      ['invitation.revoked', other.data.invitation.id],
      ['invitation.accepted', second.data.invitation.id],
      ['member.added', accepted.data.user.id],
    ]);
    expect(records[2]?.data).toEqual(second.data.invitation);
    expect(records[6]?.data).toMatchObject({ email: 'grace@invites.example', role: 'member' });
    for (const url of [first.data.url, second.data.url, other.data.url]) {
      expect(records.map((record) => record.text).join()).not.toContain(new URL(url).hash.slice(1));
    }
    expect(records.map((record) => record.text).join()).not.toContain(PASSWORD);
  });
});

describe('domains', () => {
  test('added, changed, verified, deleted: each recorded; refused ones record nothing', async () => {
    const workspace = await createAccount(server, { name: 'Domains', plan: 'unlimited' });
    await recording(workspace.account.id);
    expect((await workspace.call('POST', '/domains', { name: 'not a domain' })).status).toBe(422);
    const first = (await workspace.call('POST', '/domains', { name: 'go.first.example' })).body;
    const second = (await workspace.call('POST', '/domains', { name: 'go.second.example' })).body;
    expect((await workspace.call('POST', '/domains', { name: 'go.first.example' })).status).toBe(409);
    expect((await workspace.call('PATCH', `/domains/${first.id}`, { is_default: true })).status).toBe(422);
    expect((await workspace.call('PATCH', '/domains/dom_unknown', { root_redirect_url: null })).status).toBe(404);
    // Verifying without the record changes only when it was looked up: nothing recorded.
    expect((await workspace.call('POST', `/domains/${first.id}/verify`)).body.verified).toBe(false);
    for (const domain of [first, second]) dns.txt.set(domain.verification.name, [domain.verification.value]);
    expect((await workspace.call('POST', `/domains/${first.id}/verify`)).body.verified).toBe(true);
    expect((await workspace.call('POST', `/domains/${second.id}/verify`)).body.verified).toBe(true);
    expect((await workspace.call('PATCH', `/domains/${first.id}`, { is_default: true })).status).toBe(200);
    expect((await workspace.call('PATCH', `/domains/${second.id}`, { is_default: true })).status).toBe(200);
    const link = await workspace.call('POST', '/links', {
      title: 'On it',
      destination_url: 'https://example.com/',
      domain: 'go.second.example',
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect((await workspace.call('DELETE', `/domains/${second.id}`)).status).toBe(409);
    expect((await workspace.call('DELETE', `/domains/${first.id}`)).status).toBe(204);

    const records = (await recorded(workspace.account.id)).map((record) => [record.type, record.data.id, record.data.is_default]);
    expect(records).toEqual([
      ['domain.created', first.id, false],
      ['domain.created', second.id, false],
      ['domain.verified', first.id, false],
      ['domain.verified', second.id, false],
      ['domain.updated', first.id, true],
      ['domain.updated', first.id, false],
      ['domain.updated', second.id, true],
      ['domain.deleted', first.id, false],
    ]);
  });

  test('the cap: DOMAIN_LIMIT_REACHED records nothing', async () => {
    const workspace = await createAccount(server, { name: 'Cap', plan: 'unlimited' });
    for (let n = 0; n < LIMITS.domainsPerWorkspace; n++) {
      expect((await workspace.call('POST', '/domains', { name: `d${n}.cap.example` })).status).toBe(201);
    }
    await recording(workspace.account.id);
    const refused = await workspace.call('POST', '/domains', { name: 'one.more.example' });
    expect(refused.body.code).toBe('DOMAIN_LIMIT_REACHED');
    expect(await recorded(workspace.account.id)).toEqual([]);
  });
});

describe('webhooks', () => {
  test('made, changed, rotated, deleted: each recorded, never a secret; refused ones record nothing', async () => {
    const workspace = await createAccount(server, { name: 'Hooks', plan: 'unlimited' });
    await recording(workspace.account.id);
    expect((await workspace.call('POST', '/webhooks', { url: 'ftp://x', events: ['link.created'] })).status).toBe(422);
    expect((await workspace.call('PATCH', '/webhooks/wh_unknown', { enabled: false })).status).toBe(404);
    expect((await workspace.call('DELETE', '/webhooks/wh_unknown')).status).toBe(404);
    const made = await workspace.call('POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['link.created'] });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect((await workspace.call('PATCH', `/webhooks/${id}`, { enabled: false })).status).toBe(200);
    const rotated = await workspace.call('POST', `/webhooks/${id}/rotate-secret`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect((await workspace.call('DELETE', `/webhooks/${id}`)).status).toBe(204);

    const records = await recorded(workspace.account.id);
    expect(records.map((record) => [record.type, record.data.id, record.data.enabled])).toEqual([
      ['webhook.created', id, true],
      ['webhook.updated', id, false],
      ['webhook.secret_rotated', id, false],
      ['webhook.deleted', id, false],
    ]);
    const text = records.map((record) => record.text).join();
    expect(text).not.toContain(made.body.secret);
    expect(text).not.toContain(rotated.body.secret);
    expect(text).not.toContain('whsec_');
  });
});
