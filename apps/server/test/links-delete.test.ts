import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, createLink, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

/** The account's tag of that name as GET /tags shows it; a missing tag fails the test. */
async function tagNamed(account: TestAccount, name: string): Promise<{ id: string; link_count: number }> {
  const response = await account.call('GET', '/tags');
  expect(response.status).toBe(200);
  const tag = response.body.tags.find((candidate: { name: string }) => candidate.name === name);
  expect(tag).toBeDefined();
  return tag;
}

describe('DELETE /links/{id}', () => {
  test('204 with an empty body; the link then gives 404 LINK_NOT_FOUND by lnk_ id and by external id', async () => {
    const link = await createLink(alice, { external_id: 'to-delete' });
    const response = await alice.call('DELETE', `/links/${link.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    for (const path of [`/links/${link.id}`, '/links/ext_to-delete']) {
      const get = await alice.call('GET', path);
      expect(get.status).toBe(404);
      expect(get.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test('a deleted link is neither listed nor counted in total, and other links are untouched', async () => {
    const account = await createAccount(server);
    const kept = await createLink(account, { tag_names: ['shared'] });
    const deleted = await createLink(account, { tag_names: ['shared'] });
    const before = await account.call('GET', '/links');
    expect(before.body.total).toBe(2);

    expect((await account.call('DELETE', `/links/${deleted.id}`)).status).toBe(204);
    const after = await account.call('GET', '/links');
    expect(after.body.total).toBe(1);
    expect(after.body.links.map((link: { id: string }) => link.id)).toEqual([kept.id]);
    expect(after.body.links[0]).toEqual(kept);

    const tagId = kept.tags[0].id;
    const filtered = await account.call('GET', `/links?tag_ids=${tagId}`);
    expect(filtered.body.total).toBe(1);
    expect(filtered.body.links.map((link: { id: string }) => link.id)).toEqual([kept.id]);
  });

  test("detaches its tags: the tags' link_count drops, and the tags themselves remain", async () => {
    const account = await createAccount(server);
    await createLink(account, { tag_names: ['both'] });
    const link = await createLink(account, { tag_names: ['both', 'solo'] });
    expect((await tagNamed(account, 'both')).link_count).toBe(2);
    const soloBefore = await tagNamed(account, 'solo');
    expect(soloBefore.link_count).toBe(1);

    expect((await account.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    expect((await tagNamed(account, 'both')).link_count).toBe(1);
    const soloAfter = await tagNamed(account, 'solo');
    expect(soloAfter.link_count).toBe(0);
    expect(soloAfter.id).toBe(soloBefore.id);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(2);
  });

  test('its slug and external_id become reusable: a new link with both is created with 201', async () => {
    const account = await createAccount(server);
    const old = await createLink(account, { slug: 'reusable-slug', external_id: 'reusable-ext' });
    const blocked = await account.call('POST', '/links', {
      title: 'Too early',
      destination_url: 'https://example.com/new',
      slug: 'reusable-slug',
      external_id: 'reusable-ext',
    });
    expect(blocked.status).toBe(409);

    expect((await account.call('DELETE', `/links/${old.id}`)).status).toBe(204);
    const reused = await account.call('POST', '/links', {
      title: 'New',
      destination_url: 'https://example.com/new',
      slug: 'reusable-slug',
      external_id: 'reusable-ext',
    });
    expect(reused.status).toBe(201);
    expect(reused.body).toMatchObject({ slug: 'reusable-slug', external_id: 'reusable-ext', short_url: 'https://sho.rt/reusable-slug' });
    expect(reused.body.id).not.toBe(old.id);
    const byExt = await account.call('GET', '/links/ext_reusable-ext');
    expect(byExt.status).toBe(200);
    expect(byExt.body.id).toBe(reused.body.id);
  });

  test('its slug becomes reusable by another account (slugs are shared on the short domain)', async () => {
    const owner = await createAccount(server);
    const other = await createAccount(server);
    const old = await createLink(owner, { slug: 'cross-account-slug' });
    expect((await owner.call('DELETE', `/links/${old.id}`)).status).toBe(204);
    const reused = await other.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/x', slug: 'cross-account-slug' });
    expect(reused.status).toBe(201);
  });

  test('it no longer counts toward the link limit', async () => {
    const account = await createAccount(server, { link_limit: 1 });
    const link = await createLink(account);
    expect((await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/full' })).status).toBe(403);
    expect((await account.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    expect((await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/full' })).status).toBe(201);
  });

  test('an external id reused after several deletions addresses only the live link', async () => {
    const account = await createAccount(server);
    const first = await createLink(account, { external_id: 'cycled' });
    expect((await account.call('DELETE', '/links/ext_cycled')).status).toBe(204);
    const second = await createLink(account, { external_id: 'cycled' });
    expect((await account.call('DELETE', '/links/ext_cycled')).status).toBe(204);
    const third = await createLink(account, { external_id: 'cycled' });
    const response = await account.call('GET', '/links/ext_cycled');
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(third.id);
    expect((await account.call('GET', `/links/${first.id}`)).status).toBe(404);
    expect((await account.call('GET', `/links/${second.id}`)).status).toBe(404);
    expect((await account.call('DELETE', '/links/ext_cycled')).status).toBe(204);
    expect((await account.call('GET', '/links')).body.total).toBe(0);
  });

  test('concurrent DELETEs of one link: exactly one gives 204, the others 404', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { tag_names: ['raced'] });
    const responses = await Promise.all(Array.from({ length: 5 }, () => account.call('DELETE', `/links/${link.id}`)));
    expect(responses.map((response) => response.status).sort()).toEqual([204, 404, 404, 404, 404]);
    expect((await tagNamed(account, 'raced')).link_count).toBe(0);
  });

  test('a second DELETE gives 404 LINK_NOT_FOUND', async () => {
    const link = await createLink(alice, { external_id: 'twice' });
    expect((await alice.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    for (const path of [`/links/${link.id}`, '/links/ext_twice']) {
      const again = await alice.call('DELETE', path);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test('deletion is irreversible: the link cannot be updated afterwards', async () => {
    const link = await createLink(alice);
    expect((await alice.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    const patch = await alice.call('PATCH', `/links/${link.id}`, { title: 'Back?' });
    expect(patch.status).toBe(404);
    expect(patch.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
  });

  test.each([
    ['a plain external id', 'delete-by-ext'],
    ['an external id with / ? % spaces and unicode', 'x/y?z=1 50% ünï'],
  ])('deletes the link addressed by ext_ with %s', async (_why, externalId) => {
    const account = await createAccount(server);
    const link = await createLink(account, { external_id: externalId, tag_names: ['t'], expires_at: inDays(1) });
    const response = await account.call('DELETE', `/links/ext_${encodeURIComponent(externalId)}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await account.call('GET', `/links/${link.id}`)).status).toBe(404);
    expect((await account.call('GET', '/links')).body.total).toBe(0);
    expect((await tagNamed(account, 't')).link_count).toBe(0);
  });

  test('404 LINK_NOT_FOUND for an unknown lnk_ id and an unknown external id', async () => {
    for (const path of ['/links/lnk_doesnotexist', '/links/ext_never-existed']) {
      const response = await alice.call('DELETE', path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test("404 LINK_NOT_FOUND for another account's link, which stays live", async () => {
    const bob = await createAccount(server);
    const bobs = await createLink(bob, { external_id: 'bob-keeps' });
    for (const path of [`/links/${bobs.id}`, '/links/ext_bob-keeps']) {
      const response = await alice.call('DELETE', path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
    const still = await bob.call('GET', `/links/${bobs.id}`);
    expect(still.status).toBe(200);
    expect(still.body).toEqual(bobs);
  });
});

describe('DELETE with a JSON content type and no body', () => {
  test('is accepted (many clients send the header on every request)', async () => {
    const server = await startTestServer();
    try {
      const account = await createAccount(server);
      const link = await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/ct' });
      const response = await account.call('DELETE', `/links/${link.body.id}`, undefined, { 'content-type': 'application/json' });
      expect(response.status).toBe(204);
      const tag = await account.call('POST', '/tags', { name: 'ct' });
      expect((await account.call('DELETE', `/tags/${tag.body.id}`, undefined, { 'content-type': 'application/json' })).status).toBe(204);
      const get = await account.call('GET', '/links', undefined, { 'content-type': 'application/json' });
      expect(get.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('an empty body on POST is still invalid JSON', async () => {
    const server = await startTestServer();
    try {
      const account = await createAccount(server);
      const response = await account.call('POST', '/links', undefined, { 'content-type': 'application/json' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_JSON');
    } finally {
      await server.close();
    }
  });
});
