import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StoredEntry, storedEntries } from './audit.ts';
import { createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * The audit log's entries (issue #27, docs/accounts.md "The audit log"): one per committed change
 * of a link or a tag, in the change's transaction, whichever way it came (single calls, bulk
 * calls, the import, tags made through `tag_names`), none for a refused call, and a consistent
 * chain of before and after when changes race.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * The account's entries of links and tags, oldest first (the order the changes committed in). The
 * keys a test makes are entries too (key.created): audit-concerns.test.ts checks those.
 */
async function entries(account: TestAccount): Promise<StoredEntry[]> {
  const all = (await storedEntries(server, account.account.id)).reverse();
  return all.filter((entry) => entry.resource.type === 'link' || entry.resource.type === 'tag');
}

const actions = (list: StoredEntry[]) => list.map((entry) => entry.action);

describe('links and tags: one entry per committed change', () => {
  test('create, update, delete: who, what, the fields that changed, from where', async () => {
    const account = await createAccount(server);
    const created = await account.call('POST', '/links', {
      title: 'First',
      destination_url: 'https://example.com/audit/first',
      slug: 'audit-first',
    });
    expect(created.status).toBe(201);
    const updated = await account.call('PATCH', `/links/${created.body.id}`, { title: 'Second', comments: 'why' });
    expect(updated.status).toBe(200);
    expect((await account.call('DELETE', `/links/${created.body.id}`)).status).toBe(204);

    const [made, changed, deleted] = await entries(account);
    const keyId = (await server.services.apiKeys.list(account.account.id))[0]?.id;
    for (const entry of [made, changed, deleted]) {
      expect(entry).toMatchObject({
        actor: { type: 'key', id: keyId, name: 'API key' },
        resource: { type: 'link', id: created.body.id },
        ip: '127.0.0.1',
      });
      expect(entry?.id).toMatch(/^aud_/);
    }
    expect(made?.action).toBe('link.created');
    expect(made?.changes).toMatchObject({
      title: { before: null, after: 'First' },
      slug: { before: null, after: 'audit-first' },
      destination_url: { before: null, after: 'https://example.com/audit/first' },
    });
    // Nothing unset is listed, nor noise.
    expect(made?.changes).not.toHaveProperty('comments');
    expect(made?.changes).not.toHaveProperty('click_count');
    expect(made?.changes).not.toHaveProperty('updated_at');
    expect(changed).toMatchObject({
      action: 'link.updated',
      changes: { title: { before: 'First', after: 'Second' }, comments: { before: null, after: 'why' } },
    });
    expect(Object.keys(changed?.changes ?? {}).sort()).toEqual(['comments', 'title']);
    expect(deleted).toMatchObject({ action: 'link.deleted', changes: { title: { before: 'Second', after: null } } });
  });

  test('an upsert writes link.created the first time and link.updated with what changed after', async () => {
    const account = await createAccount(server);
    const body = { title: 'Up', destination_url: 'https://example.com/audit/upsert' };
    expect((await account.call('POST', '/links/upsert', body)).status).toBe(201);
    expect((await account.call('POST', '/links/upsert', { ...body, title: 'Up again' })).status).toBe(200);
    const list = await entries(account);
    expect(actions(list)).toEqual(['link.created', 'link.updated']);
    expect(list[1]?.changes).toEqual({ title: { before: 'Up', after: 'Up again' } });
  });

  test('tags: create, rename, delete; tags made through tag_names are entries of their own; tag changes of a link show before and after', async () => {
    const account = await createAccount(server);
    const tag = await account.call('POST', '/tags', { name: 'news', color: 'cyan' });
    expect(tag.status).toBe(201);
    expect((await account.call('PATCH', `/tags/${tag.body.id}`, { name: 'press' })).status).toBe(200);
    const link = await createLink(account, { tag_names: ['press', 'fresh'] });
    expect((await account.call('PATCH', `/links/${link.id}`, { tag_ids: [tag.body.id] })).status).toBe(200);
    expect((await account.call('DELETE', `/tags/${tag.body.id}`)).status).toBe(204);

    const list = await entries(account);
    expect(actions(list)).toEqual(['tag.created', 'tag.updated', 'tag.created', 'link.created', 'link.updated', 'tag.deleted']);
    expect(list[0]?.changes).toEqual({ name: { before: null, after: 'news' }, color: { before: null, after: 'cyan' } });
    expect(list[1]).toMatchObject({ resource: { type: 'tag', id: tag.body.id }, changes: { name: { before: 'news', after: 'press' } } });
    expect(Object.keys(list[1]?.changes ?? {})).toEqual(['name']);
    const fresh = link.tags.find((one: { name: string }) => one.name === 'fresh');
    expect(list[2]).toMatchObject({ resource: { type: 'tag', id: fresh.id }, changes: { name: { before: null, after: 'fresh' } } });
    expect(list[4]?.changes).toEqual({
      tags: {
        before: [
          { id: fresh.id, name: 'fresh', color: fresh.color },
          { id: tag.body.id, name: 'press', color: 'cyan' },
        ],
        after: [{ id: tag.body.id, name: 'press', color: 'cyan' }],
      },
    });
    expect(list[5]).toMatchObject({ action: 'tag.deleted', changes: { name: { before: 'press', after: null } } });
  });

  test('bulk create, update and delete: one entry per link', async () => {
    const account = await createAccount(server);
    const made = await account.call('POST', '/links/bulk', {
      links: [1, 2, 3].map((n) => ({ title: `Bulk ${n}`, destination_url: `https://example.com/audit/bulk/${n}` })),
    });
    expect(made.status).toBe(201);
    const ids: string[] = made.body.results.map((result: { link: { id: string } }) => result.link.id);
    expect((await account.call('PATCH', '/links/bulk', { ids, changes: { title: 'All' } })).status).toBe(200);
    expect((await account.call('DELETE', `/links/bulk?ids=${ids.join(',')}`)).status).toBe(200);

    const list = await entries(account);
    for (const action of ['link.created', 'link.updated', 'link.deleted']) {
      const of = list.filter((entry) => entry.action === action);
      expect(of.map((entry) => entry.resource.id).sort()).toEqual([...ids].sort());
    }
    expect(list).toHaveLength(9);
    expect(list.find((entry) => entry.action === 'link.updated' && entry.resource.id === ids[1])?.changes).toEqual({
      title: { before: 'Bulk 2', after: 'All' },
    });
  });

  test('import: one entry per created or updated link, none for unchanged, skipped or refused rows', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const csv = (rows: string[]) => ['slug,destination_url,title,tags', ...rows].join('\n');
    const send = (body: string, query = '') =>
      fetch(`${server.api}/links/import${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.key}`, 'content-type': 'text/csv' },
        body,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));

    const first = await send(
      csv(['imp-a,https://example.com/imp/a,A,x', 'imp-b,https://example.com/imp/b,B,', 'docs,https://example.com/imp/r,Reserved,']),
    );
    expect(first.body).toMatchObject({ created: 2, refused: 1 });
    expect(actions(await entries(account)).sort()).toEqual(['link.created', 'link.created', 'tag.created']);

    // A second run: one row changed (updated), one the same (unchanged), one new; skipped rows write nothing.
    const second = await send(
      csv(['imp-a,https://example.com/imp/a,A changed,x', 'imp-b,https://example.com/imp/b,B,', 'imp-c,https://example.com/imp/c,C,']),
      '?on_conflict=update',
    );
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ created: 1, updated: 1 });
    const list = await entries(account);
    expect(actions(list.slice(3))).toEqual(['link.updated', 'link.created']);
    expect(list[3]?.changes).toEqual({ title: { before: 'A', after: 'A changed' } });

    const third = await send(csv(['imp-a,https://example.com/imp/a,Again,x']));
    expect(third.body).toMatchObject({ skipped: 1 });
    const dry = await send(csv(['imp-d,https://example.com/imp/d,D,']), '?dry_run=true');
    expect(dry.body).toMatchObject({ created: 1, dry_run: true });
    expect(await entries(account)).toHaveLength(5);
  });
});

