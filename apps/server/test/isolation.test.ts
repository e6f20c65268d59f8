import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;
// biome-ignore lint/suspicious/noExplicitAny: response bodies
let aliceTag: any, alicePrivateTag: any, aliceLink: any, aliceOtherLink: any, bobTag: any, bobLink: any;
let aliceBefore: Awaited<ReturnType<typeof aliceState>>;

const ALICE_EXTERNAL_ID = 'crm-1';
const ALICE_ODD_EXTERNAL_ID = 'order/42? x&y';
const ALICE_SLUG = 'alice-owned';
const ALICE_DESTINATION = 'https://example.com/alice';

/** Everything Alice can see, through her own GETs, plus her rows in the database. */
async function aliceState() {
  const get = async (path: string) => {
    const response = await alice.call('GET', path);
    return { status: response.status, body: response.body };
  };
  return {
    list: await get('/links'),
    tags: await get('/tags'),
    link: await get(`/links/${aliceLink.id}`),
    linkByExternalId: await get(`/links/ext_${ALICE_EXTERNAL_ID}`),
    otherLinkByExternalId: await get(`/links/ext_${encodeURIComponent(ALICE_ODD_EXTERNAL_ID)}`),
    filtered: await get(`/links?tag_ids=${aliceTag.id}`),
    liveLinks: await countRows(server, 'link', `account_id = '${alice.account.id}' and deleted_at is null`),
    tagRows: await countRows(server, 'tag', `account_id = '${alice.account.id}'`),
    linkTags: await countRows(server, 'link_tag', `link_id in ('${aliceLink.id}', '${aliceOtherLink.id}')`),
  };
}

async function expectAliceUnchanged() {
  expect(await aliceState()).toEqual(aliceBefore);
}

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ code, message: expect.any(String) });
  expect(Object.keys(response.body).filter((key) => !['code', 'message', 'field'].includes(key))).toEqual([]);
}

async function post(account: TestAccount, path: string, body: unknown) {
  const response = await account.call('POST', path, body);
  expect(response.status).toBe(201);
  return response.body;
}

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
  bob = await createAccount(server);
  aliceTag = await post(alice, '/tags', { name: 'Shared', color: 'lime' });
  alicePrivateTag = await post(alice, '/tags', { name: 'Private', color: 'violet' });
  aliceLink = await post(alice, '/links', {
    title: 'Alice link',
    destination_url: ALICE_DESTINATION,
    slug: ALICE_SLUG,
    external_id: ALICE_EXTERNAL_ID,
    comments: 'private notes',
    tag_ids: [aliceTag.id, alicePrivateTag.id],
  });
  aliceOtherLink = await post(alice, '/links', {
    title: 'Alice other link',
    destination_url: 'https://example.com/alice-other',
    external_id: ALICE_ODD_EXTERNAL_ID,
    tag_ids: [aliceTag.id],
  });
  bobTag = await post(bob, '/tags', { name: 'Bobs', color: 'cyan' });
  bobLink = await post(bob, '/links', { title: 'Bob link', destination_url: 'https://example.com/bob', tag_ids: [bobTag.id] });
  aliceBefore = await aliceState();
  // The snapshot itself must show Alice's data, or comparing against it proves nothing.
  expect(aliceBefore.link.status).toBe(200);
  expect(aliceBefore.linkByExternalId.body.id).toBe(aliceLink.id);
  expect(aliceBefore.otherLinkByExternalId.body.id).toBe(aliceOtherLink.id);
  expect(aliceBefore.list.body.total).toBe(2);
  expect(aliceBefore.tags.body.tags).toHaveLength(2);
  expect(aliceBefore.filtered.body.total).toBe(2);
});
afterAll(() => server.close());

/** Addresses of Alice's link, each checked to work for Alice. */
const aliceLinkPaths: [string, () => string][] = [
  ['its lnk_ id', () => `/links/${aliceLink.id}`],
  ['ext_ and its external_id', () => `/links/ext_${ALICE_EXTERNAL_ID}`],
  ['ext_ and its URL-encoded external_id', () => `/links/ext_${encodeURIComponent(ALICE_ODD_EXTERNAL_ID)}`],
];

