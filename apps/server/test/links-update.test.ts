import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  countRows,
  createAccount,
  createLink,
  getLink,
  inDays,
  startTestServer,
  type TestAccount,
  type TestServer,
  tagNames,
} from './harness.ts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

let counter = 0;

/** A link with every optional field set, including two tags. */
async function createFullLink(account: TestAccount) {
  counter += 1;
  return createLink(account, {
    title: 'Original',
    destination_url: `https://example.com/original/${counter}?utm_source=first`,
    comments: 'original notes',
    expires_at: inDays(30),
    expiration_url: 'https://example.com/expired',
    external_id: `full-${counter}`,
    tag_names: ['one', 'two'],
  });
}

async function tagLinkCount(account: TestAccount, name: string): Promise<number | undefined> {
  const response = await account.call('GET', '/tags');
  return response.body.tags.find((tag: { name: string; link_count: number }) => tag.name === name)?.link_count;
}

describe('PATCH /links/{id}: only the fields sent change', () => {
  test('a title-only PATCH returns 200 with the link, changing nothing else', async () => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { title: '  Renamed  ' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, title: 'Renamed' });
    expect(await getLink(alice, before.id)).toEqual(response.body);
  });

  test('an empty body changes nothing', async () => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual(before);
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('several fields sent together all change, and id, slug, short_url, external_id, created_at and click_count stay', async () => {
    const before = await createFullLink(alice);
    const expiresAt = inDays(60);
    const response = await alice.call('PATCH', `/links/${before.id}`, {
      title: 'All new',
      destination_url: 'https://example.org/new',
      comments: 'new notes',
      expires_at: expiresAt,
      expiration_url: 'https://example.org/fallback',
      tag_names: ['three'],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...before,
      title: 'All new',
      destination_url: 'https://example.org/new',
      comments: 'new notes',
      expires_at: expiresAt,
      expiration_url: 'https://example.org/fallback',
      tags: [expect.objectContaining({ name: 'three' })],
    });
    expect(await getLink(alice, before.id)).toEqual(response.body);
  });
});

