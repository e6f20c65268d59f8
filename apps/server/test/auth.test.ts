import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let owner: TestAccount;
let revokedKey: string;
let link: { id: string; slug: string };
let tag: { id: string };

beforeAll(async () => {
  server = await startTestServer();
  owner = await createAccount(server);
  const tagResponse = await owner.call('POST', '/tags', { name: 'Owned', color: 'lime' });
  expect(tagResponse.status).toBe(201);
  tag = tagResponse.body;
  const linkResponse = await owner.call('POST', '/links', {
    title: 'Owned link',
    destination_url: 'https://example.com/owned',
    slug: 'auth-owned',
    external_id: 'crm-7',
    tag_ids: [tag.id],
  });
  expect(linkResponse.status).toBe(201);
  link = linkResponse.body;
  // A second key of the same account, revoked: were revocation ignored, it would act on the owner's data.
  const { key, secret } = await server.services.apiKeys.create(owner.account.id);
  expect(await server.services.apiKeys.revoke(key.id)).toBe(true);
  revokedKey = secret;
});
afterAll(() => server.close());

/**
 * Every endpoint, with a body that would succeed (and change something) if the request were
 * authenticated. Paths are thunks: the ids exist only after beforeAll.
 */
const endpoints: [string, string, () => string, unknown][] = [
  ['POST /links', 'POST', () => '/links', { title: 'Intruder', destination_url: 'https://example.com/in', tag_names: ['intruder-tag'] }],
  ['GET /links', 'GET', () => '/links', undefined],
  ['GET /links?tag_ids=', 'GET', () => `/links?tag_ids=${tag.id}`, undefined],
  ['GET /links/{lnk_id}', 'GET', () => `/links/${link.id}`, undefined],
  ['GET /links/{ext_id}', 'GET', () => '/links/ext_crm-7', undefined],
  ['PATCH /links/{lnk_id}', 'PATCH', () => `/links/${link.id}`, { title: 'Hacked', tag_names: ['intruder-tag'] }],
  ['PATCH /links/{ext_id}', 'PATCH', () => '/links/ext_crm-7', { title: 'Hacked' }],
  ['DELETE /links/{lnk_id}', 'DELETE', () => `/links/${link.id}`, undefined],
  ['DELETE /links/{ext_id}', 'DELETE', () => '/links/ext_crm-7', undefined],
  ['POST /links/upsert', 'POST', () => '/links/upsert', { title: 'Upserted', destination_url: 'https://example.com/owned' }],
  ['POST /tags', 'POST', () => '/tags', { name: 'intruder-tag' }],
  ['GET /tags', 'GET', () => '/tags', undefined],
  ['PATCH /tags/{id}', 'PATCH', () => `/tags/${tag.id}`, { name: 'Hacked', color: 'slate' }],
  ['DELETE /tags/{id}', 'DELETE', () => `/tags/${tag.id}`, undefined],
];

/** What the database and the owner see; compared before and after each refused request. */
async function snapshot() {
  return {
    links: await countRows(server, 'link'),
    liveLinks: await countRows(server, 'link', 'deleted_at is null'),
    tags: await countRows(server, 'tag'),
    linkTags: await countRows(server, 'link_tag'),
    link: (await owner.call('GET', `/links/${link.id}`)).body,
    tagList: (await owner.call('GET', '/tags')).body,
  };
}

function expectUnauthorized(response: ApiResponse) {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
  expect(Object.keys(response.body).filter((key) => !['code', 'message', 'field'].includes(key))).toEqual([]);
}

type Credential = [string, () => Record<string, string>];

const credentials: Credential[] = [
  ['no Authorization header', () => ({})],
  ['an empty Authorization header', () => ({ authorization: '' })],
  ["a 'Basic x' header", () => ({ authorization: 'Basic x' })],
  ["a bare 'Bearer'", () => ({ authorization: 'Bearer' })],
  ["'Bearer ' with no key", () => ({ authorization: 'Bearer ' })],
  ['a Basic header carrying the valid key', () => ({ authorization: `Basic ${Buffer.from(`${owner.key}:`).toString('base64')}` })],
  ['the valid key without the Bearer scheme', () => ({ authorization: owner.key })],
  ['an unknown key', () => ({ authorization: `Bearer slk_${randomBytes(32).toString('base64url')}` })],
  ['an unknown key without the slk_ prefix', () => ({ authorization: `Bearer ${randomBytes(32).toString('hex')}` })],
  ['a revoked key', () => ({ authorization: `Bearer ${revokedKey}` })],
];