describe("Bob cannot see Alice's data", () => {
  test("GET /links lists only Bob's links", async () => {
    const response = await bob.call('GET', '/links');
    expect(response.status).toBe(200);
    expect(response.body.links.map((link: { id: string }) => link.id)).toEqual([bobLink.id]);
    expect(response.body.total).toBe(1);
  });

  test("GET /tags lists only Bob's tags, with link counts of his own links", async () => {
    const response = await bob.call('GET', '/tags');
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([{ ...bobTag, link_count: 1 }]);
  });

  test.each(aliceLinkPaths)('GET /links/{id} by %s → 404 LINK_NOT_FOUND (Alice gets 200 on the same path)', async (_how, path) => {
    expectError(await bob.call('GET', path()), 404, 'LINK_NOT_FOUND');
    const own = await alice.call('GET', path());
    expect(own.status).toBe(200);
    expect([aliceLink.id, aliceOtherLink.id]).toContain(own.body.id);
  });

  test("filtering by Alice's tag lists nothing, as for a nonexistent tag", async () => {
    const response = await bob.call('GET', `/links?tag_ids=${aliceTag.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ links: [], total: 0 });
    const unknown = await bob.call('GET', '/links?tag_ids=tag_doesnotexist0000');
    expect({ status: response.status, body: response.body }).toEqual({ status: unknown.status, body: unknown.body });
  });

  test("filtering by Alice's tag and his own lists only his own link", async () => {
    const response = await bob.call('GET', `/links?tag_ids=${aliceTag.id},${bobTag.id}`);
    expect(response.status).toBe(200);
    expect(response.body.links.map((link: { id: string }) => link.id)).toEqual([bobLink.id]);
    expect(response.body.total).toBe(1);
  });
});

describe("Bob cannot change Alice's links", () => {
  test.each(aliceLinkPaths)('PATCH /links/{id} by %s → 404 LINK_NOT_FOUND, nothing changes', async (_how, path) => {
    const response = await bob.call('PATCH', path(), {
      title: 'Bob was here',
      destination_url: 'https://example.com/bob-was-here',
      comments: null,
      tag_ids: [],
    });
    expectError(response, 404, 'LINK_NOT_FOUND');
    await expectAliceUnchanged();
  });

  test.each(aliceLinkPaths)('DELETE /links/{id} by %s → 404 LINK_NOT_FOUND, nothing changes', async (_how, path) => {
    expectError(await bob.call('DELETE', path()), 404, 'LINK_NOT_FOUND');
    await expectAliceUnchanged();
  });

  test("upsert with Alice's destination and external_id does not match her link: another account gets a new link of its own", async () => {
    const carol = await createAccount(server);
    const response = await carol.call('POST', '/links/upsert', {
      title: 'Carol copy',
      destination_url: ALICE_DESTINATION,
      external_id: ALICE_EXTERNAL_ID,
      comments: 'carol notes',
    });
    expect(response.status).toBe(201);
    expect(response.body.created).toBe(true);
    expect(response.body.id).not.toBe(aliceLink.id);
    expect(response.body.slug).not.toBe(ALICE_SLUG);
    expect(response.body).toMatchObject({
      title: 'Carol copy',
      destination_url: ALICE_DESTINATION,
      external_id: ALICE_EXTERNAL_ID,
      click_count: 0,
    });
    await expectAliceUnchanged();
  });

  test("upsert with Alice's destination and Alice's tag id → 404 TAG_NOT_FOUND, nothing saved", async () => {
    const linksBefore = await countRows(server, 'link', `account_id = '${bob.account.id}'`);
    const response = await bob.call('POST', '/links/upsert', { title: 'x', destination_url: ALICE_DESTINATION, tag_ids: [aliceTag.id] });
    expectError(response, 404, 'TAG_NOT_FOUND');
    expect(await countRows(server, 'link', `account_id = '${bob.account.id}'`)).toBe(linksBefore);
    await expectAliceUnchanged();
  });
});

describe("Bob cannot use or change Alice's tags", () => {
  test.each([
    ['rename', 'PATCH', { name: 'Hijacked' }],
    ['recolour', 'PATCH', { color: 'slate' }],
    ['rename and recolour', 'PATCH', { name: 'Hijacked', color: 'slate' }],
    ['delete', 'DELETE', undefined],
  ])('%s by tag_ id → 404 TAG_NOT_FOUND, nothing changes', async (_what, method, body) => {
    expectError(await bob.call(method, `/tags/${aliceTag.id}`, body), 404, 'TAG_NOT_FOUND');
    await expectAliceUnchanged();
  });

  test("renaming an own tag to Alice's tag name is allowed and touches nothing of hers", async () => {
    const carol = await createAccount(server);
    const own = await post(carol, '/tags', { name: 'Mine' });
    const response = await carol.call('PATCH', `/tags/${own.id}`, { name: 'shared' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: own.id, name: 'shared' });
    await expectAliceUnchanged();
  });

  test.each<[string, string, () => string, Record<string, unknown>]>([
    ['POST /links', 'POST', () => '/links', { title: 'x', destination_url: 'https://example.com/attach-1' }],
    ['POST /links/upsert (new link)', 'POST', () => '/links/upsert', { title: 'x', destination_url: 'https://example.com/attach-2' }],
    ['POST /links/upsert (matching his link)', 'POST', () => '/links/upsert', { title: 'x', destination_url: 'https://example.com/bob' }],
    ['PATCH /links/{id} of his link', 'PATCH', () => `/links/${bobLink.id}`, { title: 'x' }],
  ])("attaching Alice's tag by id on %s → 404 TAG_NOT_FOUND, nothing saved", async (_where, method, path, body) => {
    const bobBefore = {
      links: await countRows(server, 'link', `account_id = '${bob.account.id}'`),
      tags: await countRows(server, 'tag', `account_id = '${bob.account.id}'`),
      link: (await bob.call('GET', `/links/${bobLink.id}`)).body,
    };
    for (const tagIds of [[aliceTag.id], [bobTag.id, aliceTag.id]]) {
      const response = await bob.call(method, path(), { ...body, tag_ids: tagIds, tag_names: ['would-be-created'] });
      expectError(response, 404, 'TAG_NOT_FOUND');
    }
    expect({
      links: await countRows(server, 'link', `account_id = '${bob.account.id}'`),
      tags: await countRows(server, 'tag', `account_id = '${bob.account.id}'`),
      link: (await bob.call('GET', `/links/${bobLink.id}`)).body,
    }).toEqual(bobBefore);
    expect(bobBefore.link.tags).toEqual([{ id: bobTag.id, name: 'Bobs', color: 'cyan' }]);
    await expectAliceUnchanged();
  });

  test("tag_names matching Alice's tag names create tags of the caller's own instead of attaching hers", async () => {
    const carol = await createAccount(server);
    const link = await post(carol, '/links', { title: 'x', destination_url: 'https://example.com/c', tag_names: ['SHARED', 'private'] });
    const ids = link.tags.map((tag: { id: string }) => tag.id);
    expect(ids).not.toContain(aliceTag.id);
    expect(ids).not.toContain(alicePrivateTag.id);
    expect(link.tags.map((tag: { name: string }) => tag.name)).toEqual(['private', 'SHARED']);
    expect(await countRows(server, 'tag', `account_id = '${carol.account.id}'`)).toBe(2);
    await expectAliceUnchanged();
  });
});

describe('uniqueness is per account', () => {
  test("another account may use Alice's external_id, and ext_ paths then address its own link only", async () => {
    const carol = await createAccount(server);
    const created = await carol.call('POST', '/links', {
      title: 'Carol link',
      destination_url: 'https://example.com/carol',
      external_id: ALICE_ODD_EXTERNAL_ID,
    });
    expect(created.status).toBe(201);
    expect(created.body.external_id).toBe(ALICE_ODD_EXTERNAL_ID);
    const path = `/links/ext_${encodeURIComponent(ALICE_ODD_EXTERNAL_ID)}`;

    const fetched = await carol.call('GET', path);
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(created.body.id);

    const patched = await carol.call('PATCH', path, { title: 'Carol renamed' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, title: 'Carol renamed' });

    expect((await carol.call('DELETE', path)).status).toBe(204);
    expectError(await carol.call('GET', path), 404, 'LINK_NOT_FOUND');
    await expectAliceUnchanged();
  });

  test("another account may create a tag with Alice's tag name in any case", async () => {
    const carol = await createAccount(server);
    const response = await carol.call('POST', '/tags', { name: 'SHARED' });
    expect(response.status).toBe(201);
    expect(response.body.id).not.toBe(aliceTag.id);
    const tagged = await post(carol, '/links', { title: 'x', destination_url: 'https://example.com/ct', tag_ids: [response.body.id] });
    expect(tagged.tags).toEqual([{ id: response.body.id, name: 'SHARED', color: response.body.color }]);
    await expectAliceUnchanged();
  });
});

describe('slugs are global', () => {
  test.each([
    ['POST /links', '/links'],
    ['POST /links/upsert', '/links/upsert'],
  ])("%s with Alice's slug → 409 SLUG_TAKEN, nothing saved", async (_name, path) => {
    const before = await countRows(server, 'link', `account_id = '${bob.account.id}'`);
    const tagsBefore = await countRows(server, 'tag', `account_id = '${bob.account.id}'`);
    const response = await bob.call('POST', path, {
      title: 'Bob',
      destination_url: 'https://example.com/bob-slug',
      slug: ALICE_SLUG,
      tag_names: ['slug-tag'],
    });
    expectError(response, 409, 'SLUG_TAKEN');
    expect(await countRows(server, 'link', `account_id = '${bob.account.id}'`)).toBe(before);
    expect(await countRows(server, 'tag', `account_id = '${bob.account.id}'`)).toBe(tagsBefore);
    await expectAliceUnchanged();
  });
});

describe('over tRPC as well', () => {
  /** A tRPC call as @shortlinks/client makes it: queries by GET with `input`, mutations by POST. */
  async function trpc(account: TestAccount, kind: 'query' | 'mutation', procedure: string, input: unknown) {
    const url = `${server.origin}/trpc/${procedure}`;
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    const response =
      kind === 'query'
        ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
        : await fetch(url, { method: 'POST', headers, body: JSON.stringify(input) });
    // biome-ignore lint/suspicious/noExplicitAny: tRPC envelopes
    return { status: response.status, body: (await response.json()) as any };
  }

  const aliceIds: [string, () => string][] = [
    ['lnk_ id', () => aliceLink.id],
    ['ext_ id', () => `ext_${ALICE_EXTERNAL_ID}`],
    ['ext_ id with / ? and spaces (sent as data, not encoded)', () => `ext_${ALICE_ODD_EXTERNAL_ID}`],
  ];

  test.each(aliceIds)("links.get, links.update and links.delete by Alice's %s → 404 LINK_NOT_FOUND, nothing changes", async (_how, id) => {
    for (const [kind, procedure, input] of [
      ['query', 'links.get', { id: id() }],
      ['mutation', 'links.update', { id: id(), title: 'Bob was here', tag_ids: [] }],
      ['mutation', 'links.delete', { id: id() }],
    ] as const) {
      const response = await trpc(bob, kind, procedure, input);
      expect(response.status, procedure).toBe(404);
      expect(response.body.error.data.appCode, procedure).toBe('LINK_NOT_FOUND');
    }
    await expectAliceUnchanged();
  });

  test("tags.update and tags.delete of Alice's tag → 404 TAG_NOT_FOUND; attaching it → 404 TAG_NOT_FOUND; nothing changes", async () => {
    for (const [procedure, input] of [
      ['tags.update', { id: aliceTag.id, name: 'Hijacked' }],
      ['tags.delete', { id: aliceTag.id }],
      ['links.create', { title: 'x', destination_url: 'https://example.com/t1', tag_ids: [aliceTag.id] }],
      ['links.upsert', { title: 'x', destination_url: 'https://example.com/bob', tag_ids: [aliceTag.id] }],
      ['links.update', { id: bobLink.id, tag_ids: [aliceTag.id] }],
    ] as const) {
      const response = await trpc(bob, 'mutation', procedure, input);
      expect(response.status, procedure).toBe(404);
      expect(response.body.error.data.appCode, procedure).toBe('TAG_NOT_FOUND');
    }
    await expectAliceUnchanged();
  });

  test('links.list and tags.list show only his own, filtered by her tag or not', async () => {
    const list = await trpc(bob, 'query', 'links.list', {});
    expect(list.body.result.data.links.map((link: { id: string }) => link.id)).toEqual([bobLink.id]);
    const filtered = await trpc(bob, 'query', 'links.list', { tag_ids: [aliceTag.id] });
    expect(filtered.body.result.data).toMatchObject({ links: [], total: 0 });
    const tags = await trpc(bob, 'query', 'tags.list', {});
    expect(tags.body.result.data.tags.map((tag: { id: string }) => tag.id)).toEqual([bobTag.id]);
  });
});

describe("Alice's links and tags never count toward another account's limits", () => {
  test('an account with link_limit 1 and tag_limit 1 can still create one of each, and sees only its own totals', async () => {
    const dave = await createAccount(server, { link_limit: 1, tag_limit: 1 });
    const tag = await dave.call('POST', '/tags', { name: 'Shared' });
    expect(tag.status).toBe(201);
    const link = await dave.call('POST', '/links', { title: 'Dave', destination_url: ALICE_DESTINATION });
    expect(link.status).toBe(201);
    expect((await dave.call('GET', '/links')).body).toMatchObject({ total: 1, link_limit: 1 });
    expect((await dave.call('GET', '/tags')).body).toMatchObject({ tag_limit: 1, tags: [{ id: tag.body.id, link_count: 0 }] });
    expect((await dave.call('POST', '/links', { title: 'Second', destination_url: 'https://example.com/d2' })).body.code).toBe(
      'LINK_LIMIT_REACHED',
    );
    await expectAliceUnchanged();
  });
});

describe("Alice's data afterwards", () => {
  test('is exactly as before, and still fully usable by Alice', async () => {
    await expectAliceUnchanged();
    expect(aliceBefore.link.body).toMatchObject({
      id: aliceLink.id,
      title: 'Alice link',
      destination_url: ALICE_DESTINATION,
      slug: ALICE_SLUG,
      external_id: ALICE_EXTERNAL_ID,
      comments: 'private notes',
      tags: [
        { id: alicePrivateTag.id, name: 'Private', color: 'violet' },
        { id: aliceTag.id, name: 'Shared', color: 'lime' },
      ],
    });
    expect(aliceBefore.tags.body.tags).toEqual([
      { ...alicePrivateTag, link_count: 1 },
      { ...aliceTag, link_count: 2 },
    ]);
    const renamed = await alice.call('PATCH', `/tags/${aliceTag.id}`, { name: 'Shared renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.link_count).toBe(2);
  });
});