describe('PATCH title', () => {
  test('accepts a title of exactly 200 characters', async () => {
    const link = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${link.id}`, { title: 't'.repeat(200) });
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('t'.repeat(200));
  });

  test.each([
    ['blank', '   '],
    ['empty', ''],
    ['too long', 'x'.repeat(201)],
    ['null', null],
    ['not a string', 42],
  ])('422 VALIDATION_ERROR naming title when it is %s, and the link is unchanged', async (_why, title) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { title });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'title' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });
});

describe('PATCH destination_url and utm', () => {
  test('replaces the whole destination URL, dropping the utm merged before', async () => {
    const before = await createLink(alice, { destination_url: 'https://example.com/old', utm: { source: 'news', campaign: 'spring' } });
    expect(before.destination_url).toBe('https://example.com/old?utm_source=news&utm_campaign=spring');
    const response = await alice.call('PATCH', `/links/${before.id}`, { destination_url: 'https://example.org/replaced?x=1' });
    expect(response.status).toBe(200);
    expect(response.body.destination_url).toBe('https://example.org/replaced?x=1');
    expect((await getLink(alice, before.id)).destination_url).toBe('https://example.org/replaced?x=1');
  });

  test('merges utm into the new destination when both are sent, replacing parameters of the same name', async () => {
    const link = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${link.id}`, {
      destination_url: 'https://example.com/new?utm_source=old&x=1',
      utm: { source: 'mail', campaign: 'fall' },
    });
    expect(response.status).toBe(200);
    expect(response.body.destination_url).toBe('https://example.com/new?utm_source=mail&x=1&utm_campaign=fall');
  });

  test('utm sent without destination_url is ignored: 200 and the destination is unchanged', async () => {
    const before = await createLink(alice, { destination_url: 'https://example.com/keep?utm_source=a' });
    const response = await alice.call('PATCH', `/links/${before.id}`, { utm: { source: 'b', campaign: 'c' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(before);
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test.each([
    ['localhost', 'http://localhost/'],
    ['a private IPv4 address', 'http://10.0.0.5/admin'],
    ['a private 192.168 address', 'http://192.168.1.1/'],
    ['the IPv6 loopback', 'http://[::1]/'],
    ['the link-local metadata address', 'http://169.254.169.254/latest'],
    ['the short domain', 'https://sho.rt/abc'],
    ['a URL flagged by the reputation service', 'https://www.flagged.example/'],
    ['not http', 'ftp://example.com/'],
    ['relative', '/relative'],
    ['too long', `https://example.com/${'a'.repeat(2030)}`],
    ['null', null],
  ])('422 VALIDATION_ERROR naming destination_url when it is %s, and the link is unchanged', async (_why, destination) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { destination_url: destination });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'destination_url' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('422 naming destination_url when the final URL after the utm merge passes 2,048 characters', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, {
      destination_url: `https://example.com/${'a'.repeat(1990)}`,
      utm: { source: 's'.repeat(100) },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'destination_url' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('422 naming utm for an invalid utm sent with destination_url', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, {
      destination_url: 'https://example.com/ok',
      utm: { source: 'u'.repeat(201) },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'utm' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });
});

describe('PATCH tags', () => {
  test('tag_ids replaces the full tag set and updates the tags’ link counts', async () => {
    const account = await createAccount(server);
    const keep = await account.call('POST', '/tags', { name: 'keep' });
    const extra = await account.call('POST', '/tags', { name: 'extra' });
    const link = await createLink(account, { tag_names: ['old-a', 'old-b'] });
    expect(await tagLinkCount(account, 'old-a')).toBe(1);

    const response = await account.call('PATCH', `/links/${link.id}`, { tag_ids: [keep.body.id, extra.body.id] });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([
      { id: extra.body.id, name: 'extra', color: extra.body.color },
      { id: keep.body.id, name: 'keep', color: keep.body.color },
    ]);
    expect(tagNames(await getLink(account, link.id))).toEqual(['extra', 'keep']);
    expect(await tagLinkCount(account, 'old-a')).toBe(0);
    expect(await tagLinkCount(account, 'old-b')).toBe(0);
    expect(await tagLinkCount(account, 'keep')).toBe(1);
  });

  test('tag_names replaces the full tag set, matching existing tags ignoring case and creating the rest', async () => {
    const account = await createAccount(server);
    const existing = await account.call('POST', '/tags', { name: 'Existing' });
    const link = await createLink(account, { tag_names: ['previous'] });
    const response = await account.call('PATCH', `/links/${link.id}`, { tag_names: ['EXISTING', 'brand-new'] });
    expect(response.status).toBe(200);
    expect(tagNames(response.body)).toEqual(['brand-new', 'Existing']);
    expect(response.body.tags.find((tag: { name: string }) => tag.name === 'Existing').id).toBe(existing.body.id);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(3);
    expect(await tagLinkCount(account, 'previous')).toBe(0);
  });

  test('tag_names differing only in case name one tag, created once', async () => {
    const account = await createAccount(server);
    const link = await createLink(account);
    const response = await account.call('PATCH', `/links/${link.id}`, { tag_names: ['Fresh', 'FRESH', 'fresh'] });
    expect(response.status).toBe(200);
    expect(response.body.tags).toHaveLength(1);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
    expect(await countRows(server, 'link_tag', `link_id = '${link.id}'`)).toBe(1);
  });

  test('a tag sent both by id and by name is attached once', async () => {
    const account = await createAccount(server);
    const tag = await account.call('POST', '/tags', { name: 'Twice' });
    const link = await createLink(account);
    const response = await account.call('PATCH', `/links/${link.id}`, { tag_ids: [tag.body.id], tag_names: ['twice'] });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([{ id: tag.body.id, name: 'Twice', color: tag.body.color }]);
    expect(await tagLinkCount(account, 'Twice')).toBe(1);
  });

  test('tag_ids and tag_names sent together make up the new set', async () => {
    const account = await createAccount(server);
    const byId = await account.call('POST', '/tags', { name: 'by-id' });
    const link = await createLink(account, { tag_names: ['gone'] });
    const response = await account.call('PATCH', `/links/${link.id}`, { tag_ids: [byId.body.id], tag_names: ['by-name'] });
    expect(response.status).toBe(200);
    expect(tagNames(response.body)).toEqual(['by-id', 'by-name']);
  });

  test.each([['tag_ids'], ['tag_names']])('%s: [] removes all tags', async (field) => {
    const account = await createAccount(server);
    const link = await createLink(account, { tag_names: ['x', 'y'] });
    const response = await account.call('PATCH', `/links/${link.id}`, { [field]: [] });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([]);
    expect((await getLink(account, link.id)).tags).toEqual([]);
    expect(await countRows(server, 'link_tag', `link_id = '${link.id}'`)).toBe(0);
    expect(await tagLinkCount(account, 'x')).toBe(0);
  });

  test('omitting both tag fields leaves the tags unchanged', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { tag_names: ['stay', 'also'] });
    const response = await account.call('PATCH', `/links/${link.id}`, { title: 'Retitled', comments: 'c' });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual(link.tags);
    expect(await tagLinkCount(account, 'stay')).toBe(1);
  });

  test('422 VALIDATION_ERROR for more than 10 tags, and the tags are unchanged', async () => {
    const account = await createAccount(server);
    const before = await createLink(account, { tag_names: ['orig'] });
    const response = await account.call('PATCH', `/links/${before.id}`, { tag_names: Array.from({ length: 11 }, (_, i) => `t${i}`) });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'tag_names' });
    expect(await getLink(account, before.id)).toEqual(before);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
  });

  test("404 TAG_NOT_FOUND for another account's tag id; nothing is saved, not even tags from tag_names or other fields", async () => {
    const account = await createAccount(server);
    const other = await createAccount(server);
    const foreign = await other.call('POST', '/tags', { name: 'foreign' });
    const before = await createLink(account, { tag_names: ['mine'] });
    const response = await account.call('PATCH', `/links/${before.id}`, {
      title: 'Should not stick',
      tag_ids: [foreign.body.id],
      tag_names: ['would-be-created'],
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'TAG_NOT_FOUND' });
    expect(await getLink(account, before.id)).toEqual(before);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
    expect(await tagLinkCount(other, 'foreign')).toBe(0);
  });

  test('404 TAG_NOT_FOUND for an unknown tag id', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { tag_ids: ['tag_doesnotexist'] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'TAG_NOT_FOUND' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('403 PLAN_LIMIT_REACHED when tag_names would create more tags than the plan allows; nothing is saved', async () => {
    const account = await createAccount(server, { tag_limit: 2 });
    const before = await createLink(account, { tag_names: ['first'] });
    const response = await account.call('PATCH', `/links/${before.id}`, { title: 'Should not stick', tag_names: ['second', 'third'] });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED' });
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
    expect(await getLink(account, before.id)).toEqual(before);
  });

  test('concurrent PATCHes naming the same new tag create it once and attach it to both links', async () => {
    const account = await createAccount(server);
    const first = await createLink(account);
    const second = await createLink(account);
    const responses = await Promise.all(
      [first, second].map((link) => account.call('PATCH', `/links/${link.id}`, { tag_names: ['Simultaneous'] })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
    expect(responses[0]!.body.tags[0].id).toBe(responses[1]!.body.tags[0].id);
    expect(await tagLinkCount(account, 'Simultaneous')).toBe(2);
  });

  test('tag_names matching existing tags do not count toward the tag limit', async () => {
    const account = await createAccount(server, { tag_limit: 2 });
    const link = await createLink(account, { tag_names: ['first', 'second'] });
    const response = await account.call('PATCH', `/links/${link.id}`, { tag_names: ['SECOND'] });
    expect(response.status).toBe(200);
    expect(tagNames(response.body)).toEqual(['second']);
  });
});

describe('PATCH comments', () => {
  test('replaces the notes, trimmed, keeping line breaks and tabs', async () => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { comments: '  new\n\tnotes  ' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, comments: 'new\n\tnotes' });
  });

  test.each([
    ['null', null],
    ['an empty string', ''],
  ])('%s clears the notes; the field is then omitted', async (_why, comments) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { comments });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('comments');
    const after = await getLink(alice, before.id);
    expect(after).not.toHaveProperty('comments');
    const { comments: _dropped, ...rest } = before;
    expect(after).toEqual(rest);
  });

  test.each([
    ['too long', 'c'.repeat(2049)],
    ['with a control character', 'bell\u0007'],
  ])('422 naming comments when %s, and the notes are unchanged', async (_why, comments) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { comments });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'comments' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });
});

