import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

const COLORS = ['indigo', 'violet', 'cyan', 'fuchsia', 'lime', 'slate'];

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server, { plan: 'unlimited' });
});
afterAll(() => server.close());

/** An error response: the status, the code, and a body of exactly {code, message, field?}. */
function expectError(response: ApiResponse, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body).toMatchObject({ code, message: expect.any(String) });
  expect(response.body.message.length).toBeGreaterThan(0);
  expect(Object.keys(response.body).filter((key) => !['code', 'message', 'field'].includes(key))).toEqual([]);
  if (field !== undefined) expect(response.body.field).toBe(field);
}

/** Tags of an account, by row count in the database. */
const tagRows = (account: TestAccount) => countRows(server, 'tag', `account_id = '${account.account.id}'`);

async function createTag(account: TestAccount, name: string, color?: string) {
  const response = await account.call('POST', '/tags', color === undefined ? { name } : { name, color });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string; color: string; link_count: number };
}

async function createLink(account: TestAccount, body: Record<string, unknown>) {
  const response = await account.call('POST', '/links', {
    title: 'Link',
    destination_url: `https://example.com/${Math.random()}`,
    ...body,
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function listTags(account: TestAccount) {
  const response = await account.call('GET', '/tags');
  expect(response.status).toBe(200);
  return response.body as { tags: { id: string; name: string; color: string; link_count: number }[]; tag_limit: number | null };
}

async function tagById(account: TestAccount, id: string) {
  return (await listTags(account)).tags.find((tag) => tag.id === id);
}

describe('POST /tags', () => {
  test('creates a tag and returns 201 with the tag object, link_count 0, name trimmed', async () => {
    const before = await tagRows(alice);
    const response = await alice.call('POST', '/tags', { name: '  Design  ', color: 'cyan' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Design', color: 'cyan', link_count: 0 });
    expect(response.body.id).toMatch(/^tag_/);
    expect(await tagRows(alice)).toBe(before + 1);
    expect(await tagById(alice, response.body.id)).toEqual({ id: response.body.id, name: 'Design', color: 'cyan', link_count: 0 });
  });

  test.each(COLORS)('accepts the colour %s', async (color) => {
    const response = await alice.call('POST', '/tags', { name: `colour ${color}`, color });
    expect(response.status).toBe(201);
    expect(response.body.color).toBe(color);
  });

  test('accepts a name of 1 character and one of exactly 50 characters (after trimming)', async () => {
    const one = await alice.call('POST', '/tags', { name: 'x' });
    expect(one.status).toBe(201);
    expect(one.body.name).toBe('x');
    const fifty = await alice.call('POST', '/tags', { name: `  ${'n'.repeat(50)}  ` });
    expect(fifty.status).toBe(201);
    expect(fifty.body.name).toBe('n'.repeat(50));
  });

  test('keeps non-ASCII letters and inner spaces', async () => {
    const response = await alice.call('POST', '/tags', { name: 'Café Crème 🎉' });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe('Café Crème 🎉');
  });

  test.each([
    ['name missing', { color: 'lime' }, 'name'],
    ['name null', { name: null }, 'name'],
    ['name not a string', { name: 42 }, 'name'],
    ['name empty', { name: '' }, 'name'],
    ['name blank', { name: '   ' }, 'name'],
    ['name too long', { name: 'n'.repeat(51) }, 'name'],
    ['name too long after trimming only its edges', { name: ` ${'n'.repeat(25)} ${'n'.repeat(25)} ` }, 'name'],
    ['name with a line feed', { name: 'two\nlines' }, 'name'],
    ['name with a carriage return', { name: 'two\rlines' }, 'name'],
    ['name with a tab', { name: 'tab\there' }, 'name'],
    ['name with NUL', { name: 'nul\u0000' }, 'name'],
    ['name with BEL', { name: 'bell\u0007' }, 'name'],
    ['name with DEL', { name: 'del\u007f' }, 'name'],
    ['name with a C1 control (NEL)', { name: 'next\u0085line' }, 'name'],
    ['name with a Unicode line separator', { name: 'line\u2028separator' }, 'name'],
    ['name with a Unicode paragraph separator', { name: 'para\u2029separator' }, 'name'],
    ['colour not one of the six', { name: 'ok', color: 'red' }, 'color'],
    ['colour in another case', { name: 'ok', color: 'Indigo' }, 'color'],
    ['colour empty', { name: 'ok', color: '' }, 'color'],
    ['colour not a string', { name: 'ok', color: 3 }, 'color'],
  ])('422 VALIDATION_ERROR when %s, and nothing is saved', async (_why, body, field) => {
    const before = await countRows(server, 'tag');
    const response = await alice.call('POST', '/tags', body);
    expectError(response, 422, 'VALIDATION_ERROR', field);
    expect(await countRows(server, 'tag')).toBe(before);
  });

  test('assigns omitted colours in rotation: six consecutive tags get all six colours, the seventh starts over', async () => {
    const account = await createAccount(server);
    const colors: string[] = [];
    for (let i = 0; i < 7; i++) colors.push((await createTag(account, `rotation ${i}`)).color);
    for (const color of colors) expect(COLORS).toContain(color);
    expect(new Set(colors.slice(0, 6)).size).toBe(6);
    expect(colors[6]).toBe(colors[0]);
    for (let i = 1; i < 7; i++) expect(colors[i]).not.toBe(colors[i - 1]);
  });

  test('tags created through tag_names also get rotation colours, all different for six new names', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { tag_names: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'] });
    const colors = link.tags.map((tag: { color: string }) => tag.color);
    expect(colors).toHaveLength(6);
    for (const color of colors) expect(COLORS).toContain(color);
    expect(new Set(colors).size).toBe(6);
  });

  test.each([
    ['the same name', 'Marketing'],
    ['another case', 'marketing'],
    ['upper case with surrounding spaces', '  MARKETING  '],
  ])('409 TAG_NAME_TAKEN for %s, and nothing is saved', async (_why, name) => {
    const account = await createAccount(server);
    const existing = await createTag(account, 'Marketing', 'lime');
    const response = await account.call('POST', '/tags', { name, color: 'cyan' });
    expectError(response, 409, 'TAG_NAME_TAKEN');
    expect(await tagRows(account)).toBe(1);
    expect((await listTags(account)).tags).toEqual([existing]);
  });

  test('409 TAG_NAME_TAKEN ignores case for non-ASCII letters too', async () => {
    const account = await createAccount(server);
    await createTag(account, 'Équipe Ölkännchen');
    const response = await account.call('POST', '/tags', { name: 'équipe öLKÄNNCHEN' });
    expectError(response, 409, 'TAG_NAME_TAKEN');
    expect(await tagRows(account)).toBe(1);
  });

  test('400 INVALID_JSON for a malformed body, and nothing is saved', async () => {
    const before = await countRows(server, 'tag');
    const response = await alice.call('POST', '/tags', '{"name": "x",');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'INVALID_JSON', message: expect.any(String) });
    expect(await countRows(server, 'tag')).toBe(before);
  });
});

describe('tag limit', () => {
  test.each([
    ['starter', 25],
    ['team', 200],
    ['trial', 200],
  ] as const)('%s plan: tag_limit %i; at the limit 403 PLAN_LIMIT_REACHED and nothing is saved', async (plan, limit) => {
    const account = await createAccount(server, { plan });
    expect((await listTags(account)).tag_limit).toBe(limit);
    for (let i = 0; i < limit; i++) await createTag(account, `tag ${i}`);
    const response = await account.call('POST', '/tags', { name: 'one too many' });
    expectError(response, 403, 'PLAN_LIMIT_REACHED');
    expect(await tagRows(account)).toBe(limit);
    const list = await listTags(account);
    expect(list.tags).toHaveLength(limit);
    expect(list.tags.some((tag) => tag.name === 'one too many')).toBe(false);
  });

  test('unlimited plan: tag_limit null, and tags past every plan limit are created', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    expect((await listTags(account)).tag_limit).toBeNull();
    for (let i = 0; i < 201; i++) await createTag(account, `tag ${i}`);
    const list = await listTags(account);
    expect(list.tag_limit).toBeNull();
    expect(list.tags).toHaveLength(201);
  });

  test('tags created through tag_names on create, update and upsert count toward the limit', async () => {
    const account = await createAccount(server, { tag_limit: 3 });
    expect((await listTags(account)).tag_limit).toBe(3);
    const link = await createLink(account, { tag_names: ['from-create'] });
    const patched = await account.call('PATCH', `/links/${link.id}`, { tag_names: ['from-create', 'from-update'] });
    expect(patched.status).toBe(200);
    const upserted = await account.call('POST', '/links/upsert', {
      title: 'Upsert',
      destination_url: 'https://example.com/upsert',
      tag_names: ['from-upsert'],
    });
    expect(upserted.status).toBe(201);
    expect(await tagRows(account)).toBe(3);

    const response = await account.call('POST', '/tags', { name: 'fourth' });
    expectError(response, 403, 'PLAN_LIMIT_REACHED');
    expect(await tagRows(account)).toBe(3);
  });

  test('deleting a tag frees a place under the limit', async () => {
    const account = await createAccount(server, { tag_limit: 1 });
    const only = await createTag(account, 'only');
    expectError(await account.call('POST', '/tags', { name: 'second' }), 403, 'PLAN_LIMIT_REACHED');
    expect((await account.call('DELETE', `/tags/${only.id}`)).status).toBe(204);
    expect((await account.call('POST', '/tags', { name: 'second' })).status).toBe(201);
  });
});

describe('GET /tags', () => {
  test('an account without tags gets an empty list and its tag_limit', async () => {
    const account = await createAccount(server);
    const response = await account.call('GET', '/tags');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ tags: [], tag_limit: 25 });
  });

  test('returns all tags, newest first, as full tag objects', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const first = await createTag(account, 'first', 'indigo');
    const second = await createTag(account, 'second', 'violet');
    const third = await createTag(account, 'Third', 'slate');
    const response = await account.call('GET', '/tags');
    expect(response.status).toBe(200);
    expect(response.body.tag_limit).toBe(200);
    expect(response.body.tags).toEqual([third, second, first]);
    expect(third).toEqual({ id: expect.stringMatching(/^tag_/), name: 'Third', color: 'slate', link_count: 0 });
  });

  test('is not paginated', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    for (let i = 0; i < 120; i++) await createTag(account, `t${i}`);
    const list = await listTags(account);
    expect(list.tags).toHaveLength(120);
    expect(list.tags[0]?.name).toBe('t119');
    expect(list.tags[119]?.name).toBe('t0');
  });

  test('link_count counts the live links carrying the tag', async () => {
    const account = await createAccount(server);
    const news = await createTag(account, 'news');
    const promo = await createTag(account, 'promo');
    const idle = await createTag(account, 'idle');
    const one = await createLink(account, { tag_ids: [news.id, promo.id] });
    const two = await createLink(account, { tag_names: ['NEWS'] });
    const three = await createLink(account, { tag_ids: [news.id] });
    await createLink(account, {});

    const counts = async () => Object.fromEntries((await listTags(account)).tags.map((tag) => [tag.name, tag.link_count]));
    expect(await counts()).toEqual({ news: 3, promo: 1, idle: 0 });

    expect((await account.call('DELETE', `/links/${three.id}`)).status).toBe(204);
    expect(await counts()).toEqual({ news: 2, promo: 1, idle: 0 });

    expect((await account.call('PATCH', `/links/${one.id}`, { tag_ids: [idle.id] })).status).toBe(200);
    expect(await counts()).toEqual({ news: 1, promo: 0, idle: 1 });

    expect((await account.call('PATCH', `/links/${two.id}`, { tag_names: [] })).status).toBe(200);
    expect(await counts()).toEqual({ news: 0, promo: 0, idle: 1 });
  });
});

