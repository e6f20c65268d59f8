import { createClient } from '@shortlinks/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, createLink, getLink, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Rules of the spec's link and tag sections, and of docs/api-decisions.md, that the other link
 * test files leave out: limits counted in characters, the longest external ids, expiry that has
 * passed, and the "not shown" decisions.
 */

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

describe('limits are counted in characters (code points), not UTF-16 units', () => {
  test('a title of 200 emoji is accepted, 201 are refused', async () => {
    expect((await alice.call('POST', '/links', { title: '🙂'.repeat(200), destination_url: 'https://example.com/' })).status).toBe(201);
    const response = await alice.call('POST', '/links', { title: '🙂'.repeat(201), destination_url: 'https://example.com/' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'title' });
  });

  test('a tag name of 50 emoji is accepted, 51 are refused', async () => {
    expect((await alice.call('POST', '/tags', { name: '🚀'.repeat(50) })).status).toBe(201);
    const response = await alice.call('POST', '/tags', { name: '🚀'.repeat(51) });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
  });

  test('comments of 2,048 characters are accepted when longer only before trimming', async () => {
    const link = await createLink(alice, { comments: `  \n${'c'.repeat(2048)}\t ` });
    expect(link.comments).toBe('c'.repeat(2048));
  });

  test('utm values of exactly 200 characters are accepted', async () => {
    const link = await createLink(alice, { destination_url: 'https://example.com/utm200', utm: { term: 'u'.repeat(200) } });
    expect(link.destination_url).toBe(`https://example.com/utm200?utm_term=${'u'.repeat(200)}`);
  });

  test('a slug of exactly 64 characters is accepted', async () => {
    const link = await createLink(alice, { slug: 'S'.repeat(64) });
    expect(link.short_url).toBe(`https://sho.rt/${'S'.repeat(64)}`);
  });
});

describe('the longest external ids are addressable by ext_', () => {
  // 255 characters that take 12 characters each once URL-encoded (%F0%9F%9A%80).
  const longest = '🚀'.repeat(255);

  test('over REST: get, update and delete by the URL-encoded external id', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { external_id: longest });
    const path = `/links/ext_${encodeURIComponent(longest)}`;
    expect((await account.call('GET', path)).body.id).toBe(link.id);
    expect((await account.call('PATCH', path, { title: 'Renamed' })).body).toMatchObject({ id: link.id, title: 'Renamed' });
    expect((await account.call('DELETE', path)).status).toBe(204);
    expect((await account.call('GET', path)).status).toBe(404);
  });

  test('over tRPC: the typed client gets the link by the plain external id', async () => {
    const account = await createAccount(server);
    const cjk = '日'.repeat(255);
    const link = await createLink(account, { external_id: cjk });
    const client = createClient({ baseUrl: server.origin, apiKey: account.key });
    expect((await client.links.get(`ext_${cjk}`)).id).toBe(link.id);
  });
});

describe('URLs that could not be sent as a redirect are refused', () => {
  test.each([
    ['a C0 control character', 'https://example.com/a\u0001b'],
    ['DEL', 'https://example.com/a\u007fb'],
    ['a C1 control character', 'https://example.com/a\u0085b'],
  ])('destination_url with %s → 422, nothing saved', async (_why, url) => {
    const before = await countRows(server, 'link');
    const response = await alice.call('POST', '/links', { title: 'x', destination_url: url });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'destination_url' });
    expect(await countRows(server, 'link')).toBe(before);
  });

  test('expiration_url with a control character → 422, on create and on PATCH', async () => {
    const body = {
      title: 'x',
      destination_url: 'https://example.com/',
      expires_at: inDays(1),
      expiration_url: 'https://example.com/\u0002',
    };
    expect((await alice.call('POST', '/links', body)).body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'expiration_url' });
    const link = await createLink(alice, { expires_at: inDays(1) });
    const patched = await alice.call('PATCH', `/links/${link.id}`, { expiration_url: 'https://example.com/\u0002' });
    expect(patched.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'expiration_url' });
  });
});