describe('PATCH expires_at and expiration_url', () => {
  test('sets a new future expiry, keeping the fallback', async () => {
    const before = await createFullLink(alice);
    const expiresAt = inDays(90);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expires_at: expiresAt });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, expires_at: expiresAt });
  });

  test('sets an expiry on a link that had none', async () => {
    const before = await createLink(alice);
    const expiresAt = inDays(2);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expires_at: expiresAt });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, expires_at: expiresAt });
  });

  test.each([
    ['in the past', Date.now() - 60_000],
    ['more than 10 years ahead', inDays(3660)],
    ['not a number', 'tomorrow'],
  ])('422 naming expires_at when it is %s, and the link is unchanged', async (_why, expiresAt) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expires_at: expiresAt });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'expires_at' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('expires_at null removes the expiry and the fallback', async () => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expires_at: null });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('expires_at');
    expect(response.body).not.toHaveProperty('expiration_url');
    const { expires_at: _e, expiration_url: _u, ...rest } = before;
    expect(await getLink(alice, before.id)).toEqual(rest);
  });

  test('expiration_url sets the fallback on a link that has an expiry', async () => {
    const before = await createLink(alice, { expires_at: inDays(3) });
    const response = await alice.call('PATCH', `/links/${before.id}`, { expiration_url: 'https://example.com/after' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, expiration_url: 'https://example.com/after' });
  });

  test('expiration_url replaces an existing fallback', async () => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expiration_url: 'https://example.org/other' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, expiration_url: 'https://example.org/other' });
  });

  test('expiration_url together with a new expires_at is accepted on a link without an expiry', async () => {
    const before = await createLink(alice);
    const expiresAt = inDays(4);
    const response = await alice.call('PATCH', `/links/${before.id}`, {
      expires_at: expiresAt,
      expiration_url: 'https://example.com/after',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, expires_at: expiresAt, expiration_url: 'https://example.com/after' });
  });

  test.each([
    ['null', null],
    ['an empty string', ''],
  ])('expiration_url %s removes only the fallback; the expiry stays', async (_why, expirationUrl) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expiration_url: expirationUrl });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('expiration_url');
    expect(response.body.expires_at).toBe(before.expires_at);
    const { expiration_url: _u, ...rest } = before;
    expect(await getLink(alice, before.id)).toEqual(rest);
  });

  test('422 naming expiration_url when the link has no expiry', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expiration_url: 'https://example.com/after' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'expiration_url' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('422 when expiration_url is set in the same request that removes the expiry', async () => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, {
      expires_at: null,
      expiration_url: 'https://example.com/new-fallback',
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(['expiration_url', 'expires_at']).toContain(response.body.field);
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test.each([
    ['a private address', 'http://192.168.1.1/'],
    ['localhost', 'http://localhost/'],
    ['the short domain', 'https://sho.rt/x'],
    ['flagged by reputation', 'https://flagged.example/'],
    ['not http', 'mailto:someone@example.com'],
  ])('422 naming expiration_url when it is %s, and the link is unchanged', async (_why, expirationUrl) => {
    const before = await createFullLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { expiration_url: expirationUrl });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'expiration_url' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });
});

