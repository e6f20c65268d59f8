import { createHash, randomBytes } from 'node:crypto';
import { LIMITS } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StoredEntry } from './audit.ts';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, PASSWORD } from './people.ts';
import { waitFor } from './processes.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/*
 * The audit log of keys, members, invitations, domains, webhooks and the workspace (issue #27,
 * docs/accounts.md "What the audit log records"): one entry per committed change, written in its
 * transaction, naming who acted (a key, a signed-in person, or the server) and what changed, never
 * a secret; a refused change leaves none.
 */

let dns: TestDnsServer;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dns = await startDnsServer();
  // A loopback receiver, for the webhook the sender disables.
  server = await startTestServer({ dnsServers: [dns.address], webhooks: { allowPrivateTargets: true } });
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await server?.close();
  await receiver?.stop();
  await dns?.close();
});

/** The workspace's operator key (every scope, owner), which reads its audit log, by workspace id. */
const readers = new Map<string, TestAccount>();

/** Makes a workspace whose audit log the tests read. */
async function newWorkspace(name: string): Promise<TestAccount> {
  const workspace = await createAccount(server, { name, plan: 'unlimited' });
  readers.set(workspace.account.id, workspace);
  return workspace;
}

/** The workspace's entries through GET /api/v1/audit-log, every page, oldest first. */
async function entries(accountId: string): Promise<StoredEntry[]> {
  const reader = readers.get(accountId) as TestAccount;
  const all: StoredEntry[] = [];
  for (let page = 1; ; page++) {
    const answer = await reader.call('GET', `/audit-log?per_page=100&page=${page}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    all.push(...answer.body.entries);
    if (all.length >= answer.body.total || answer.body.entries.length === 0) break;
  }
  return all.reverse();
}

/** Runs `work`, then answers the entries it left in the workspace, oldest first. */
async function entriesOf(accountId: string, work: () => Promise<unknown>): Promise<StoredEntry[]> {
  const before = new Set((await entries(accountId)).map((entry) => entry.id));
  await work();
  return (await entries(accountId)).filter((entry) => !before.has(entry.id));
}

/** Fails when any secret shows in any entry of the workspace. */
async function expectNoSecret(accountId: string, secrets: readonly string[]) {
  const text = JSON.stringify(await entries(accountId));
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    // Nor its SHA-256, as a key's or a token's is stored.
    expect(text).not.toContain(createHash('sha256').update(secret).digest('hex'));
  }
  expect(text).not.toMatch(/slk_|whsec_|"(key|secret|token|password|secret_hash|token_hash|password_hash)":/);
}

type People = Record<'owner' | 'admin' | 'member' | 'viewer', { id: string; email: string; browser: Browser }>;

/** A workspace with a signed-in person of each role; its own key, made by the operator, acts as owner. */
async function workspaceWithPeople(name: string): Promise<{ workspace: TestAccount; keyId: string; people: People }> {
  const workspace = await newWorkspace(name);
  const people = {} as People;
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const email = `${role}@${name.toLowerCase()}.example`;
    const user = await addPerson(server, workspace.account.id, role, email);
    const browser = new Browser(server);
    expect((await browser.signIn(email)).status).toBe(200);
    people[role] = { id: user.id, email, browser };
  }
  const [key] = await server.services.apiKeys.list(workspace.account.id);
  return { workspace, keyId: key?.id as string, people };
}

const byKey = (id: string, name = 'API key') => ({ type: 'key', id, name });
const byPerson = (person: { id: string; email: string }) => ({ type: 'user', id: person.id, name: person.email });
const SERVER = { type: 'system', id: 'system', name: 'server' };

describe('keys', () => {
  let workspace: TestAccount;
  let keyId: string;
  let people: People;
  beforeAll(async () => {
    ({ workspace, keyId, people } = await workspaceWithPeople('Keys'));
  });

  test('the operator’s key and the people added without a request are the server’s entries', async () => {
    const all = await entries(workspace.account.id);
    expect(all[0]).toMatchObject({ action: 'key.created', actor: SERVER, resource: { type: 'key', id: keyId }, ip: null });
    expect(all.slice(1).map((entry) => [entry.action, entry.actor.type, entry.resource.id])).toEqual(
      (['owner', 'admin', 'member', 'viewer'] as const).map((role) => ['member.added', 'system', people[role].id]),
    );
    expect(all[1]?.changes).toMatchObject({ email: { before: null, after: 'owner@keys.example' }, role: { before: null, after: 'owner' } });
  });

  test('made and revoked by a key: key.created and key.revoked with what the key was, never its secret', async () => {
    let made: { body: { id: string; key: string; created_at: number } } = undefined as never;
    const recorded = await entriesOf(workspace.account.id, async () => {
      made = await workspace.call('POST', '/keys', { name: 'CI', scopes: ['links.read'], expires_at: null });
      expect((await workspace.call('DELETE', `/keys/${made.body.id}`)).status).toBe(204);
    });
    expect(recorded).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        action: 'key.created',
        actor: byKey(keyId),
        resource: { type: 'key', id: made.body.id },
        changes: {
          name: { before: null, after: 'CI' },
          scopes: { before: null, after: ['links.read'] },
          created_at: { before: null, after: made.body.created_at },
        },
        ip: expect.any(String),
        created_at: expect.any(Number),
      },
      expect.objectContaining({
        action: 'key.revoked',
        actor: byKey(keyId),
        resource: { type: 'key', id: made.body.id },
        changes: { name: { before: 'CI', after: null }, scopes: { before: ['links.read'], after: null }, created_at: expect.anything() },
      }),
    ]);
    await expectNoSecret(workspace.account.id, [made.body.key, workspace.key]);
  });

  test('made by a signed-in person (tRPC) and through Connect: their entries', async () => {
    const { member } = people;
    let made: { data: { id: string; key: string } } = undefined as never;
    const recorded = await entriesOf(workspace.account.id, async () => {
      made = await member.browser.mutate('keys.create', { name: 'Mine', scopes: ['links.read'] });
      expect(made.data.id).toMatch(/^key_/);
    });
    expect(recorded).toMatchObject([{ action: 'key.created', actor: byPerson(member), resource: { type: 'key', id: made.data.id } }]);

    // Connect: the person approves, the extension claims with its verifier; the key is the approver's.
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect((await member.browser.mutate('connect.approve', { challenge, client: 'extension' })).status).toBe(200);
    let claimed: { data: { status: string; id: string; key: string } } = undefined as never;
    const connected = await entriesOf(workspace.account.id, async () => {
      claimed = await new Browser(server).mutate('connect.claim', { verifier });
      expect(claimed.data.status).toBe('approved');
    });
    expect(connected).toMatchObject([
      { action: 'key.created', actor: byPerson(member), resource: { type: 'key', id: claimed.data.id }, ip: expect.any(String) },
    ]);
    await expectNoSecret(workspace.account.id, [made.data.key, claimed.data.key, verifier]);
  });

  test('refused calls leave no entry: scopes beyond the key’s, no keys.write, bad bodies, unknown keys', async () => {
    const narrow = (await workspace.call('POST', '/keys', { name: 'Narrow', scopes: ['links.read'] })).body.key as string;
    const asNarrow = (method: string, path: string, body?: unknown) =>
      fetch(`${server.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${narrow}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const keyWrite = (await workspace.call('POST', '/keys', { name: 'Keys', scopes: ['keys.write'] })).body.key as string;
    const asKeyWrite = (body: unknown) =>
      fetch(`${server.api}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyWrite}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await asNarrow('POST', '/keys', { name: 'More', scopes: ['links.read'] })).status).toBe(403);
      expect((await asKeyWrite({ name: 'Beyond', scopes: ['links.write'] })).status).toBe(403);
      expect((await people.viewer.browser.mutate('keys.create', { name: 'Beyond role', scopes: ['links.write'] })).status).toBe(403);
      expect((await workspace.call('POST', '/keys', { name: 'x', scopes: [] })).status).toBe(422);
      expect((await workspace.call('POST', '/keys', { name: 'x'.repeat(101), scopes: ['links.read'] })).status).toBe(422);
      expect((await workspace.call('POST', '/keys', { name: 'x', scopes: ['links.read'], expires_at: Date.now() - 1000 })).status).toBe(
        422,
      );
      expect((await workspace.call('DELETE', '/keys/key_unknown')).status).toBe(404);
      expect((await asNarrow('DELETE', `/keys/${keyId}`)).status).toBe(403);
    });
    expect(recorded).toEqual([]);
  });

  test('revocations at once leave exactly one entry', async () => {
    const made = await workspace.call('POST', '/keys', { name: 'Raced', scopes: ['links.read'] });
    const recorded = await entriesOf(workspace.account.id, async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => workspace.call('DELETE', `/keys/${made.body.id}`)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([204, 404, 404, 404, 404, 404]);
    });
    expect(recorded.map((entry) => [entry.action, entry.resource.id])).toEqual([['key.revoked', made.body.id]]);
  });
});

describe('members and the workspace', () => {
  let workspace: TestAccount;
  let people: People;
  beforeAll(async () => {
    ({ workspace, people } = await workspaceWithPeople('Members'));
  });

  test('a role change: member.updated with the role before and after, by whoever changed it', async () => {
    const { admin, member } = people;
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await admin.browser.mutate('members.changeRole', { user_id: member.id, role: 'viewer' })).status).toBe(200);
    });
    expect(recorded).toMatchObject([
      {
        action: 'member.updated',
        actor: byPerson(admin),
        resource: { type: 'member', id: member.id },
        changes: { role: { before: 'member', after: 'viewer' } },
      },
    ]);
    expect(Object.keys(recorded[0]?.changes ?? {})).toEqual(['role']);
    expect((await admin.browser.mutate('members.changeRole', { user_id: member.id, role: 'member' })).status).toBe(200);
  });

  test('refused role changes and removals leave no entry', async () => {
    const { owner, admin, member, viewer } = people;
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await admin.browser.mutate('members.changeRole', { user_id: owner.id, role: 'viewer' })).status).toBe(403);
      expect((await admin.browser.mutate('members.changeRole', { user_id: viewer.id, role: 'admin' })).status).toBe(403);
      expect((await viewer.browser.mutate('members.changeRole', { user_id: member.id, role: 'viewer' })).status).toBe(403);
      expect((await owner.browser.mutate('members.changeRole', { user_id: 'usr_nobody', role: 'viewer' })).status).toBe(404);
      expect((await owner.browser.mutate('members.changeRole', { user_id: member.id, role: 'emperor' })).status).toBe(422);
      expect((await owner.browser.mutate('members.changeRole', { user_id: owner.id, role: 'member' })).code).toBe('LAST_OWNER');
      expect((await admin.browser.mutate('members.remove', { user_id: owner.id })).status).toBe(403);
      expect((await owner.browser.mutate('members.leave')).code).toBe('LAST_OWNER');
    });
    expect(recorded).toEqual([]);
  });

  test('role changes at once each leave one entry, in the order they committed', async () => {
    const { owner, viewer } = people;
    const roles = ['member', 'admin', 'viewer', 'member', 'admin', 'viewer'] as const;
    const recorded = await entriesOf(workspace.account.id, async () => {
      const answers = await Promise.all(roles.map((role) => owner.browser.mutate('members.changeRole', { user_id: viewer.id, role })));
      expect(answers.map((answer) => answer.status)).toEqual(roles.map(() => 200));
    });
    expect(recorded).toHaveLength(roles.length);
    expect(recorded.every((entry) => entry.action === 'member.updated' && entry.resource.id === viewer.id)).toBe(true);
    // Each change starts from the role the one before it left.
    let role = 'viewer';
    for (const entry of recorded) {
      const change = entry.changes.role;
      if (change === undefined) continue; // the same role given again: an entry with nothing changed
      expect(change.before).toBe(role);
      role = change.after as string;
    }
    const [now] = (await owner.browser.query('members.list')).data.filter((one: { user_id: string }) => one.user_id === viewer.id);
    expect(now.role).toBe(role);
    await owner.browser.mutate('members.changeRole', { user_id: viewer.id, role: 'viewer' });
  });

  test('removing a member: member.removed, and key.revoked for each key they made; leaving: member.removed by them', async () => {
    const { owner } = people;
    const removed = await addPerson(server, workspace.account.id, 'member', 'removed@members.example');
    const leaver = await addPerson(server, workspace.account.id, 'member', 'leaver@members.example');
    const theirs = new Browser(server);
    expect((await theirs.signIn(removed.email)).status).toBe(200);
    const key = await theirs.mutate('keys.create', { name: 'Theirs', scopes: ['links.read'] });
    const leaving = new Browser(server);
    expect((await leaving.signIn(leaver.email)).status).toBe(200);

    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await owner.browser.mutate('members.remove', { user_id: removed.id })).status).toBe(200);
      expect((await owner.browser.mutate('members.remove', { user_id: removed.id })).status).toBe(404);
      expect((await leaving.mutate('members.leave')).status).toBe(200);
    });
    const summary = recorded.map((entry) => [entry.action, entry.actor.id, entry.resource.id]);
    expect(summary.slice(0, 2).sort()).toEqual(
      [
        ['key.revoked', owner.id, key.data.id],
        ['member.removed', owner.id, removed.id],
      ].sort(),
    );
    expect(summary[2]).toEqual(['member.removed', leaver.id, leaver.id]);
    expect(recorded.find((entry) => entry.action === 'member.removed')?.changes).toMatchObject({
      email: { before: removed.email, after: null },
      role: { before: 'member', after: null },
    });
    await expectNoSecret(workspace.account.id, [key.data.key, PASSWORD]);
  });

  test('renaming the workspace and requiring two-factor: workspace.updated; refused ones leave none', async () => {
    const { owner, admin } = people;
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await admin.browser.mutate('workspace.rename', { name: 'Nope' })).status).toBe(403);
      expect((await owner.browser.mutate('workspace.rename', { name: ' ' })).status).toBe(422);
      expect((await owner.browser.mutate('workspace.rename', { name: 'Renamed' })).status).toBe(200);
    });
    expect(recorded).toMatchObject([
      {
        action: 'workspace.updated',
        actor: byPerson(owner),
        resource: { type: 'workspace', id: workspace.account.id },
        changes: { name: { before: 'Members', after: 'Renamed' } },
      },
    ]);
    expect(Object.keys(recorded[0]?.changes ?? {})).toEqual(['name']);
  });

  test('the first owner, through their setup link: member.added by them', async () => {
    const fresh = await newWorkspace('Fresh');
    const token = await server.services.passwordLinks.issueSetup(fresh.account.id);
    const browser = new Browser(server);
    const recorded = await entriesOf(fresh.account.id, async () => {
      const used = await browser.mutate('auth.usePasswordLink', { token, password: PASSWORD, email: 'first@fresh.example' });
      expect(used.status, used.message).toBe(200);
    });
    const [entry] = recorded;
    expect(recorded).toHaveLength(1);
    expect(entry).toMatchObject({ action: 'member.added', actor: { type: 'user', name: 'first@fresh.example' }, ip: expect.any(String) });
    expect(entry?.actor.id).toBe(entry?.resource.id);
  });
});

describe('invitations', () => {
  let workspace: TestAccount;
  let people: People;
  beforeAll(async () => {
    ({ workspace, people } = await workspaceWithPeople('Invites'));
  });

  test('made, replaced, revoked and accepted: each an entry, the acceptance by the invited person; never the token', async () => {
    const { owner, admin } = people;
    const made: { invitation: { id: string }; url: string }[] = [];
    let accepted: { status: number; data: { user: { id: string } } } = undefined as never;
    const recorded = await entriesOf(workspace.account.id, async () => {
      for (const [email, role] of [
        ['grace@invites.example', 'viewer'],
        ['grace@invites.example', 'member'],
        ['hopper@invites.example', 'viewer'],
      ]) {
        const answer = await admin.browser.mutate('invitations.create', { email, role });
        expect(answer.status, answer.message).toBe(201);
        made.push(answer.data);
      }
      expect((await owner.browser.mutate('invitations.revoke', { id: made[2]?.invitation.id })).status).toBe(200);
      const token = new URL(made[1]?.url as string).hash.slice(1);
      accepted = await new Browser(server).mutate('invitations.accept', { token, password: PASSWORD });
      expect(accepted.status).toBe(200);
      expect((await new Browser(server).mutate('invitations.accept', { token, password: PASSWORD })).code).toBe('INVITATION_ACCEPTED');
    });
    const [first, second, third] = made.map((one) => one.invitation.id);
    const grace = { id: accepted.data.user.id, email: 'grace@invites.example' };
    expect(recorded.map((entry) => [entry.action, entry.actor.id, entry.resource.type, entry.resource.id])).toEqual([
      ['invitation.created', admin.id, 'invitation', first],
      // Inviting the same address again replaces the pending invitation, in one transaction.
      ['invitation.revoked', admin.id, 'invitation', first],
      ['invitation.created', admin.id, 'invitation', second],
      ['invitation.created', admin.id, 'invitation', third],
      ['invitation.revoked', owner.id, 'invitation', third],
      ['invitation.accepted', grace.id, 'invitation', second],
      ['member.added', grace.id, 'member', grace.id],
    ]);
    expect(recorded.find((entry) => entry.resource.id === second)?.changes).toMatchObject({
      email: { before: null, after: 'grace@invites.example' },
      role: { before: null, after: 'member' },
      invited_by: { before: null, after: admin.email },
    });
    expect(recorded.at(-1)).toMatchObject({ actor: byPerson(grace), changes: { role: { before: null, after: 'member' } } });
    await expectNoSecret(workspace.account.id, [...made.map((one) => new URL(one.url).hash.slice(1)), PASSWORD]);
  });

  test('refused invitations leave no entry', async () => {
    const { owner, admin, member } = people;
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await member.browser.mutate('invitations.create', { email: 'x@invites.example', role: 'viewer' })).status).toBe(403);
      expect((await admin.browser.mutate('invitations.create', { email: 'x@invites.example', role: 'owner' })).status).toBe(403);
      expect((await owner.browser.mutate('invitations.create', { email: 'not an email', role: 'viewer' })).status).toBe(422);
      expect((await owner.browser.mutate('invitations.create', { email: member.email, role: 'viewer' })).code).toBe('ALREADY_MEMBER');
      expect((await owner.browser.mutate('invitations.revoke', { id: 'inv_unknown' })).status).toBe(404);
      const high = await owner.browser.mutate('invitations.create', { email: 'boss@invites.example', role: 'owner' });
      expect((await admin.browser.mutate('invitations.revoke', { id: high.data.invitation.id })).status).toBe(403);
      expect((await new Browser(server).mutate('invitations.accept', { token: 'x'.repeat(43), password: PASSWORD })).status).toBe(404);
    });
    expect(recorded.map((entry) => entry.action)).toEqual(['invitation.created']);
  });
});

describe('domains', () => {
  test('added, made default, verified, deleted: each an entry with what changed; refused ones leave none', async () => {
    const workspace = await newWorkspace('Domains');
    const [key] = await server.services.apiKeys.list(workspace.account.id);
    let first: { id: string; verification: { name: string; value: string } } = undefined as never;
    let second: typeof first = undefined as never;
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await workspace.call('POST', '/domains', { name: 'not a domain' })).status).toBe(422);
      first = (await workspace.call('POST', '/domains', { name: 'go.first.example' })).body;
      second = (await workspace.call('POST', '/domains', { name: 'go.second.example' })).body;
      expect((await workspace.call('POST', '/domains', { name: 'go.first.example' })).status).toBe(409);
      expect((await workspace.call('PATCH', `/domains/${first.id}`, { is_default: true })).status).toBe(422);
      expect((await workspace.call('PATCH', '/domains/dom_unknown', { root_redirect_url: null })).status).toBe(404);
      // A look-up that finds nothing changes only when it was made: no entry.
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
      expect(link.status).toBe(201);
      expect((await workspace.call('DELETE', `/domains/${second.id}`)).body.code).toBe('DOMAIN_HAS_LINKS');
      expect((await workspace.call('DELETE', `/domains/${first.id}`)).status).toBe(204);
      expect((await workspace.call('DELETE', `/domains/${first.id}`)).status).toBe(404);
    });
    const domains = recorded.filter((entry) => entry.resource.type === 'domain');
    expect(domains.every((entry) => entry.actor.id === key?.id && entry.actor.type === 'key')).toBe(true);
    expect(domains.map((entry) => [entry.action, entry.resource.id])).toEqual([
      ['domain.created', first.id],
      ['domain.created', second.id],
      ['domain.verified', first.id],
      ['domain.verified', second.id],
      ['domain.updated', first.id],
      // Making the second the default unsets the first: both changed, in one transaction.
      ...[
        ['domain.updated', first.id],
        ['domain.updated', second.id],
      ],
      ['domain.deleted', first.id],
    ]);
    expect(domains[0]?.changes).toMatchObject({
      name: { before: null, after: 'go.first.example' },
      status: { before: null, after: 'pending' },
    });
    expect(domains[2]?.changes).toMatchObject({
      verified: { before: false, after: true },
      status: { before: 'pending', after: 'verified' },
    });
    expect(domains[4]?.changes).toEqual({ is_default: { before: false, after: true } });
    expect(domains[7]?.changes).toMatchObject({ name: { before: 'go.first.example', after: null } });
  });

  test('the re-check: a record gone is the server’s domain.updated; one still there leaves no entry', async () => {
    const workspace = await newWorkspace('Rechecked');
    const domain = (await workspace.call('POST', '/domains', { name: 'go.rechecked.example' })).body;
    dns.txt.set(domain.verification.name, [domain.verification.value]);
    expect((await workspace.call('POST', `/domains/${domain.id}/verify`)).body.verified).toBe(true);
    const still = await entriesOf(workspace.account.id, () => server.services.domains.recheck(Date.now() + 60_000, 0));
    expect(still).toEqual([]);
    dns.txt.delete(domain.verification.name);
    const gone = await entriesOf(workspace.account.id, () => server.services.domains.recheck(Date.now() + 120_000, 0));
    expect(gone).toMatchObject([
      {
        action: 'domain.updated',
        actor: SERVER,
        ip: null,
        resource: { type: 'domain', id: domain.id },
        changes: { status: { before: 'verified', after: 'record_missing' } },
      },
    ]);
  });

  test('DOMAIN_LIMIT_REACHED, and a key without domains.write, leave no entry', async () => {
    const workspace = await newWorkspace('Cap');
    for (let n = 0; n < LIMITS.domainsPerWorkspace; n++) {
      expect((await workspace.call('POST', '/domains', { name: `d${n}.cap.example` })).status).toBe(201);
    }
    const reader = (await workspace.call('POST', '/keys', { name: 'Reader', scopes: ['domains.read'] })).body.key as string;
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await workspace.call('POST', '/domains', { name: 'one.more.example' })).body.code).toBe('DOMAIN_LIMIT_REACHED');
      const refused = await fetch(`${server.api}/domains`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'by.reader.example' }),
      });
      expect(refused.status).toBe(403);
    });
    expect(recorded).toEqual([]);
  });
});

describe('webhooks', () => {
  test('made, disabled, rotated, deleted: each an entry, never a secret; refused ones leave none', async () => {
    const workspace = await newWorkspace('Hooks');
    const [key] = await server.services.apiKeys.list(workspace.account.id);
    const reader = (await workspace.call('POST', '/keys', { name: 'Reader', scopes: ['webhooks.read'] })).body.key as string;
    const secrets: string[] = [];
    let id = '';
    const recorded = await entriesOf(workspace.account.id, async () => {
      expect((await workspace.call('POST', '/webhooks', { url: 'ftp://x', events: ['link.created'] })).status).toBe(422);
      expect((await workspace.call('POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['key.created'] })).status).toBe(
        422,
      );
      expect((await workspace.call('PATCH', '/webhooks/wh_unknown', { enabled: false })).status).toBe(404);
      expect((await workspace.call('DELETE', '/webhooks/wh_unknown')).status).toBe(404);
      const refused = await fetch(`${server.api}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.example.com/in', events: ['link.created'] }),
      });
      expect(refused.status).toBe(403);
      const made = await workspace.call('POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['link.created'] });
      expect(made.status).toBe(201);
      id = made.body.id;
      secrets.push(made.body.secret);
      expect((await workspace.call('PATCH', `/webhooks/${id}`, { enabled: false, description: 'Paused' })).status).toBe(200);
      const rotated = await workspace.call('POST', `/webhooks/${id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      secrets.push(rotated.body.secret);
      expect((await workspace.call('DELETE', `/webhooks/${id}`)).status).toBe(204);
      expect((await workspace.call('DELETE', `/webhooks/${id}`)).status).toBe(404);
    });
    expect(recorded.map((entry) => [entry.action, entry.actor.id, entry.resource.type, entry.resource.id])).toEqual(
      ['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted'].map((action) => [action, key?.id, 'webhook', id]),
    );
    expect(recorded[0]?.changes).toMatchObject({
      url: { before: null, after: 'https://hooks.example.com/in' },
      events: { before: null, after: ['link.created'] },
      enabled: { before: null, after: true },
    });
    expect(recorded[1]?.changes).toEqual({ enabled: { before: true, after: false }, description: { before: null, after: 'Paused' } });
    expect(recorded[2]?.changes).toEqual({});
    await expectNoSecret(workspace.account.id, secrets);

    // The log's filters find a webhook's history, and what one key did.
    const history = await workspace.call('GET', `/audit-log?resource_id=${id}`);
    expect(history.body.entries.map((entry: StoredEntry) => entry.action)).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ]);
    const rotations = await workspace.call('GET', `/audit-log?action=webhook.secret_rotated&actor_id=${key?.id}`);
    expect(rotations.body).toMatchObject({ total: 1, entries: [{ resource: { type: 'webhook', id } }] });
  });

  test('a receiver answering 410 Gone: the sender disables the webhook, the server’s webhook.updated', async () => {
    const workspace = await newWorkspace('Gone');
    receiver.status = 410;
    const made = await workspace.call('POST', '/webhooks', { url: receiver.url, events: ['link.created'] });
    expect(made.status).toBe(201);
    receiver.secrets = [made.body.secret];
    expect((await workspace.call('POST', '/links', { title: 'Sent', destination_url: 'https://example.com/gone' })).status).toBe(201);
    const disabled = async () => (await entries(workspace.account.id)).filter((entry) => entry.action === 'webhook.updated');
    await waitFor(async () => (await disabled()).length > 0, 20_000, 'the webhook to be disabled');
    expect(await disabled()).toMatchObject([
      {
        actor: SERVER,
        ip: null,
        resource: { type: 'webhook', id: made.body.id },
        changes: { enabled: { before: true, after: false }, disabled_reason: { before: null, after: expect.stringContaining('410') } },
      },
    ]);
    await expectNoSecret(workspace.account.id, [made.body.secret]);
  });

  test('the webhook’s own entries are no webhook events: nothing is sent for them', async () => {
    const workspace = await newWorkspace('Quiet');
    const made = await workspace.call('POST', '/webhooks', {
      url: 'https://hooks.example.com/in',
      events: ['link.created', 'domain.verified'],
    });
    await workspace.call('PATCH', `/webhooks/${made.body.id}`, { description: 'Changed' });
    await workspace.call('POST', '/keys', { name: 'Another', scopes: ['links.read'] });
    await workspace.call('POST', '/domains', { name: 'go.quiet.example' });
    const events = await server.orm.em
      .fork()
      .getConnection()
      .execute('select type from webhook_event where account_id = ?', [workspace.account.id]);
    expect(events).toEqual([]);
  });
});