describe('401 UNAUTHORIZED without a valid key', () => {
  test('control: the owner key reads every GET endpoint above with 200', async () => {
    for (const [name, method, path] of endpoints.filter(([, method]) => method === 'GET')) {
      expect((await owner.call(method, path())).status, name).toBe(200);
    }
  });

  test.each(
    credentials.flatMap(([credential, header]) =>
      endpoints.map(([name, method, path, body]) => ({ name, credential, header, method, path, body })),
    ),
  )('$name with $credential → 401 UNAUTHORIZED, nothing saved', async ({ header, method, path, body }) => {
    const before = await snapshot();
    const response = await callApi(server, undefined, method, path(), body, header());
    expectUnauthorized(response);
    expect(await snapshot()).toEqual(before);
  });

  test('a revoked key stops working while another key of the same account keeps working', async () => {
    const account = await createAccount(server);
    const { key, secret } = await server.services.apiKeys.create(account.account.id);
    expect((await callApi(server, secret, 'GET', '/tags')).status).toBe(200);
    expect(await server.services.apiKeys.revoke(key.id)).toBe(true);
    expectUnauthorized(await callApi(server, secret, 'GET', '/tags'));
    expectUnauthorized(await callApi(server, secret, 'POST', '/tags', { name: 'after revoke' }));
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(0);
    expect((await account.call('GET', '/tags')).status).toBe(200);
  });
});

describe('401 comes before validation and lookup', () => {
  test.each([
    ['POST', '/links'],
    ['PATCH', '/links/lnk_whatever'],
    ['POST', '/links/upsert'],
    ['POST', '/tags'],
    ['PATCH', '/tags/tag_whatever'],
  ])('%s %s with invalid JSON and no key → 401', async (method, path) => {
    const before = await snapshot();
    expectUnauthorized(await callApi(server, undefined, method, path, '{"broken": '));
    expect(await snapshot()).toEqual(before);
  });

  test.each([
    ['POST', '/links', { title: '' }],
    ['POST', '/links/upsert', {}],
    ['POST', '/tags', { name: 'x'.repeat(51), color: 'red' }],
    ['PATCH', `/tags/tag_whatever`, {}],
    ['GET', '/links?per_page=1000', undefined],
  ])('%s %s with an invalid body or query and an unknown key → 401', async (method, path, body) => {
    expectUnauthorized(await callApi(server, `slk_${randomBytes(32).toString('base64url')}`, method, path, body));
  });

  test.each([
    ['GET', '/links/lnk_doesnotexist'],
    ['GET', '/links/ext_nothing'],
    ['DELETE', '/links/lnk_doesnotexist'],
    ['DELETE', '/tags/tag_doesnotexist'],
  ])('%s %s (nonexistent) without a key → 401, not 404', async (method, path) => {
    expectUnauthorized(await callApi(server, undefined, method, path));
  });
});

describe('keys are found by their prefix and compared whole', () => {
  test('two keys sharing the stored 12-character prefix both work; a third secret with that prefix is refused', async () => {
    const account = await createAccount(server);
    const prefix = account.key.slice(0, 12);
    const twin = `${prefix}${randomBytes(24).toString('base64url')}`;
    await server.orm.em
      .fork()
      .getConnection()
      .execute('insert into api_key (id, account_id, prefix, secret_hash) values (?, ?, ?, ?)', [
        'key_twin',
        account.account.id,
        prefix,
        createHash('sha256').update(twin).digest('hex'),
      ]);
    expect((await callApi(server, account.key, 'GET', '/tags')).status).toBe(200);
    expect((await callApi(server, twin, 'GET', '/tags')).status).toBe(200);
    expectUnauthorized(await callApi(server, `${prefix}${randomBytes(24).toString('base64url')}`, 'GET', '/tags'));
    expectUnauthorized(await callApi(server, `${account.key.slice(0, -1)}${account.key.endsWith('A') ? 'B' : 'A'}`, 'GET', '/tags'));
  });
});

describe('endpoints open without a key', () => {
  test.each([
    ['/healthz', 'without a key', {}],
    ['/readyz', 'without a key', {}],
    ['/healthz', "with a 'Basic x' header", { authorization: 'Basic x' }],
  ])('GET %s answers 200 %s', async (path, _how, headers) => {
    const response = await fetch(`${server.origin}${path}`, { headers });
    expect(response.status).toBe(200);
  });

  test('GET /api/v1/openapi.json answers 200 with an OpenAPI document', async () => {
    const response = await fetch(`${server.api}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  });
});
