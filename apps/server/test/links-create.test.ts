import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

describe('POST /links', () => {
  test('creates a link with a random 6-character slug and returns 201 with the link object', async () => {
    const response = await alice.call('POST', '/links', { title: '  Spring launch  ', destination_url: 'https://example.com/launch' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      title: 'Spring launch',
      destination_url: 'https://example.com/launch',
      tags: [],
      click_count: 0,
    });
    expect(response.body.id).toMatch(/^lnk_/);
    expect(response.body.slug).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(response.body.short_url).toBe(`https://sho.rt/${response.body.slug}`);
    expect(Math.abs(response.body.created_at - Date.now())).toBeLessThan(60_000);
    for (const absent of ['external_id', 'comments', 'expires_at', 'expiration_url']) expect(response.body).not.toHaveProperty(absent);
  });

  test('keeps a custom slug case-sensitively', async () => {
    const upper = await alice.call('POST', '/links', { title: 'A', destination_url: 'https://example.com/1', slug: 'Case_Slug-1' });
    const lower = await alice.call('POST', '/links', { title: 'B', destination_url: 'https://example.com/2', slug: 'case_slug-1' });
    expect(upper.status).toBe(201);
    expect(lower.status).toBe(201);
    expect(upper.body.slug).toBe('Case_Slug-1');
  });

  test('SLUG_TAKEN for a slug in use, even by another account', async () => {
    const bob = await createAccount(server);
    await alice.call('POST', '/links', { title: 'A', destination_url: 'https://example.com/x', slug: 'shared-slug' });
    const before = await countRows(server, 'link');
    const response = await bob.call('POST', '/links', {
      title: 'B',
      destination_url: 'https://example.com/y',
      slug: 'shared-slug',
      tag_names: ['new-tag'],
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'SLUG_TAKEN' });
    expect(await countRows(server, 'link')).toBe(before);
    expect(await countRows(server, 'tag', `account_id = '${bob.account.id}'`)).toBe(0);
  });

  test.each([
    ['invalid characters', 'has space'],
    ['too long', 'a'.repeat(65)],
    ['reserved', 'docs'],
    ['reserved in another case', 'API'],
    ['empty', ''],
  ])('SLUG_INVALID when the slug is %s', async (_why, slug) => {
    const response = await alice.call('POST', '/links', { title: 'A', destination_url: 'https://example.com/', slug });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'SLUG_INVALID', field: 'slug' });
  });

  test('merges utm into the destination, replacing parameters of the same name', async () => {
    const response = await alice.call('POST', '/links', {
      title: 'UTM',
      destination_url: 'https://example.com/p?utm_source=old&x=1',
      utm: { source: 'news letter', medium: 'email', campaign: 'spring' },
    });
    expect(response.status).toBe(201);
    expect(response.body.destination_url).toBe('https://example.com/p?utm_source=news+letter&x=1&utm_medium=email&utm_campaign=spring');
  });

  test('stores the optional fields and omits nothing that was set', async () => {
    const expiresAt = inDays(30);
    const response = await alice.call('POST', '/links', {
      title: 'Full',
      destination_url: 'https://example.com/full',
      comments: '  line one\n\tline two  ',
      expires_at: expiresAt,
      expiration_url: 'https://example.com/expired',
      external_id: '  crm-1  ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      comments: 'line one\n\tline two',
      expires_at: expiresAt,
      expiration_url: 'https://example.com/expired',
      external_id: 'crm-1',
    });
  });

  test.each([
    ['title missing', { destination_url: 'https://example.com/' }, 'title'],
    ['title blank', { title: '   ', destination_url: 'https://example.com/' }, 'title'],
    ['title too long', { title: 'x'.repeat(201), destination_url: 'https://example.com/' }, 'title'],
    ['destination missing', { title: 'x' }, 'destination_url'],
    ['destination not http', { title: 'x', destination_url: 'ftp://example.com/' }, 'destination_url'],
    ['destination relative', { title: 'x', destination_url: '/relative' }, 'destination_url'],
    ['destination javascript', { title: 'x', destination_url: 'javascript:alert(1)' }, 'destination_url'],
    ['destination too long', { title: 'x', destination_url: `https://example.com/${'a'.repeat(2030)}` }, 'destination_url'],
    ['localhost', { title: 'x', destination_url: 'http://localhost:8080/' }, 'destination_url'],
    ['loopback decimal', { title: 'x', destination_url: 'http://2130706433/' }, 'destination_url'],
    ['private octal', { title: 'x', destination_url: 'http://012.0.0.1/' }, 'destination_url'],
    ['private hex', { title: 'x', destination_url: 'http://0xc0.0xa8.0.1/' }, 'destination_url'],
    ['IPv6 loopback', { title: 'x', destination_url: 'http://[::1]/' }, 'destination_url'],
    ['IPv4-mapped IPv6', { title: 'x', destination_url: 'http://[::ffff:10.0.0.1]/' }, 'destination_url'],
    ['link-local', { title: 'x', destination_url: 'http://169.254.169.254/latest' }, 'destination_url'],
    ['unspecified', { title: 'x', destination_url: 'http://0.0.0.0/' }, 'destination_url'],
    ['IPv6 unique local', { title: 'x', destination_url: 'http://[fd00::1]/' }, 'destination_url'],
    ['the short domain', { title: 'x', destination_url: 'https://SHO.RT/abc' }, 'destination_url'],
    ['flagged by reputation', { title: 'x', destination_url: 'https://www.flagged.example/' }, 'destination_url'],
    ['utm value too long', { title: 'x', destination_url: 'https://example.com/', utm: { source: 'u'.repeat(201) } }, 'utm'],
    ['utm unknown key', { title: 'x', destination_url: 'https://example.com/', utm: { foo: 'bar' } }, 'utm'],
    [
      'final URL too long after utm',
      { title: 'x', destination_url: `https://example.com/${'a'.repeat(1990)}`, utm: { source: 's'.repeat(100) } },
      'destination_url',
    ],
    ['comments too long', { title: 'x', destination_url: 'https://example.com/', comments: 'c'.repeat(2049) }, 'comments'],
    ['comments with control characters', { title: 'x', destination_url: 'https://example.com/', comments: 'bell\u0007' }, 'comments'],
    ['expires_at in the past', { title: 'x', destination_url: 'https://example.com/', expires_at: Date.now() - 1000 }, 'expires_at'],
    ['expires_at over 10 years ahead', { title: 'x', destination_url: 'https://example.com/', expires_at: inDays(3660) }, 'expires_at'],
    ['expires_at not a number', { title: 'x', destination_url: 'https://example.com/', expires_at: 'tomorrow' }, 'expires_at'],
    [
      'expiration_url without expires_at',
      { title: 'x', destination_url: 'https://example.com/', expiration_url: 'https://example.com/e' },
      'expiration_url',
    ],
    [
      'expiration_url private',
      { title: 'x', destination_url: 'https://example.com/', expires_at: inDays(1), expiration_url: 'http://192.168.1.1/' },
      'expiration_url',
    ],
    ['external_id blank', { title: 'x', destination_url: 'https://example.com/', external_id: '  ' }, 'external_id'],
    ['external_id too long', { title: 'x', destination_url: 'https://example.com/', external_id: 'e'.repeat(256) }, 'external_id'],
    [
      'more than 10 tags',
      { title: 'x', destination_url: 'https://example.com/', tag_names: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      'tag_names',
    ],
    ['tag name too long', { title: 'x', destination_url: 'https://example.com/', tag_names: ['n'.repeat(51)] }, 'tag_names'],
    ['unknown field', { title: 'x', destination_url: 'https://example.com/', titel: 'typo' }, 'titel'],
  ])('422 VALIDATION_ERROR when %s, and nothing is saved', async (_why, body, field) => {
    const before = await countRows(server, 'link');
    const response = await alice.call('POST', '/links', body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(typeof response.body.message).toBe('string');
    expect(await countRows(server, 'link')).toBe(before);
  });

  test('accepts a title of exactly 200 characters and a destination of exactly 2,048', async () => {
    const destination = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    const response = await alice.call('POST', '/links', { title: 't'.repeat(200), destination_url: destination });
    expect(response.status).toBe(201);
    expect(response.body.destination_url).toHaveLength(2048);
  });

  test('400 INVALID_JSON for a malformed body, and nothing is saved', async () => {
    const before = await countRows(server, 'link');
    const response = await alice.call('POST', '/links', '{"title": "x",');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'INVALID_JSON', message: expect.any(String) });
    expect(await countRows(server, 'link')).toBe(before);
  });
});