describe('a refused call writes no entry', () => {
  test('403 for a missing scope, 422 for a bad body, 409 for a slug taken, LINK_LIMIT_REACHED, 404, and a bulk call refused whole', async () => {
    const account = await createAccount(server, { plan: 'team', link_limit: 2 });
    const reader = (await server.services.apiKeys.create(account.account.id, { name: 'reader', scopes: ['links.read'] })).secret;
    const asReader = (method: string, path: string, body?: unknown) =>
      fetch(`${server.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const link = await createLink(account, { slug: 'taken-audit' });
    const before = await entries(account);
    expect(before).toHaveLength(1);

    expect((await asReader('POST', '/links', { title: 'No', destination_url: 'https://example.com/no' })).status).toBe(403);
    expect((await asReader('PATCH', `/links/${link.id}`, { title: 'No' })).status).toBe(403);
    expect((await account.call('POST', '/links', { title: '', destination_url: 'nope' })).status).toBe(422);
    expect((await account.call('PATCH', `/links/${link.id}`, { title: 42 })).status).toBe(422);
    expect(
      (await account.call('POST', '/links', { title: 'T', destination_url: 'https://example.com/t', slug: 'taken-audit' })).status,
    ).toBe(409);
    expect((await account.call('PATCH', '/links/lnk_doesnotexist0000', { title: 'x' })).status).toBe(404);
    expect((await account.call('POST', '/links/bulk', { links: [] })).status).toBe(422);
    const tooMany = await account.call('POST', '/links/bulk', {
      links: [1, 2].map((n) => ({ title: `L${n}`, destination_url: `https://example.com/limit/${n}` })),
    });
    // One link fits the limit of 2: the bulk call creates it and refuses the other.
    expect(tooMany.status).toBe(207);
    const limited = await account.call('POST', '/links', { title: 'Over', destination_url: 'https://example.com/over' });
    expect(limited.status).toBe(403);
    expect(limited.body.code).toBe('LINK_LIMIT_REACHED');
    const refusedWhole = await account.call('POST', '/links/bulk', {
      links: [1, 2].map((n) => ({ title: `W${n}`, destination_url: `https://example.com/whole/${n}` })),
    });
    expect(refusedWhole.status).toBe(422);

    const after = await entries(account);
    // Only the bulk call's one created link was written.
    expect(actions(after.slice(1))).toEqual(['link.created']);
  });
});