describe('expiration_url as an empty string', () => {
  test('on an upsert that matches, it removes only the fallback (the update rules)', async () => {
    const expiresAt = inDays(3);
    const destination = 'https://example.com/upsert-empty-fallback';
    await alice.call('POST', '/links/upsert', {
      title: 'x',
      destination_url: destination,
      expires_at: expiresAt,
      expiration_url: 'https://example.com/fallback',
    });
    const response = await alice.call('POST', '/links/upsert', { title: 'x', destination_url: destination, expiration_url: '' });
    expect(response.status).toBe(200);
    expect(response.body.created).toBe(false);
    expect(response.body.expires_at).toBe(expiresAt);
    expect(response.body).not.toHaveProperty('expiration_url');
  });

  test('on create it means no fallback', async () => {
    const link = await createLink(alice, { expiration_url: '' });
    expect(link).not.toHaveProperty('expiration_url');
  });
});

describe('an expired link stays live (docs/api-decisions.md, expiry rules)', () => {
  test('it is fetched, listed, counted toward the link limit, and takes a new expiry by PATCH', async () => {
    const account = await createAccount(server, { link_limit: 1 });
    const created = await createLink(account, { expires_at: inDays(1) });
    // Let the expiry pass without waiting for it.
    const expiredAt = Date.now() - 1000;
    await server.orm.em
      .fork()
      .getConnection()
      .execute(`update link set expires_at = to_timestamp(${expiredAt / 1000}) where id = '${created.id}'`);
    const link = await getLink(account, created.id);
    expect(link.expires_at).toBe(expiredAt);
    expect((await account.call('GET', '/links')).body).toMatchObject({ total: 1, links: [{ id: link.id }] });
    expect((await account.call('POST', '/links', { title: 'y', destination_url: 'https://example.com/y' })).body.code).toBe(
      'LINK_LIMIT_REACHED',
    );
    const renewed = inDays(7);
    expect((await account.call('PATCH', `/links/${link.id}`, { expires_at: renewed })).body.expires_at).toBe(renewed);
  });
});

describe('plan limits (spec: Limits; link limits from docs/accounts.md)', () => {
  test.each([
    ['starter', 1000, 25],
    ['trial', 1000, 200],
    ['team', 50_000, 200],
    ['unlimited', null, null],
  ] as const)('%s: link_limit %s and tag_limit %s', async (plan, linkLimit, tagLimit) => {
    const account = await createAccount(server, { plan });
    expect((await account.call('GET', '/links')).body.link_limit).toBe(linkLimit);
    expect((await account.call('GET', '/tags')).body.tag_limit).toBe(tagLimit);
  });
});