describe('tags on create', () => {
  test('attaches tags by id and by name ignoring case, creating the unmatched with rotation colours', async () => {
    const account = await createAccount(server);
    const existing = await account.call('POST', '/tags', { name: 'Marketing', color: 'lime' });
    const response = await account.call('POST', '/links', {
      title: 'Tagged',
      destination_url: 'https://example.com/t',
      tag_ids: [existing.body.id],
      tag_names: ['marketing', 'zeta', 'Alpha'],
    });
    expect(response.status).toBe(201);
    expect(response.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Alpha', 'Marketing', 'zeta']);
    const colors = response.body.tags
      .filter((tag: { name: string }) => tag.name !== 'Marketing')
      .map((tag: { color: string }) => tag.color);
    expect(new Set(colors).size).toBe(2);
    const tags = await account.call('GET', '/tags');
    expect(tags.body.tags).toHaveLength(3);
  });

  test("404 TAG_NOT_FOUND for another account's tag id, and nothing is saved (not even tags from tag_names)", async () => {
    const owner = await createAccount(server);
    const other = await createAccount(server);
    const foreign = await owner.call('POST', '/tags', { name: 'Private' });
    const response = await other.call('POST', '/links', {
      title: 'x',
      destination_url: 'https://example.com/',
      tag_ids: [foreign.body.id],
      tag_names: ['would-be-created'],
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('TAG_NOT_FOUND');
    expect(await countRows(server, 'tag', `account_id = '${other.account.id}'`)).toBe(0);
    expect(await countRows(server, 'link', `account_id = '${other.account.id}'`)).toBe(0);
  });

  test('403 PLAN_LIMIT_REACHED when tag_names would pass the tag limit', async () => {
    const account = await createAccount(server, { tag_limit: 2 });
    await account.call('POST', '/tags', { name: 'one' });
    const response = await account.call('POST', '/links', {
      title: 'x',
      destination_url: 'https://example.com/',
      tag_names: ['two', 'three'],
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('PLAN_LIMIT_REACHED');
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(1);
  });
});

describe('link limit', () => {
  test('403 LINK_LIMIT_REACHED at the limit; deleted links do not count', async () => {
    const account = await createAccount(server, { link_limit: 2 });
    const first = await account.call('POST', '/links', { title: '1', destination_url: 'https://example.com/1' });
    await account.call('POST', '/links', { title: '2', destination_url: 'https://example.com/2' });
    const third = await account.call('POST', '/links', { title: '3', destination_url: 'https://example.com/3' });
    expect(third.status).toBe(403);
    expect(third.body.code).toBe('LINK_LIMIT_REACHED');
    expect((await account.call('DELETE', `/links/${first.body.id}`)).status).toBe(204);
    expect((await account.call('POST', '/links', { title: '3', destination_url: 'https://example.com/3' })).status).toBe(201);
    const list = await account.call('GET', '/links');
    expect(list.body.link_limit).toBe(2);
  });
});