describe('changes that race', () => {
  test('10 concurrent PATCHes of one link: 10 entries whose before and after chain', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { title: 'T0' });
    const titles = Array.from({ length: 10 }, (_, n) => `T${n + 1}`);
    const answers = await Promise.all(titles.map((title) => account.call('PATCH', `/links/${link.id}`, { title })));
    expect(answers.map((answer) => answer.status)).toEqual(titles.map(() => 200));

    const updates = (await entries(account)).filter((entry) => entry.action === 'link.updated');
    expect(updates).toHaveLength(10);
    let current = 'T0';
    for (const entry of updates) {
      const change = entry.changes.title as { before: string; after: string };
      expect(change.before).toBe(current);
      current = change.after;
    }
    expect(current).toBe((await account.call('GET', `/links/${link.id}`)).body.title);
    expect(new Set(updates.map((entry) => entry.changes.title?.after))).toEqual(new Set(titles));
  });

  test('concurrent creates: one entry per link created, none for those refused', async () => {
    const account = await createAccount(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        account.call('POST', '/links', {
          title: `C${n}`,
          destination_url: `https://example.com/race/${n}`,
          // Half of them race for the same slug: one wins.
          ...(n % 2 === 0 ? { slug: 'race-slug' } : {}),
        }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id as string);
    expect(created).toHaveLength(7);
    const list = await entries(account);
    expect(list.every((entry) => entry.action === 'link.created')).toBe(true);
    expect(list.map((entry) => entry.resource.id).sort()).toEqual(created.sort());
  });
});

describe('secrets never appear', () => {
  test("a link's password and the caller's key are in no entry", async () => {
    const account = await createAccount(server);
    const password = 'opensesame-audit-7391';
    const link = await createLink(account, { password });
    expect((await account.call('PATCH', `/links/${link.id}`, { password: 'another-secret-5521' })).status).toBe(200);
    expect((await account.call('PATCH', `/links/${link.id}`, { password: null })).status).toBe(200);
    const list = await entries(account);
    expect(actions(list)).toEqual(['link.created', 'link.updated', 'link.updated']);
    expect(list[0]?.changes.password_protected).toEqual({ before: null, after: true });
    // A password replaced shows no field (what changed is secret), but the change is there.
    expect(list[1]?.changes).toEqual({});
    expect(list[2]?.changes).toEqual({ password_protected: { before: true, after: null } });
    const text = JSON.stringify(list);
    for (const secret of [password, 'another-secret-5521', account.key, account.key.slice(4)]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/argon2|password_hash|secret_hash/);
  });
});
