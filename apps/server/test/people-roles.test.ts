import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, keyMadeBy } from './people.ts';

/*
 * Roles (docs/accounts.md, "Roles"), enforced by the server on both transports: a refusal is 403
 * FORBIDDEN and changes nothing. Members, removal and the last owner.
 */

let server: TestServer;
let workspace: TestAccount;
const browsers: Record<'owner' | 'admin' | 'member' | 'viewer', Browser> = {} as never;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  workspace = await createAccount(server, { name: 'Roles' });
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const user = await addPerson(server, workspace.account.id, role, `${role}@roles.example`);
    ids[role] = user.id;
    browsers[role] = new Browser(server);
    expect((await browsers[role].signIn(`${role}@roles.example`)).status).toBe(200);
  }
});
afterAll(() => server.close());

const newLink = { title: 'Viewer tried', destination_url: 'https://example.com/viewer' };

describe('a viewer', () => {
  test('sees links, tags and statistics on tRPC', async () => {
    for (const path of ['links.list', 'tags.list', 'auth.me', 'members.list']) {
      expect((await browsers.viewer.query(path)).status, path).toBe(200);
    }
  });

  test('is refused every write on tRPC with 403 FORBIDDEN, and nothing changes', async () => {
    const before = await countRows(server, 'link');
    const created = await browsers.viewer.mutate('links.create', newLink);
    expect(created).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(created.message).toBe('A viewer cannot do this; it needs the role member or above');
    expect((await browsers.viewer.mutate('tags.create', { name: 'nope' })).status).toBe(403);
    expect((await browsers.viewer.query('links.export', {})).status).toBe(403);
    expect((await browsers.viewer.mutate('members.remove', { user_id: ids.member })).status).toBe(403);
    expect(await countRows(server, 'link')).toBe(before);
    expect(await countRows(server, 'tag')).toBe(0);
  });

  test("a viewer's key is refused writes on REST too, and reads as before", async () => {
    const key = await keyMadeBy(server, workspace.account.id, ids.viewer as string);
    const refused = await callApi(server, key, 'POST', '/links', newLink);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'FORBIDDEN', message: 'A viewer cannot do this; it needs the role member or above' });
    expect((await callApi(server, key, 'GET', '/links')).status).toBe(200);
  });
});

describe('members, admins and owners', () => {
  test('a member writes links but cannot manage people or the workspace', async () => {
    expect((await browsers.member.mutate('links.create', { ...newLink, title: 'Member wrote' })).status).toBe(201);
    expect((await browsers.member.mutate('members.changeRole', { user_id: ids.viewer, role: 'member' })).status).toBe(403);
    expect((await browsers.member.mutate('workspace.rename', { name: 'Taken over' })).status).toBe(403);
  });

  test('an admin changes roles below their own only, and cannot rename or delete the workspace', async () => {
    const promoted = await browsers.admin.mutate('members.changeRole', { user_id: ids.viewer, role: 'member' });
    expect(promoted).toMatchObject({ status: 200, data: { role: 'member' } });
    // Takes effect at the next request of the promoted person's session.
    expect((await browsers.viewer.mutate('links.create', { ...newLink, title: 'Now a member' })).status).toBe(201);
    expect((await browsers.admin.mutate('members.changeRole', { user_id: ids.viewer, role: 'admin' })).status).toBe(403);
    expect((await browsers.admin.mutate('members.changeRole', { user_id: ids.owner, role: 'viewer' })).status).toBe(403);
    expect((await browsers.admin.mutate('workspace.rename', { name: 'Admin says' })).status).toBe(403);
    expect((await browsers.admin.mutate('workspace.delete', { confirm_name: 'Roles' })).status).toBe(403);
    await browsers.admin.mutate('members.changeRole', { user_id: ids.viewer, role: 'viewer' });
    expect((await browsers.viewer.mutate('links.create', newLink)).status).toBe(403);
  });

  test('the last owner can be neither demoted nor leave; with a second owner, they can', async () => {
    const demoted = await browsers.owner.mutate('members.changeRole', { user_id: ids.owner, role: 'admin' });
    expect(demoted).toMatchObject({ status: 409, code: 'LAST_OWNER' });
    expect((await browsers.owner.mutate('members.leave')).code).toBe('LAST_OWNER');
    expect((await browsers.owner.mutate('workspace.rename', { name: 'Roles renamed' })).data).toMatchObject({ name: 'Roles renamed' });
    expect((await browsers.owner.query('auth.me')).data.workspace.name).toBe('Roles renamed');
    // With a second owner, one of them may step down.
    const second = await addPerson(server, workspace.account.id, 'owner', 'second-owner@roles.example');
    expect((await browsers.owner.mutate('members.changeRole', { user_id: second.id, role: 'admin' })).status).toBe(200);
  });

  test("an operator's key (made by the CLI, no maker) keeps every right", async () => {
    expect((await workspace.call('POST', '/links', { ...newLink, title: 'Operator key' })).status).toBe(201);
    const trpc = await fetch(`${server.origin}/trpc/members.list?input=%7B%7D`, { headers: { authorization: `Bearer ${workspace.key}` } });
    expect(trpc.status).toBe(200);
    // But it is no person: the dashboard's own procedures want one.
    const me = await fetch(`${server.origin}/trpc/auth.me?input=%7B%7D`, { headers: { authorization: `Bearer ${workspace.key}` } });
    expect(me.status).toBe(403);
  });
});

