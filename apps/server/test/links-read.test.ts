import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

const OPTIONAL_FIELDS = ['external_id', 'comments', 'expires_at', 'expiration_url'];

async function createTag(account: TestAccount, name: string) {
  const response = await account.call('POST', '/tags', { name });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string; color: string };
}

const ids = (links: { id: string }[]) => links.map((link) => link.id);

describe('GET /links/{id}', () => {
  test('returns 200 with the link object by its lnk_ id', async () => {
    const created = await createLink(alice, {
      title: 'By id',
      destination_url: 'https://example.com/by-id',
      comments: 'note',
      expires_at: inDays(5),
      expiration_url: 'https://example.com/gone',
      external_id: 'by-id-1',
      tag_names: ['read'],
    });
    const response = await alice.call('GET', `/links/${created.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
  });

  test('returns the link by ext_ followed by its external id; the ext_ prefix is not part of the stored id', async () => {
    const created = await createLink(alice, { external_id: 'crm-42' });
    const response = await alice.call('GET', '/links/ext_crm-42');
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(created.id);
    expect(response.body.external_id).toBe('crm-42');
    expect(response.body).toEqual(created);
  });

  test.each([
    ['a slash', 'orders/2024/17'],
    ['a question mark and ampersand', 'q?x=1&y=2'],
    ['spaces', 'with some spaces'],
    ['a percent sign', '100% done'],
    ['an escape-looking sequence', 'literal%41'],
    ['unicode', 'ünïcødé-日本-🚀'],
    ['a hash', 'item#7'],
    ['a plus sign', 'a+b'],
    ['its own ext_ prefix', 'ext_nested'],
  ])('finds a link by a URL-encoded external id containing %s', async (_why, externalId) => {
    const created = await createLink(alice, { external_id: externalId, destination_url: 'https://example.com/enc' });
    const response = await alice.call('GET', `/links/ext_${encodeURIComponent(externalId)}`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(created.id);
    expect(response.body.external_id).toBe(externalId);
  });

  test('an encoded external id is decoded exactly once: "%2541" names "%41", not "A"', async () => {
    const account = await createAccount(server);
    const plainA = await createLink(account, { external_id: 'A' });
    const escaped = await createLink(account, { external_id: '%41' });
    const response = await account.call('GET', '/links/ext_%2541');
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(escaped.id);
    expect(response.body.id).not.toBe(plainA.id);
  });

  test('omits fields that are not set and returns tags as summaries sorted by name', async () => {
    const created = await createLink(alice, { tag_names: ['gamma', 'Alpha', 'beta'] });
    const response = await alice.call('GET', `/links/${created.id}`);
    expect(response.status).toBe(200);
    for (const absent of OPTIONAL_FIELDS) expect(response.body).not.toHaveProperty(absent);
    expect(response.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Alpha', 'beta', 'gamma']);
    for (const tag of response.body.tags) {
      expect(Object.keys(tag).sort()).toEqual(['color', 'id', 'name']);
      expect(tag.id).toMatch(/^tag_/);
    }
  });

  test('404 LINK_NOT_FOUND for an unknown lnk_ id and an unknown external id', async () => {
    for (const path of ['/links/lnk_doesnotexist', '/links/ext_no-such-external-id']) {
      const response = await alice.call('GET', path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test('404 LINK_NOT_FOUND for a deleted link, by lnk_ id and by external id', async () => {
    const created = await createLink(alice, { external_id: 'soon-deleted' });
    expect((await alice.call('DELETE', `/links/${created.id}`)).status).toBe(204);
    for (const path of [`/links/${created.id}`, '/links/ext_soon-deleted']) {
      const response = await alice.call('GET', path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test("404 LINK_NOT_FOUND for another account's link, by lnk_ id and by external id", async () => {
    const bob = await createAccount(server);
    const bobs = await createLink(bob, { external_id: 'bob-only' });
    for (const path of [`/links/${bobs.id}`, '/links/ext_bob-only']) {
      const response = await alice.call('GET', path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
    expect((await bob.call('GET', `/links/${bobs.id}`)).status).toBe(200);
  });

  test("the same external id in two accounts resolves to each account's own link", async () => {
    const one = await createAccount(server);
    const two = await createAccount(server);
    const first = await createLink(one, { external_id: 'shared-ext' });
    const second = await createLink(two, { external_id: 'shared-ext' });
    expect((await one.call('GET', '/links/ext_shared-ext')).body.id).toBe(first.id);
    expect((await two.call('GET', '/links/ext_shared-ext')).body.id).toBe(second.id);
  });

  test('click_count is the all-time count stored for the link', async () => {
    const created = await createLink(alice);
    await server.orm.em.fork().getConnection().execute(`update link set click_count = 1234 where id = '${created.id}'`);
    const response = await alice.call('GET', `/links/${created.id}`);
    expect(response.body.click_count).toBe(1234);
  });
});

describe('GET /links', () => {
  test('lists live links newest first with page 1 and per_page 20 by default', async () => {
    const account = await createAccount(server);
    const created = [];
    for (let i = 0; i < 25; i++) created.push(await createLink(account, { title: `L${i}`, destination_url: `https://example.com/${i}` }));
    const newestFirst = ids(created).reverse();

    const response = await account.call('GET', '/links');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, per_page: 20, total: 25 });
    expect(ids(response.body.links)).toEqual(newestFirst.slice(0, 20));

    const second = await account.call('GET', '/links?page=2');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ page: 2, per_page: 20, total: 25 });
    expect(ids(second.body.links)).toEqual(newestFirst.slice(20));

    const beyond = await account.call('GET', '/links?page=3');
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({ page: 3, per_page: 20, total: 25, links: [] });
  });

  test('pages by per_page and echoes page and per_page', async () => {
    const account = await createAccount(server);
    const created = [];
    for (let i = 0; i < 7; i++) created.push(await createLink(account, { destination_url: `https://example.com/p${i}` }));
    const newestFirst = ids(created).reverse();
    const response = await account.call('GET', '/links?page=2&per_page=3');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 2, per_page: 3, total: 7 });
    expect(ids(response.body.links)).toEqual(newestFirst.slice(3, 6));
    const last = await account.call('GET', '/links?page=3&per_page=3');
    expect(ids(last.body.links)).toEqual(newestFirst.slice(6));
  });

  test('accepts per_page at its bounds, 1 and 100', async () => {
    const account = await createAccount(server);
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createLink(account, { destination_url: `https://example.com/b${i}` }));
    const one = await account.call('GET', '/links?per_page=1');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ per_page: 1, total: 3 });
    expect(ids(one.body.links)).toEqual([created[2].id]);
    const hundred = await account.call('GET', '/links?per_page=100');
    expect(hundred.status).toBe(200);
    expect(hundred.body).toMatchObject({ per_page: 100, total: 3 });
    expect(ids(hundred.body.links)).toEqual(ids(created).reverse());
  });

  test.each([
    ['per_page', '0'],
    ['per_page', '101'],
    ['per_page', '-1'],
    ['per_page', 'abc'],
    ['per_page', '1.5'],
    ['page', '0'],
    ['page', '-1'],
    ['page', 'abc'],
    ['page', '2.5'],
  ])('422 VALIDATION_ERROR naming %s when it is "%s"', async (field, value) => {
    const response = await alice.call('GET', `/links?${field}=${encodeURIComponent(value)}`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(typeof response.body.message).toBe('string');
  });

  test('a page past the last one is empty but still reports the total', async () => {
    const account = await createAccount(server);
    await createLink(account);
    const response = await account.call('GET', '/links?page=100000');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ links: [], page: 100000, per_page: 20, total: 1 });
  });

  test("total counts only the account's live links; deleted and other accounts' links are not listed", async () => {
    const account = await createAccount(server);
    const other = await createAccount(server);
    await createLink(other, { destination_url: 'https://example.com/other' });
    const a = await createLink(account, { destination_url: 'https://example.com/a' });
    const b = await createLink(account, { destination_url: 'https://example.com/b' });
    const c = await createLink(account, { destination_url: 'https://example.com/c' });
    expect((await account.call('DELETE', `/links/${b.id}`)).status).toBe(204);

    const response = await account.call('GET', '/links');
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(2);
    expect(ids(response.body.links)).toEqual([c.id, a.id]);

    const onePerPage = await account.call('GET', '/links?per_page=1');
    expect(onePerPage.body.total).toBe(2);
    expect(onePerPage.body.links).toHaveLength(1);
  });

  test('an account without links gets an empty page with total 0', async () => {
    const account = await createAccount(server);
    const response = await account.call('GET', '/links');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ links: [], page: 1, per_page: 20, total: 0 });
  });

  describe('tag_ids filter', () => {
    let account: TestAccount;
    let tagA: { id: string };
    let tagB: { id: string };
    let tagC: { id: string };
    let onlyA: { id: string };
    let onlyB: { id: string };
    let both: { id: string };
    let onlyC: { id: string };

    beforeAll(async () => {
      account = await createAccount(server);
      tagA = await createTag(account, 'A-tag');
      tagB = await createTag(account, 'B-tag');
      tagC = await createTag(account, 'C-tag');
      onlyA = await createLink(account, { destination_url: 'https://example.com/a', tag_ids: [tagA.id] });
      onlyB = await createLink(account, { destination_url: 'https://example.com/b', tag_ids: [tagB.id] });
      both = await createLink(account, { destination_url: 'https://example.com/ab', tag_ids: [tagA.id, tagB.id] });
      onlyC = await createLink(account, { destination_url: 'https://example.com/c', tag_ids: [tagC.id] });
      await createLink(account, { destination_url: 'https://example.com/none' });
    });

    test('one tag id returns only the links carrying it, newest first, and total counts them', async () => {
      const response = await account.call('GET', `/links?tag_ids=${tagA.id}`);
      expect(response.status).toBe(200);
      expect(ids(response.body.links)).toEqual([both.id, onlyA.id]);
      expect(response.body.total).toBe(2);
    });

    test('several comma-separated tag ids return links carrying any of them, each link once', async () => {
      const response = await account.call('GET', `/links?tag_ids=${tagA.id},${tagB.id}`);
      expect(response.status).toBe(200);
      expect(ids(response.body.links)).toEqual([both.id, onlyB.id, onlyA.id]);
      expect(response.body.total).toBe(3);
    });

    test('total counts all matching links, not just the page', async () => {
      const response = await account.call('GET', `/links?tag_ids=${tagA.id},${tagB.id},${tagC.id}&per_page=2`);
      expect(response.status).toBe(200);
      expect(ids(response.body.links)).toEqual([onlyC.id, both.id]);
      expect(response.body.total).toBe(4);
    });

    test('deleted links carrying the tag are neither listed nor counted', async () => {
      const local = await createAccount(server);
      const tag = await createTag(local, 'live-only');
      const kept = await createLink(local, { destination_url: 'https://example.com/k', tag_ids: [tag.id] });
      const gone = await createLink(local, { destination_url: 'https://example.com/g', tag_ids: [tag.id] });
      expect((await local.call('DELETE', `/links/${gone.id}`)).status).toBe(204);
      const response = await local.call('GET', `/links?tag_ids=${tag.id}`);
      expect(response.status).toBe(200);
      expect(ids(response.body.links)).toEqual([kept.id]);
      expect(response.body.total).toBe(1);
    });

    test('a tag id repeated in the filter does not repeat or double-count links', async () => {
      const response = await account.call('GET', `/links?tag_ids=${tagA.id},${tagA.id},${tagA.id}`);
      expect(response.status).toBe(200);
      expect(ids(response.body.links)).toEqual([both.id, onlyA.id]);
      expect(response.body.total).toBe(2);
    });

    test('accepts 20 tag ids', async () => {
      const local = await createAccount(server);
      const tags = [];
      for (let i = 0; i < 20; i++) tags.push(await createTag(local, `t${i}`));
      const tagged = await createLink(local, { tag_ids: [tags[19]!.id] });
      const response = await local.call('GET', `/links?tag_ids=${tags.map((tag) => tag.id).join(',')}`);
      expect(response.status).toBe(200);
      expect(ids(response.body.links)).toEqual([tagged.id]);
      expect(response.body.total).toBe(1);
    });

    test('422 VALIDATION_ERROR naming tag_ids for more than 20 tag ids', async () => {
      const local = await createAccount(server);
      const tags = [];
      for (let i = 0; i < 21; i++) tags.push(await createTag(local, `t${i}`));
      const response = await local.call('GET', `/links?tag_ids=${tags.map((tag) => tag.id).join(',')}`);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'tag_ids' });
    });
  });

  test('link_limit is the plan limit as a number', async () => {
    const limited = await createAccount(server, { link_limit: 7 });
    const response = await limited.call('GET', '/links');
    expect(response.status).toBe(200);
    expect(response.body.link_limit).toBe(7);
    const starter = await createAccount(server, { plan: 'starter' });
    const starterList = await starter.call('GET', '/links');
    expect(typeof starterList.body.link_limit).toBe('number');
    expect(starterList.body.link_limit).toBeGreaterThan(0);
  });

  test("link_limit is null for the 'unlimited' plan", async () => {
    const unlimited = await createAccount(server, { plan: 'unlimited' });
    const response = await unlimited.call('GET', '/links');
    expect(response.status).toBe(200);
    expect(response.body).toHaveProperty('link_limit', null);
  });

  test('list items carry the same fields as GET /links/{id}: tags sorted by name, unset fields omitted', async () => {
    const account = await createAccount(server);
    const full = await createLink(account, {
      title: 'Full',
      destination_url: 'https://example.com/full',
      comments: 'notes',
      expires_at: inDays(3),
      expiration_url: 'https://example.com/after',
      external_id: 'full-1',
      tag_names: ['zulu', 'mike', 'Alpha'],
    });
    const bare = await createLink(account, { title: 'Bare', destination_url: 'https://example.com/bare' });
    await server.orm.em.fork().getConnection().execute(`update link set click_count = 9 where id = '${full.id}'`);

    const response = await account.call('GET', '/links');
    expect(response.status).toBe(200);
    const [first, second] = response.body.links;
    expect(first).toEqual((await account.call('GET', `/links/${bare.id}`)).body);
    expect(second).toEqual((await account.call('GET', `/links/${full.id}`)).body);
    for (const absent of OPTIONAL_FIELDS) expect(first).not.toHaveProperty(absent);
    expect(second).toMatchObject({
      comments: 'notes',
      expires_at: full.expires_at,
      expiration_url: 'https://example.com/after',
      external_id: 'full-1',
      click_count: 9,
    });
    expect(second.tags.map((tag: { name: string }) => tag.name)).toEqual(['Alpha', 'mike', 'zulu']);
    expect(first.tags).toEqual([]);
  });
});
