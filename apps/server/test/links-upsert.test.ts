import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, getLink, inDays, startTestServer, type TestAccount, type TestServer, tagNames } from './harness.ts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

let counter = 0;
/** A destination no other test uses. */
const uniqueDestination = () => {
  counter += 1;
  return `https://example.com/upsert/${counter}`;
};

/** Upserts a link that must be new, and returns it as GET shows it. */
async function upsertNew(account: TestAccount, body: Record<string, unknown>) {
  const response = await account.call('POST', '/links/upsert', { title: 'Upserted', ...body });
  expect(response.status).toBe(201);
  expect(response.body.created).toBe(true);
  return getLink(account, response.body.id);
}

async function setClickCount(id: string, clicks: number) {
  await server.orm.em.fork().getConnection().execute(`update link set click_count = ${clicks} where id = '${id}'`);
}

const linksOf = (account: TestAccount) => countRows(server, 'link', `account_id = '${account.account.id}' and deleted_at is null`);

describe('POST /links/upsert: creating', () => {
  test('201 with the link object plus created: true for a destination not yet linked', async () => {
    const account = await createAccount(server);
    const response = await account.call('POST', '/links/upsert', {
      title: '  New upsert  ',
      destination_url: 'https://example.com/fresh',
      utm: { source: 'mail' },
      slug: 'upsert-fresh',
      tag_names: ['u'],
      comments: 'c',
      expires_at: inDays(3),
      expiration_url: 'https://example.com/after',
      external_id: 'up-1',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      created: true,
      title: 'New upsert',
      destination_url: 'https://example.com/fresh?utm_source=mail',
      slug: 'upsert-fresh',
      short_url: 'https://sho.rt/upsert-fresh',
      comments: 'c',
      expiration_url: 'https://example.com/after',
      external_id: 'up-1',
      click_count: 0,
    });
    expect(response.body.id).toMatch(/^lnk_/);
    expect(tagNames(response.body)).toEqual(['u']);
    const { created: _created, ...link } = response.body;
    const fetched = await getLink(account, response.body.id);
    expect(fetched).toEqual(link);
    expect(fetched).not.toHaveProperty('created');
    expect(await linksOf(account)).toBe(1);
  });

  test('a new link gets a random 6-character slug when none is sent', async () => {
    const response = await alice.call('POST', '/links/upsert', { title: 'x', destination_url: uniqueDestination() });
    expect(response.status).toBe(201);
    expect(response.body.slug).toMatch(/^[A-Za-z0-9]{6}$/);
  });

  test.each([
    ['title missing', { destination_url: 'https://example.com/v' }, 'title'],
    ['destination missing', { title: 'x' }, 'destination_url'],
    ['destination private', { title: 'x', destination_url: 'http://10.0.0.1/' }, 'destination_url'],
    ['destination flagged', { title: 'x', destination_url: 'https://flagged.example/' }, 'destination_url'],
    ['expires_at in the past', { title: 'x', destination_url: 'https://example.com/v', expires_at: Date.now() - 1000 }, 'expires_at'],
    [
      'expiration_url without expires_at',
      { title: 'x', destination_url: 'https://example.com/v', expiration_url: 'https://example.com/e' },
      'expiration_url',
    ],
    ['unknown field', { title: 'x', destination_url: 'https://example.com/v', titel: 'typo' }, 'titel'],
  ])('422 VALIDATION_ERROR when %s, and nothing is saved', async (_why, body, field) => {
    const account = await createAccount(server);
    const response = await account.call('POST', '/links/upsert', body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(await linksOf(account)).toBe(0);
  });

  test('SLUG_TAKEN when a new link would take a slug in use', async () => {
    const account = await createAccount(server);
    await upsertNew(account, { destination_url: uniqueDestination(), slug: 'upsert-taken' });
    const response = await account.call('POST', '/links/upsert', {
      title: 'x',
      destination_url: uniqueDestination(),
      slug: 'upsert-taken',
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'SLUG_TAKEN' });
    expect(await linksOf(account)).toBe(1);
  });

  test('400 INVALID_JSON for a malformed body', async () => {
    const response = await alice.call('POST', '/links/upsert', '{"title":');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'INVALID_JSON' });
  });
});