describe('PATCH /tags/{id}', () => {
  async function taggedPair(account: TestAccount) {
    const tag = await createTag(account, 'alpha', 'indigo');
    const other = await createTag(account, 'beta', 'lime');
    const first = await createLink(account, { tag_ids: [tag.id, other.id] });
    const second = await createLink(account, { tag_ids: [tag.id] });
    return { tag, other, first, second };
  }

  test('renames: 200 with the tag object; the new name shows on every link carrying the tag, sorted by name', async () => {
    const account = await createAccount(server);
    const { tag, other, first, second } = await taggedPair(account);
    const response = await account.call('PATCH', `/tags/${tag.id}`, { name: '  zulu  ' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: tag.id, name: 'zulu', color: 'indigo', link_count: 2 });
    expect(await tagById(account, tag.id)).toEqual(response.body);

    const renamed = { id: tag.id, name: 'zulu', color: 'indigo' };
    expect((await account.call('GET', `/links/${first.id}`)).body.tags).toEqual([{ id: other.id, name: 'beta', color: 'lime' }, renamed]);
    expect((await account.call('GET', `/links/${second.id}`)).body.tags).toEqual([renamed]);
    const list = await account.call('GET', '/links');
    for (const link of list.body.links) expect(link.tags).toContainEqual(renamed);
  });

  test('recolours: the name stays, the new colour shows on every link carrying the tag', async () => {
    const account = await createAccount(server);
    const { tag, first, second } = await taggedPair(account);
    const response = await account.call('PATCH', `/tags/${tag.id}`, { color: 'fuchsia' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: tag.id, name: 'alpha', color: 'fuchsia', link_count: 2 });
    for (const link of [first, second]) {
      const fetched = await account.call('GET', `/links/${link.id}`);
      expect(fetched.body.tags).toContainEqual({ id: tag.id, name: 'alpha', color: 'fuchsia' });
    }
  });

  test('renames and recolours at once', async () => {
    const account = await createAccount(server);
    const { tag, second } = await taggedPair(account);
    const response = await account.call('PATCH', `/tags/${tag.id}`, { name: 'Gamma', color: 'slate' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: tag.id, name: 'Gamma', color: 'slate', link_count: 2 });
    expect((await account.call('GET', `/links/${second.id}`)).body.tags).toEqual([{ id: tag.id, name: 'Gamma', color: 'slate' }]);
  });

  test('renaming a tag to another case of its own name is allowed', async () => {
    const account = await createAccount(server);
    const tag = await createTag(account, 'Marketing', 'cyan');
    const response = await account.call('PATCH', `/tags/${tag.id}`, { name: 'MARKETING' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: tag.id, name: 'MARKETING', color: 'cyan', link_count: 0 });
    expect((await account.call('PATCH', `/tags/${tag.id}`, { name: 'MARKETING' })).status).toBe(200);
  });

  test.each([
    ['the same name', 'beta'],
    ['another case', 'BETA'],
    ['another case with surrounding spaces', '  Beta '],
  ])("409 TAG_NAME_TAKEN when renaming to another tag's name in %s, and nothing is saved", async (_why, name) => {
    const account = await createAccount(server);
    const { tag } = await taggedPair(account);
    const response = await account.call('PATCH', `/tags/${tag.id}`, { name, color: 'cyan' });
    expectError(response, 409, 'TAG_NAME_TAKEN');
    expect(await tagById(account, tag.id)).toEqual({ id: tag.id, name: 'alpha', color: 'indigo', link_count: 2 });
  });

  test.each([
    ['neither name nor color', {}, undefined],
    ['neither name nor color, only nulls', { name: null, color: null }, undefined],
    ['name empty', { name: '' }, 'name'],
    ['name blank', { name: '  ' }, 'name'],
    ['name too long', { name: 'n'.repeat(51) }, 'name'],
    ['name not a string', { name: 7 }, 'name'],
    ['name with a line break', { name: 'a\nb' }, 'name'],
    ['name with a control character', { name: 'a\u0001b' }, 'name'],
    ['name with a Unicode line separator', { name: 'a\u2028b' }, 'name'],
    ['colour not one of the six', { color: 'orange' }, 'color'],
    ['valid name but an invalid colour', { name: 'fine', color: 'orange' }, 'color'],
    ['valid colour but an invalid name', { name: 'x'.repeat(51), color: 'slate' }, 'name'],
  ])('422 VALIDATION_ERROR when %s, and nothing is saved', async (_why, body, field) => {
    const account = await createAccount(server);
    const { tag } = await taggedPair(account);
    const response = await account.call('PATCH', `/tags/${tag.id}`, body);
    expectError(response, 422, 'VALIDATION_ERROR', field);
    expect(typeof response.body.field).toBe('string');
    expect(await tagById(account, tag.id)).toEqual({ id: tag.id, name: 'alpha', color: 'indigo', link_count: 2 });
  });

  test('400 INVALID_JSON for a malformed body, and nothing is saved', async () => {
    const account = await createAccount(server);
    const tag = await createTag(account, 'alpha', 'indigo');
    const response = await account.call('PATCH', `/tags/${tag.id}`, '{"name": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'INVALID_JSON', message: expect.any(String) });
    expect(await tagById(account, tag.id)).toEqual(tag);
  });

  test.each([
    ['an unknown tag id', 'tag_doesnotexist0000'],
    ['a link id', 'lnk_doesnotexist0000'],
    ['garbage', 'not-an-id'],
  ])('404 TAG_NOT_FOUND for %s', async (_why, id) => {
    const response = await alice.call('PATCH', `/tags/${id}`, { name: 'whatever' });
    expectError(response, 404, 'TAG_NOT_FOUND');
  });

  test('404 TAG_NOT_FOUND for a deleted tag', async () => {
    const account = await createAccount(server);
    const tag = await createTag(account, 'gone');
    expect((await account.call('DELETE', `/tags/${tag.id}`)).status).toBe(204);
    expectError(await account.call('PATCH', `/tags/${tag.id}`, { name: 'back' }), 404, 'TAG_NOT_FOUND');
    expect(await tagRows(account)).toBe(0);
  });
});

describe('DELETE /tags/{id}', () => {
  test('204 with no body; the tag is detached from every link, which is otherwise unchanged', async () => {
    const account = await createAccount(server);
    const doomed = await createTag(account, 'doomed', 'violet');
    const kept = await createTag(account, 'kept', 'cyan');
    const first = await createLink(account, {
      title: 'First',
      tag_ids: [doomed.id, kept.id],
      comments: 'notes',
      external_id: 'ext-1',
      slug: 'tag-delete-first',
    });
    const second = await createLink(account, { title: 'Second', tag_ids: [doomed.id] });
    const firstBefore = (await account.call('GET', `/links/${first.id}`)).body;
    const secondBefore = (await account.call('GET', `/links/${second.id}`)).body;

    const response = await account.call('DELETE', `/tags/${doomed.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    const firstAfter = await account.call('GET', `/links/${first.id}`);
    expect(firstAfter.status).toBe(200);
    expect(firstAfter.body).toEqual({ ...firstBefore, tags: [{ id: kept.id, name: 'kept', color: 'cyan' }] });
    const secondAfter = await account.call('GET', `/links/${second.id}`);
    expect(secondAfter.status).toBe(200);
    expect(secondAfter.body).toEqual({ ...secondBefore, tags: [] });

    expect(await countRows(server, 'link_tag', `tag_id = '${doomed.id}'`)).toBe(0);
    expect(await countRows(server, 'link', `account_id = '${account.account.id}' and deleted_at is null`)).toBe(2);
    const list = await listTags(account);
    expect(list.tags).toEqual([{ ...kept, link_count: 1 }]);
    const links = await account.call('GET', '/links');
    expect(links.body.total).toBe(2);
  });

  test('404 TAG_NOT_FOUND after deletion, and the name can be used again', async () => {
    const account = await createAccount(server);
    const tag = await createTag(account, 'Reusable');
    expect((await account.call('DELETE', `/tags/${tag.id}`)).status).toBe(204);
    expectError(await account.call('DELETE', `/tags/${tag.id}`), 404, 'TAG_NOT_FOUND');
    const again = await account.call('POST', '/tags', { name: 'reusable' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(tag.id);
  });

  test('a deleted tag can no longer be attached by id', async () => {
    const account = await createAccount(server);
    const tag = await createTag(account, 'gone');
    expect((await account.call('DELETE', `/tags/${tag.id}`)).status).toBe(204);
    const response = await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', tag_ids: [tag.id] });
    expectError(response, 404, 'TAG_NOT_FOUND');
    expect(await countRows(server, 'link', `account_id = '${account.account.id}'`)).toBe(0);
  });

  test.each([
    ['an unknown tag id', 'tag_doesnotexist0000'],
    ['garbage', 'not-an-id'],
  ])('404 TAG_NOT_FOUND for %s, and nothing is deleted', async (_why, id) => {
    const before = await countRows(server, 'tag');
    expectError(await alice.call('DELETE', `/tags/${id}`), 404, 'TAG_NOT_FOUND');
    expect(await countRows(server, 'tag')).toBe(before);
  });
});