describe('removing someone', () => {
  test('ends their session in the workspace and revokes the keys they made there, at once', async () => {
    const email = 'leaving@roles.example';
    const leaving = await addPerson(server, workspace.account.id, 'member', email);
    const browser = new Browser(server);
    await browser.signIn(email);
    const key = await keyMadeBy(server, workspace.account.id, leaving.id);
    expect((await callApi(server, key, 'GET', '/links')).status).toBe(200);
    expect((await browser.query('links.list')).status).toBe(200);

    const removed = await browsers.admin.mutate('members.remove', { user_id: leaving.id });
    expect(removed.status).toBe(200);
    expect((await browser.query('links.list')).status).toBe(401);
    expect((await browser.mutate('links.create', newLink)).status).toBe(401);
    expect((await callApi(server, key, 'GET', '/links')).status).toBe(401);
    expect((await browsers.admin.query('members.list')).data.map((member: { email: string }) => member.email)).not.toContain(email);
    // Signing in again finds no workspace to work in.
    const again = await new Browser(server).signIn(email);
    expect(again.status).toBe(403);
  });

  test('an admin cannot remove an owner; nobody removes themselves (they leave)', async () => {
    expect((await browsers.admin.mutate('members.remove', { user_id: ids.owner })).status).toBe(403);
    expect((await browsers.admin.mutate('members.remove', { user_id: ids.admin })).status).toBe(422);
  });

  test('a second server hears the removal: the session it knew ends there too, and the keys they made', async () => {
    const other = await startTestServer({ databaseUrl: server.databaseUrl });
    try {
      const email = 'two-servers@roles.example';
      const person = await addPerson(server, workspace.account.id, 'member', email);
      const browser = new Browser(server);
      await browser.signIn(email);
      const there = new Browser(other);
      there.cookie = browser.cookie;
      there.csrfToken = browser.csrfToken;
      const key = await keyMadeBy(server, workspace.account.id, person.id);
      // Both servers know the session and the key (and keep their callers) before the removal.
      expect((await there.query('links.list')).status).toBe(200);
      for (const on of [server, other]) expect((await callApi(on, key, 'GET', '/links')).status).toBe(200);
      expect((await browsers.owner.mutate('members.remove', { user_id: person.id })).status).toBe(200);
      // The announcement arrives within milliseconds; the cache's bound is 1 s in any case.
      const deadline = Date.now() + 1_500;
      let status = 200;
      while (Date.now() < deadline && status === 200) status = (await there.query('links.list')).status;
      expect(status).toBe(401);
      const keyDeadline = Date.now() + 1_500;
      for (const on of [other, server]) {
        let keyStatus = 200;
        while (Date.now() < keyDeadline && keyStatus === 200) keyStatus = (await callApi(on, key, 'GET', '/links')).status;
        expect(keyStatus).toBe(401);
        expect((await callApi(on, key, 'GET', '/links')).status).toBe(401);
      }
    } finally {
      await other.close();
    }
  });
});

describe('switching workspaces', () => {
  test('a person in two workspaces works in one at a time, with their role there', async () => {
    const second = await createAccount(server, { name: 'Second' });
    await server.services.members.add(second.account.id, ids.viewer as string, 'admin');
    const me = await browsers.viewer.query('auth.me');
    expect(me.data.workspaces.map((entry: { name: string }) => entry.name).sort()).toEqual(['Roles renamed', 'Second']);
    const switched = await browsers.viewer.mutate('auth.switchWorkspace', { workspace_id: second.account.id });
    expect(switched.data.workspace).toMatchObject({ id: second.account.id, role: 'admin' });
    expect((await browsers.viewer.mutate('links.create', newLink)).status).toBe(201);
    expect(await countRows(server, 'link', `account_id = '${second.account.id}'`)).toBe(1);
    const stranger = await createAccount(server, { name: 'Stranger' });
    expect((await browsers.viewer.mutate('auth.switchWorkspace', { workspace_id: stranger.account.id })).status).toBe(403);
    await browsers.viewer.mutate('auth.switchWorkspace', { workspace_id: workspace.account.id });
  });
});