describe('POST /links/upsert: matching by final destination', () => {
  test('200 with the existing link, created: false and its current click_count for the same destination_url and utm', async () => {
    const account = await createAccount(server);
    const body = { title: 'Same', destination_url: 'https://example.com/same?x=1', utm: { source: 'news', campaign: 'spring' } };
    const first = await account.call('POST', '/links/upsert', body);
    expect(first.status).toBe(201);
    await setClickCount(first.body.id, 42);

    const second = await account.call('POST', '/links/upsert', body);
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(false);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.click_count).toBe(42);
    const { created: _first, ...firstLink } = first.body;
    const { created: _second, ...secondLink } = second.body;
    expect(secondLink).toEqual({ ...firstLink, click_count: 42 });
    expect(await linksOf(account)).toBe(1);
  });

  test('concurrent upserts of one new destination create exactly one link', async () => {
    const account = await createAccount(server);
    const body = { title: 'Race', destination_url: 'https://example.com/race', utm: { campaign: 'r' } };
    const responses = await Promise.all(Array.from({ length: 6 }, () => account.call('POST', '/links/upsert', body)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(responses.filter((response) => response.body.created === true)).toHaveLength(1);
    expect(await linksOf(account)).toBe(1);
  });

  test('when several live links share the destination (made by POST /links), upsert matches one and creates nothing', async () => {
    const account = await createAccount(server);
    const one = await account.call('POST', '/links', { title: 'One', destination_url: 'https://example.com/dupe' });
    const two = await account.call('POST', '/links', { title: 'Two', destination_url: 'https://example.com/dupe' });
    const response = await account.call('POST', '/links/upsert', { title: 'Matched', destination_url: 'https://example.com/dupe' });
    expect(response.status).toBe(200);
    expect(response.body.created).toBe(false);
    expect([one.body.id, two.body.id]).toContain(response.body.id);
    expect(await linksOf(account)).toBe(2);
  });

  test('matches a link made by POST /links', async () => {
    const account = await createAccount(server);
    const made = await account.call('POST', '/links', { title: 'Made', destination_url: 'https://example.com/made' });
    const response = await account.call('POST', '/links/upsert', { title: 'Made', destination_url: 'https://example.com/made' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: made.body.id, created: false });
  });

  test('matches when the same final destination is reached through utm or written out in the URL', async () => {
    const account = await createAccount(server);
    const viaUtm = await upsertNew(account, { destination_url: 'https://example.com/final', utm: { source: 'a', campaign: 'b' } });
    expect(viaUtm.destination_url).toBe('https://example.com/final?utm_source=a&utm_campaign=b');
    const response = await account.call('POST', '/links/upsert', {
      title: 'Written out',
      destination_url: 'https://example.com/final?utm_source=a&utm_campaign=b',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: viaUtm.id, created: false });
  });

  test('a different utm_campaign gives a different link', async () => {
    const account = await createAccount(server);
    const spring = await account.call('POST', '/links/upsert', {
      title: 'Spring',
      destination_url: 'https://example.com/campaign',
      utm: { source: 'news', campaign: 'spring' },
    });
    const fall = await account.call('POST', '/links/upsert', {
      title: 'Fall',
      destination_url: 'https://example.com/campaign',
      utm: { source: 'news', campaign: 'fall' },
    });
    expect(spring.status).toBe(201);
    expect(fall.status).toBe(201);
    expect(fall.body.created).toBe(true);
    expect(fall.body.id).not.toBe(spring.body.id);
    expect(await linksOf(account)).toBe(2);
  });

  test('the same destination without utm gives a different link from one with utm', async () => {
    const account = await createAccount(server);
    await upsertNew(account, { destination_url: 'https://example.com/plain', utm: { source: 'x' } });
    const response = await account.call('POST', '/links/upsert', { title: 'Plain', destination_url: 'https://example.com/plain' });
    expect(response.status).toBe(201);
    expect(response.body.created).toBe(true);
    expect(await linksOf(account)).toBe(2);
  });

  test('a destination that differs only in path case is a different link', async () => {
    const account = await createAccount(server);
    await upsertNew(account, { destination_url: 'https://example.com/Path' });
    const response = await account.call('POST', '/links/upsert', { title: 'x', destination_url: 'https://example.com/path' });
    expect(response.status).toBe(201);
    expect(response.body.created).toBe(true);
  });

  test('a deleted link is not matched: a new link is created', async () => {
    const account = await createAccount(server);
    const old = await upsertNew(account, { destination_url: 'https://example.com/deleted' });
    expect((await account.call('DELETE', `/links/${old.id}`)).status).toBe(204);
    const response = await account.call('POST', '/links/upsert', { title: 'Again', destination_url: 'https://example.com/deleted' });
    expect(response.status).toBe(201);
    expect(response.body.created).toBe(true);
    expect(response.body.id).not.toBe(old.id);
    expect(response.body.click_count).toBe(0);
  });

  test("another account's link with the same destination is not matched", async () => {
    const owner = await createAccount(server);
    const other = await createAccount(server);
    const theirs = await upsertNew(owner, { destination_url: 'https://example.com/shared-dest' });
    const response = await other.call('POST', '/links/upsert', { title: 'Mine', destination_url: 'https://example.com/shared-dest' });
    expect(response.status).toBe(201);
    expect(response.body.id).not.toBe(theirs.id);
    expect(await getLink(owner, theirs.id)).toEqual(theirs);
  });
});

describe('POST /links/upsert: updating the matched link', () => {
  test('the title replaces the stored title', async () => {
    const existing = await upsertNew(alice, { title: 'Old title', destination_url: uniqueDestination() });
    const response = await alice.call('POST', '/links/upsert', { title: '  New title  ', destination_url: existing.destination_url });
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('New title');
    expect((await getLink(alice, existing.id)).title).toBe('New title');
  });

  test('omitted optional fields stay unchanged', async () => {
    const existing = await upsertNew(alice, {
      destination_url: uniqueDestination(),
      external_id: 'keep-me',
      tag_names: ['kept'],
      comments: 'kept notes',
      expires_at: inDays(9),
      expiration_url: 'https://example.com/kept-fallback',
    });
    const response = await alice.call('POST', '/links/upsert', { title: 'Upserted', destination_url: existing.destination_url });
    expect(response.status).toBe(200);
    const { created: _created, ...link } = response.body;
    expect(link).toEqual(existing);
    expect(await getLink(alice, existing.id)).toEqual(existing);
  });

  test('external_id, when sent, is set on a link that had none', async () => {
    const existing = await upsertNew(alice, { destination_url: uniqueDestination() });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      external_id: '  set-by-upsert  ',
    });
    expect(response.status).toBe(200);
    expect(response.body.external_id).toBe('set-by-upsert');
    expect((await alice.call('GET', '/links/ext_set-by-upsert')).body.id).toBe(existing.id);
  });

  test('external_id, when sent, replaces the stored one, which becomes free', async () => {
    const existing = await upsertNew(alice, { destination_url: uniqueDestination(), external_id: 'first-ext' });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      external_id: 'second-ext',
    });
    expect(response.status).toBe(200);
    expect(response.body.external_id).toBe('second-ext');
    expect((await alice.call('GET', '/links/ext_second-ext')).body.id).toBe(existing.id);
    expect((await alice.call('GET', '/links/ext_first-ext')).status).toBe(404);
  });

  test('resending the link’s own external_id is not a conflict', async () => {
    const existing = await upsertNew(alice, { destination_url: uniqueDestination(), external_id: 'own-ext' });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      external_id: 'own-ext',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: existing.id, external_id: 'own-ext', created: false });
  });

  test('tag_names replace the full tag set; [] removes all tags', async () => {
    const account = await createAccount(server);
    const existing = await upsertNew(account, { destination_url: 'https://example.com/tags', tag_names: ['a', 'b'] });
    const replaced = await account.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      tag_names: ['c'],
    });
    expect(replaced.status).toBe(200);
    expect(tagNames(replaced.body)).toEqual(['c']);
    const tags = (await account.call('GET', '/tags')).body.tags as { name: string; link_count: number }[];
    expect(tags.find((tag) => tag.name === 'a')?.link_count).toBe(0);
    expect(tags.find((tag) => tag.name === 'c')?.link_count).toBe(1);

    const cleared = await account.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      tag_ids: [],
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.tags).toEqual([]);
    expect((await getLink(account, existing.id)).tags).toEqual([]);
  });

  test('tag_ids replace the full tag set', async () => {
    const account = await createAccount(server);
    const tag = await account.call('POST', '/tags', { name: 'by-id' });
    const existing = await upsertNew(account, { destination_url: 'https://example.com/tag-ids', tag_names: ['old'] });
    const response = await account.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      tag_ids: [tag.body.id],
    });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([{ id: tag.body.id, name: 'by-id', color: tag.body.color }]);
  });

  test('comments are replaced when sent and cleared by null or an empty string', async () => {
    const existing = await upsertNew(alice, { destination_url: uniqueDestination(), comments: 'first' });
    const replaced = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      comments: 'second',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.comments).toBe('second');
    for (const cleared of [null, '']) {
      await alice.call('POST', '/links/upsert', { title: 'Upserted', destination_url: existing.destination_url, comments: 'again' });
      const response = await alice.call('POST', '/links/upsert', {
        title: 'Upserted',
        destination_url: existing.destination_url,
        comments: cleared,
      });
      expect(response.status).toBe(200);
      expect(response.body).not.toHaveProperty('comments');
      expect(await getLink(alice, existing.id)).not.toHaveProperty('comments');
    }
  });

  test('expires_at sets a new expiry; null removes the expiry and the fallback', async () => {
    const existing = await upsertNew(alice, {
      destination_url: uniqueDestination(),
      expires_at: inDays(5),
      expiration_url: 'https://example.com/fb',
    });
    const later = inDays(50);
    const moved = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      expires_at: later,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ expires_at: later, expiration_url: 'https://example.com/fb' });

    const removed = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      expires_at: null,
    });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('expires_at');
    expect(removed.body).not.toHaveProperty('expiration_url');
    const fetched = await getLink(alice, existing.id);
    expect(fetched).not.toHaveProperty('expires_at');
    expect(fetched).not.toHaveProperty('expiration_url');
  });

  test('expiration_url sets the fallback on a link with an expiry; null removes only the fallback', async () => {
    const expiresAt = inDays(5);
    const existing = await upsertNew(alice, { destination_url: uniqueDestination(), expires_at: expiresAt });
    const set = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      expiration_url: 'https://example.com/new-fb',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ expires_at: expiresAt, expiration_url: 'https://example.com/new-fb' });

    const removed = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      expiration_url: null,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.expires_at).toBe(expiresAt);
    expect(removed.body).not.toHaveProperty('expiration_url');
  });

  test('422 naming expiration_url when the matched link has no expiry and none is sent; the link is unchanged', async () => {
    const existing = await upsertNew(alice, { title: 'Kept', destination_url: uniqueDestination() });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'Changed',
      destination_url: existing.destination_url,
      expiration_url: 'https://example.com/fb',
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'expiration_url' });
    expect(await getLink(alice, existing.id)).toEqual(existing);
  });

  test('slug is ignored on a match: the stored slug stays and the sent slug is not taken', async () => {
    const existing = await upsertNew(alice, { destination_url: uniqueDestination(), slug: 'upsert-original' });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      slug: 'upsert-ignored',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: existing.id, slug: 'upsert-original', short_url: 'https://sho.rt/upsert-original' });
    expect((await getLink(alice, existing.id)).slug).toBe('upsert-original');
    const free = await alice.call('POST', '/links', { title: 'x', destination_url: uniqueDestination(), slug: 'upsert-ignored' });
    expect(free.status).toBe(201);
  });

  test('slug is ignored on a match even when another link uses it: no SLUG_TAKEN', async () => {
    const existing = await upsertNew(alice, { destination_url: uniqueDestination(), slug: 'upsert-kept-2' });
    await upsertNew(alice, { destination_url: uniqueDestination(), slug: 'upsert-busy' });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'Upserted',
      destination_url: existing.destination_url,
      slug: 'upsert-busy',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: existing.id, created: false, slug: 'upsert-kept-2' });
  });

  test('404 TAG_NOT_FOUND on a match leaves the link unchanged', async () => {
    const existing = await upsertNew(alice, { title: 'Before', destination_url: uniqueDestination(), tag_names: ['orig-tag'] });
    const response = await alice.call('POST', '/links/upsert', {
      title: 'After',
      destination_url: existing.destination_url,
      tag_ids: ['tag_nonexistent'],
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'TAG_NOT_FOUND' });
    expect(await getLink(alice, existing.id)).toEqual(existing);
  });

  test('403 PLAN_LIMIT_REACHED on a match when tag_names would pass the tag limit; nothing is saved', async () => {
    const account = await createAccount(server, { tag_limit: 1 });
    const existing = await upsertNew(account, { title: 'Before', destination_url: 'https://example.com/pl', tag_names: ['only'] });
    const response = await account.call('POST', '/links/upsert', {
      title: 'After',
      destination_url: existing.destination_url,
      tag_names: ['only', 'second'],
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED' });
    expect(await getLink(account, existing.id)).toEqual(existing);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
  });
});