describe('PATCH fields that cannot change', () => {
  test('422 VALIDATION_ERROR naming slug when a new slug is sent; slug and other fields stay', async () => {
    const before = await createLink(alice, { slug: 'fixed-slug' });
    const response = await alice.call('PATCH', `/links/${before.id}`, { title: 'Should not stick', slug: 'another-slug' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'slug' });
    expect(await getLink(alice, before.id)).toEqual(before);
    const reuse = await alice.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/s', slug: 'another-slug' });
    expect(reuse.status).toBe(201);
  });

  test('422 VALIDATION_ERROR naming external_id when an external id is sent; the external id stays', async () => {
    const before = await createLink(alice, { external_id: 'immutable-ext' });
    const response = await alice.call('PATCH', `/links/${before.id}`, { title: 'Should not stick', external_id: 'changed-ext' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'external_id' });
    expect(await getLink(alice, before.id)).toEqual(before);
    expect((await alice.call('GET', '/links/ext_changed-ext')).status).toBe(404);
  });

  test('422 VALIDATION_ERROR naming external_id when a link without one is sent one', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { external_id: 'new-ext' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'external_id' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test('422 VALIDATION_ERROR naming an unknown field', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, { titel: 'typo' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'titel' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });
});

describe('PATCH errors', () => {
  test('404 LINK_NOT_FOUND for an unknown lnk_ id and an unknown external id', async () => {
    for (const path of ['/links/lnk_doesnotexist', '/links/ext_missing-ext']) {
      const response = await alice.call('PATCH', path, { title: 'x' });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test('404 LINK_NOT_FOUND for a deleted link, by lnk_ id and by external id', async () => {
    const link = await createLink(alice, { external_id: 'deleted-before-patch' });
    expect((await alice.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    for (const path of [`/links/${link.id}`, '/links/ext_deleted-before-patch']) {
      const response = await alice.call('PATCH', path, { title: 'x' });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
  });

  test("404 LINK_NOT_FOUND for another account's link, which stays unchanged", async () => {
    const bob = await createAccount(server);
    const before = await createLink(bob, { external_id: 'bobs-ext' });
    for (const path of [`/links/${before.id}`, '/links/ext_bobs-ext']) {
      const response = await alice.call('PATCH', path, { title: 'Hijacked' });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'LINK_NOT_FOUND' });
    }
    expect(await getLink(bob, before.id)).toEqual(before);
  });

  test('400 INVALID_JSON for a malformed body, and the link is unchanged', async () => {
    const before = await createLink(alice);
    const response = await alice.call('PATCH', `/links/${before.id}`, '{"title": "x",');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'INVALID_JSON' });
    expect(await getLink(alice, before.id)).toEqual(before);
  });

  test.each([
    ['slug', { slug: 'new-slug-x' }],
    ['external_id', { external_id: 'nope' }],
    ['destination_url private', { destination_url: 'http://10.1.2.3/' }],
    ['utm too long', { destination_url: 'https://example.com/z', utm: { term: 't'.repeat(201) } }],
    ['expires_at past', { expires_at: Date.now() - 1 }],
    ['expiration_url private', { expiration_url: 'http://127.0.0.1/' }],
    ['comments control character', { comments: 'a\u0000b' }],
    ['too many tags', { tag_names: Array.from({ length: 11 }, (_, i) => `n${i}`) }],
    ['unknown tag id', { tag_ids: ['tag_unknown'] }],
  ])('nothing changes when a PATCH fails (%s), even the valid fields sent with it', async (_why, invalid) => {
    const account = await createAccount(server);
    const before = await createFullLink(account);
    const tagsBefore = await countRows(server, 'tag', `account_id = '${account.account.id}'`);
    const response = await account.call('PATCH', `/links/${before.id}`, {
      title: 'Changed title',
      comments: 'changed comments',
      tag_names: ['changed-tag'],
      ...invalid,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await getLink(account, before.id)).toEqual(before);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(tagsBefore);
  });
});

describe('PATCH by external id', () => {
  test.each([
    ['a plain external id', 'patch-by-ext'],
    ['an external id with / ? % spaces and unicode', 'a/b?c=1 100% ünï'],
  ])('updates the link addressed by ext_ with %s, keeping its external id', async (_why, externalId) => {
    const before = await createLink(alice, { external_id: externalId });
    const response = await alice.call('PATCH', `/links/ext_${encodeURIComponent(externalId)}`, { title: 'Via ext' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, title: 'Via ext' });
    expect(await getLink(alice, before.id)).toEqual({ ...before, title: 'Via ext' });
  });
});

describe('PATCH and the link limit', () => {
  test('an account at its link limit can still update its links', async () => {
    const account = await createAccount(server, { link_limit: 1 });
    const link = await createLink(account);
    const blocked = await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/over' });
    expect(blocked.status).toBe(403);
    const response = await account.call('PATCH', `/links/${link.id}`, {
      title: 'Still editable',
      destination_url: 'https://example.com/moved',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: 'Still editable', destination_url: 'https://example.com/moved' });
  });
});

describe('PATCH /links/{id} with a body that is not a JSON object', () => {
  test.each([['null'], ['[]'], ['"title"'], ['42']])('%s gives 422 VALIDATION_ERROR with field body, and changes nothing', async (raw) => {
    const server = await startTestServer();
    try {
      const account = await createAccount(server);
      const link = await account.call('POST', '/links', { title: 'Kept', destination_url: 'https://example.com/kept' });
      const response = await account.call('PATCH', `/links/${link.body.id}`, raw);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'body' });
      expect((await account.call('GET', `/links/${link.body.id}`)).body).toEqual(link.body);
    } finally {
      await server.close();
    }
  });
});