describe('decisions where the spec is silent', () => {
  test.each([
    ['title', 'two\nlines'],
    ['title', 'tab\there'],
    ['title', 'line\u2028separator'],
    ['external_id', 'crm\n1'],
    ['external_id', 'nul\u0000'],
  ])('%s with a control character or line break (%j) → 422, nothing saved', async (field, value) => {
    const before = await countRows(server, 'link');
    const response = await alice.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', [field]: value });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(await countRows(server, 'link')).toBe(before);
  });

  test('comments that are empty after trimming mean no comments on create', async () => {
    const link = await createLink(alice, { comments: ' \n ' });
    expect(link).not.toHaveProperty('comments');
  });

  test('an empty utm value neither adds nor removes a parameter', async () => {
    const link = await createLink(alice, { destination_url: 'https://example.com/e?utm_source=keep', utm: { source: '', medium: 'm' } });
    expect(link.destination_url).toBe('https://example.com/e?utm_source=keep&utm_medium=m');
  });

  test('tag_ids and tag_names together may name at most 10 distinct tags', async () => {
    const account = await createAccount(server);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await account.call('POST', '/tags', { name: `t${i}` })).body.id);
    const over = await account.call('POST', '/links', {
      title: 'x',
      destination_url: 'https://example.com/',
      tag_ids: ids,
      tag_names: ['n1', 'n2', 'n3', 'n4', 'n5'],
    });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('VALIDATION_ERROR');
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(6);
    // T0 names a tag already given by id: 10 distinct tags.
    const link = await createLink(account, { tag_ids: ids, tag_names: ['T0', 'n2', 'n3', 'n4', 'n5'] });
    expect(link.tags).toHaveLength(10);
  });

  test.each([
    ['/links', 'title', { title: 'half \ud800 pair', destination_url: 'https://example.com/' }],
    ['/links', 'comments', { title: 'x', destination_url: 'https://example.com/', comments: 'half \udfff' }],
    ['/links', 'external_id', { title: 'x', destination_url: 'https://example.com/', external_id: '\ud83d' }],
    ['/links', 'tag_names', { title: 'x', destination_url: 'https://example.com/', tag_names: ['\ud800'] }],
    ['/tags', 'name', { name: 'half \ud800' }],
  ])('POST %s with half of a surrogate pair in %s → 422, nothing saved', async (path, field, body) => {
    const before = (await countRows(server, 'link')) + (await countRows(server, 'tag'));
    const response = await alice.call('POST', path, body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect((await countRows(server, 'link')) + (await countRows(server, 'tag'))).toBe(before);
  });

  test('an account at its tag limit can still rename, recolour and attach its tags', async () => {
    const account = await createAccount(server, { tag_limit: 1 });
    const tag = (await account.call('POST', '/tags', { name: 'only' })).body;
    expect((await account.call('POST', '/tags', { name: 'second' })).body.code).toBe('PLAN_LIMIT_REACHED');
    expect((await account.call('PATCH', `/tags/${tag.id}`, { name: 'Only one', color: 'lime' })).status).toBe(200);
    const link = await createLink(account, { tag_names: ['ONLY ONE'] });
    expect(link.tags).toEqual([{ id: tag.id, name: 'Only one', color: 'lime' }]);
  });

  test('a tag given a colour does not advance the rotation', async () => {
    const account = await createAccount(server);
    const first = await account.call('POST', '/tags', { name: 'first' });
    await account.call('POST', '/tags', { name: 'chosen', color: 'slate' });
    const second = await account.call('POST', '/tags', { name: 'second' });
    expect([first.body.color, second.body.color]).toEqual(['indigo', 'violet']);
  });

  test('upsert refuses an invalid slug even when a link matches', async () => {
    const destination = 'https://example.com/upsert-bad-slug';
    await alice.call('POST', '/links/upsert', { title: 'x', destination_url: destination });
    const response = await alice.call('POST', '/links/upsert', { title: 'x', destination_url: destination, slug: 'api' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'SLUG_INVALID', field: 'slug' });
  });

  test('the 409 codes name their field', async () => {
    const account = await createAccount(server);
    await createLink(account, { slug: 'field-taken', external_id: 'field-ext' });
    await account.call('POST', '/tags', { name: 'Taken' });
    expect(
      (await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', slug: 'field-taken' })).body,
    ).toMatchObject({
      code: 'SLUG_TAKEN',
      field: 'slug',
    });
    expect(
      (await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', external_id: 'field-ext' })).body,
    ).toMatchObject({ code: 'EXTERNAL_ID_TAKEN', field: 'external_id' });
    expect((await account.call('POST', '/tags', { name: 'TAKEN' })).body).toMatchObject({ code: 'TAG_NAME_TAKEN', field: 'name' });
  });

  test('an empty tag_ids filter means no filter', async () => {
    const account = await createAccount(server);
    await createLink(account);
    expect((await account.call('GET', '/links?tag_ids=')).body.total).toBe(1);
  });
});