describe('POST /links/upsert: link limit', () => {
  test('LINK_LIMIT_REACHED only when a new link would be created; an existing destination still upserts with 200', async () => {
    const account = await createAccount(server, { link_limit: 1 });
    const existing = await upsertNew(account, { destination_url: 'https://example.com/limit' });

    const again = await account.call('POST', '/links/upsert', { title: 'Renamed', destination_url: 'https://example.com/limit' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: existing.id, created: false, title: 'Renamed' });

    const fresh = await account.call('POST', '/links/upsert', { title: 'x', destination_url: 'https://example.com/limit-2' });
    expect(fresh.status).toBe(403);
    expect(fresh.body).toMatchObject({ code: 'LINK_LIMIT_REACHED' });
    expect(await linksOf(account)).toBe(1);
  });

  test('a deleted link frees its place for an upsert', async () => {
    const account = await createAccount(server, { link_limit: 1 });
    const existing = await upsertNew(account, { destination_url: 'https://example.com/lim-a' });
    expect((await account.call('DELETE', `/links/${existing.id}`)).status).toBe(204);
    const response = await account.call('POST', '/links/upsert', { title: 'x', destination_url: 'https://example.com/lim-b' });
    expect(response.status).toBe(201);
  });
});

describe('POST /links/upsert: EXTERNAL_ID_TAKEN', () => {
  test('409 when the sent external_id belongs to another live link on a match; both links unchanged', async () => {
    const account = await createAccount(server);
    const owner = await upsertNew(account, { destination_url: 'https://example.com/owner', external_id: 'taken-ext' });
    const target = await upsertNew(account, { title: 'Target', destination_url: 'https://example.com/target' });
    const response = await account.call('POST', '/links/upsert', {
      title: 'Changed',
      destination_url: 'https://example.com/target',
      external_id: 'taken-ext',
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'EXTERNAL_ID_TAKEN' });
    expect(await getLink(account, target.id)).toEqual(target);
    expect(await getLink(account, owner.id)).toEqual(owner);
  });

  test('409 when a new link would take an external_id of another live link; nothing is created', async () => {
    const account = await createAccount(server);
    await upsertNew(account, { destination_url: 'https://example.com/holder', external_id: 'held-ext' });
    const response = await account.call('POST', '/links/upsert', {
      title: 'x',
      destination_url: 'https://example.com/newcomer',
      external_id: 'held-ext',
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'EXTERNAL_ID_TAKEN' });
    expect(await linksOf(account)).toBe(1);
  });

  test('the external_id of a deleted link can be set by upsert', async () => {
    const account = await createAccount(server);
    const old = await upsertNew(account, { destination_url: 'https://example.com/old-holder', external_id: 'recycled' });
    expect((await account.call('DELETE', `/links/${old.id}`)).status).toBe(204);
    const existing = await upsertNew(account, { destination_url: 'https://example.com/new-holder' });
    const response = await account.call('POST', '/links/upsert', {
      title: 'x',
      destination_url: 'https://example.com/new-holder',
      external_id: 'recycled',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: existing.id, external_id: 'recycled' });
  });

  test("another account's external_id is no conflict", async () => {
    const one = await createAccount(server);
    const two = await createAccount(server);
    await upsertNew(one, { destination_url: 'https://example.com/one', external_id: 'cross-ext' });
    const response = await two.call('POST', '/links/upsert', {
      title: 'x',
      destination_url: 'https://example.com/two',
      external_id: 'cross-ext',
    });
    expect(response.status).toBe(201);
  });
});
