import { createClient, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ApiResponse,
  countRows,
  createAccount,
  createLink,
  inDays,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let alice: TestAccount;
let client: ShortlinksClient;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
  client = createClient({ baseUrl: server.origin, apiKey: alice.key });
});
afterAll(() => server.close());

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const visit = (slug: string) => fetch(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const liveLinksOf = (account: TestAccount) =>
  countRows(server, 'link', `account_id = ${literal(account.account.id)} and deleted_at is null`);

/** A raw call of a tRPC procedure at /trpc (one procedure, not batched). */
async function trpcPost(account: TestAccount, procedure: string, input: unknown): Promise<ApiResponse> {
  const response = await fetch(`${server.origin}/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
    body: typeof input === 'string' ? input : JSON.stringify(input),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body, text };
}

let made = 0;
const newBody = (extra: Record<string, unknown> = {}) => {
  made += 1;
  return { title: `Bulk ${made}`, destination_url: `https://example.com/bulk/${made}`, ...extra };
};

describe('POST /links/bulk', () => {
  test('all created: 201, one result per item in order, each link as POST /links gives it, redirecting at once', async () => {
    const account = await createAccount(server);
    // Visited before it exists, so a remembered "no such slug" would show.
    expect((await visit('bulk-one')).status).toBe(404);
    const bodies = [newBody({ slug: 'bulk-one', tag_names: ['Bulk'] }), newBody(), newBody({ utm: { source: 'mail' } })];
    const response = await account.call('POST', '/links/bulk', { links: bodies });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ succeeded: 3, failed: 0 });
    expect(
      response.body.results.map((result: { index: number; ok: boolean; status: number }) => [result.index, result.ok, result.status]),
    ).toEqual([
      [0, true, 201],
      [1, true, 201],
      [2, true, 201],
    ]);
    const [first, second, third] = response.body.results.map((result: { link: { id: string } }) => result.link);
    expect(first).toMatchObject({ slug: 'bulk-one', title: bodies[0]?.title, click_count: 0, tags: [{ name: 'Bulk' }] });
    expect(second.destination_url).toBe(bodies[1]?.destination_url);
    expect(third.destination_url).toBe(`${bodies[2]?.destination_url}?utm_source=mail`);
    for (const link of [first, second, third]) {
      expect((await account.call('GET', `/links/${link.id}`)).body).toEqual(link);
    }
    const redirect = await visit('bulk-one');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(bodies[0]?.destination_url);
    expect(await liveLinksOf(account)).toBe(3);
  });

  test('some created: 207; each refused item carries the status and error body its single POST /links gives, and saves nothing', async () => {
    const account = await createAccount(server);
    await createLink(account, { slug: 'taken-bulk' });
    const refusedBodies = [
      newBody({ destination_url: 'http://localhost/admin' }),
      newBody({ slug: 'taken-bulk' }),
      newBody({ slug: 'docs' }),
      newBody({ titel: 'typo' }),
      { destination_url: 'https://example.com/untitled' },
      'not an object',
      newBody({ tag_ids: ['tag_unknown'] }),
      newBody({ expires_at: Date.now() - 1000 }),
    ];
    const good = [newBody(), newBody()];
    const response = await account.call('POST', '/links/bulk', { links: [good[0], ...refusedBodies, good[1]] });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ succeeded: 2, failed: refusedBodies.length });
    const results = response.body.results;
    expect(results).toHaveLength(refusedBodies.length + 2);
    expect(results[0]).toMatchObject({ index: 0, ok: true, status: 201, link: { title: good[0]?.title } });
    expect(results.at(-1)).toMatchObject({ index: refusedBodies.length + 1, ok: true, status: 201, link: { title: good[1]?.title } });
    for (const [i, body] of refusedBodies.entries()) {
      // The string item is sent as JSON text, as it is inside the bulk body.
      const single = await account.call('POST', '/links', typeof body === 'string' ? JSON.stringify(body) : body);
      expect(single.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(results[i + 1], JSON.stringify(body)).toEqual({ index: i + 1, ok: false, status: single.status, error: single.body });
    }
    expect(results.slice(1, -1).map((result: { error: { code: string } }) => result.error.code)).toEqual([
      'VALIDATION_ERROR',
      'SLUG_TAKEN',
      'SLUG_INVALID',
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
      'TAG_NOT_FOUND',
      'VALIDATION_ERROR',
    ]);
    expect(results[2].error).toMatchObject({ field: 'slug' });
    expect(await liveLinksOf(account)).toBe(3);
  });

  test('items of one request are done in order: the second with the same slug or external_id gets 409', async () => {
    const account = await createAccount(server);
    const response = await account.call('POST', '/links/bulk', {
      links: [newBody({ slug: 'twice-bulk', external_id: 'same' }), newBody({ slug: 'twice-bulk' }), newBody({ external_id: 'same' })],
    });
    expect(response.status).toBe(207);
    expect(response.body.results.map((result: { status: number }) => result.status)).toEqual([201, 409, 409]);
    expect(response.body.results[1].error).toMatchObject({ code: 'SLUG_TAKEN', field: 'slug' });
    expect(response.body.results[2].error).toMatchObject({ code: 'EXTERNAL_ID_TAKEN', field: 'external_id' });
  });

  test('none created: 422 with the same per-item body, nothing saved', async () => {
    const account = await createAccount(server, { link_limit: 1 });
    await createLink(account);
    const response = await account.call('POST', '/links/bulk', { links: [newBody(), newBody({ title: '' })] });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      succeeded: 0,
      failed: 2,
      results: [
        { index: 0, ok: false, status: 403, error: { code: 'LINK_LIMIT_REACHED' } },
        { index: 1, ok: false, status: 422, error: { code: 'VALIDATION_ERROR', field: 'title' } },
      ],
    });
    expect(await liveLinksOf(account)).toBe(1);
  });

  test.each([
    ['a body that is no object', [], 'body'],
    ['no links', {}, 'links'],
    ['links not an array', { links: 'x' }, 'links'],
    ['0 links', { links: [] }, 'links'],
    ['101 links', { links: Array.from({ length: 101 }, () => ({ title: 'x', destination_url: 'https://example.com/' })) }, 'links'],
    ['an unknown field beside links', { links: [{ title: 'x', destination_url: 'https://example.com/' }], dry_run: true }, 'dry_run'],
  ])('%s: 422 VALIDATION_ERROR for the request, nothing saved', async (_name, body, field) => {
    const account = await createAccount(server);
    const response = await account.call('POST', '/links/bulk', body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), field });
    expect(await liveLinksOf(account)).toBe(0);
  });

  test('101 links: the message says how many are allowed', async () => {
    const response = await alice.call('POST', '/links/bulk', { links: Array.from({ length: 101 }, () => newBody()) });
    expect(response.body.message).toBe('links must hold 1 to 100 items');
  });

  test('malformed JSON is 400 INVALID_JSON', async () => {
    const response = await alice.call('POST', '/links/bulk', '{"links": [');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_JSON');
  });
});

describe('POST /links/bulk: an item nested deep', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  /** 31 arrays inside its object: the most POST /links reads, answered by its rules (utm must be an object). */
  const deepItem = `{"title":"Deep","destination_url":"https://example.com/deep","utm":${nested(31)}}`;
  const bulkOf = (item: string) => `{"links":[${JSON.stringify(newBody())},${item}]}`;

  test('as deep as POST /links reads: refused alone, with its single call’s error, on REST and tRPC', async () => {
    const account = await createAccount(server);
    const single = await account.call('POST', '/links', deepItem);
    expect(single.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'utm' });

    const rest = await account.call('POST', '/links/bulk', bulkOf(deepItem));
    expect(rest.status).toBe(207);
    expect(rest.body.results[1]).toEqual({ index: 1, ok: false, status: single.status, error: single.body });
    const trpc = await trpcPost(account, 'links.bulkCreate', bulkOf(deepItem));
    expect(trpc.status).toBe(207);
    expect((trpc.body as { result: { data: { results: unknown[] } } }).result.data.results[1]).toEqual(rest.body.results[1]);
    expect(await liveLinksOf(account)).toBe(2);
  });

  test('deeper than POST /links reads: the whole request is refused on body, nothing saved', async () => {
    const account = await createAccount(server);
    const tooDeep = `{"title":"Deep","destination_url":"https://example.com/deep","utm":${nested(32)}}`;
    const response = await account.call('POST', '/links/bulk', bulkOf(tooDeep));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringContaining('34 levels'), field: 'body' });
    expect(await liveLinksOf(account)).toBe(0);
  });
});

describe('PATCH /links/bulk', () => {
  test('one change applied to every link named: 200, each updated link, redirects follow at once', async () => {
    const account = await createAccount(server);
    const a = await createLink(account, { slug: 'bulk-patch-a' });
    const b = await createLink(account, { external_id: 'patch-b' });
    // Visited first, so the old destination is in the redirect cache.
    expect((await visit('bulk-patch-a')).headers.get('location')).toBe(a.destination_url);
    const response = await account.call('PATCH', '/links/bulk', {
      ids: [a.id, 'ext_patch-b'],
      changes: { destination_url: 'https://example.com/moved', tag_names: ['Moved'] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ succeeded: 2, failed: 0 });
    expect(response.body.results).toMatchObject([
      {
        index: 0,
        ok: true,
        status: 200,
        id: a.id,
        link: { id: a.id, destination_url: 'https://example.com/moved', tags: [{ name: 'Moved' }] },
      },
      { index: 1, ok: true, status: 200, id: 'ext_patch-b', link: { id: b.id, destination_url: 'https://example.com/moved' } },
    ]);
    expect((await visit('bulk-patch-a')).headers.get('location')).toBe('https://example.com/moved');
  });

  test('an id that names no live link is that item’s 404 LINK_NOT_FOUND (207); the others change', async () => {
    const account = await createAccount(server);
    const other = await createAccount(server);
    const a = await createLink(account);
    const theirs = await createLink(other);
    const response = await account.call('PATCH', '/links/bulk', {
      ids: ['lnk_nothing', a.id, theirs.id, 'plain'],
      changes: { title: 'Renamed' },
    });
    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ succeeded: 1, failed: 3 });
    const notFound = { ok: false, status: 404, error: { code: 'LINK_NOT_FOUND', message: expect.any(String) } };
    expect(response.body.results).toEqual([
      { index: 0, id: 'lnk_nothing', ...notFound },
      expect.objectContaining({ index: 1, ok: true, link: expect.objectContaining({ title: 'Renamed' }) }),
      { index: 2, id: theirs.id, ...notFound },
      { index: 3, id: 'plain', ...notFound },
    ]);
    expect((await other.call('GET', `/links/${theirs.id}`)).body.title).toBe(theirs.title);
  });

  test('a change that depends on the link is judged per link (expiration_url needs an expiry)', async () => {
    const account = await createAccount(server);
    const expiring = await createLink(account, { expires_at: inDays(3) });
    const plain = await createLink(account);
    const response = await account.call('PATCH', '/links/bulk', {
      ids: [expiring.id, plain.id],
      changes: { expiration_url: 'https://example.com/after' },
    });
    const single = await account.call('PATCH', `/links/${plain.id}`, { expiration_url: 'https://example.com/after' });
    expect(response.status).toBe(207);
    expect(response.body.results[0]).toMatchObject({ ok: true, link: { expiration_url: 'https://example.com/after' } });
    expect(response.body.results[1]).toEqual({ index: 1, id: plain.id, ok: false, status: single.status, error: single.body });
  });

  test('every id unknown: 422 with the per-item results', async () => {
    const response = await alice.call('PATCH', '/links/bulk', { ids: ['lnk_a', 'lnk_b'], changes: { title: 'x' } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ succeeded: 0, failed: 2 });
  });

  test.each([
    [
      'the same id twice',
      { ids: ['lnk_a', 'lnk_b', 'lnk_a'], changes: { title: 'x' } },
      'ids',
      'ids[2] repeats ids[0]: name each link once',
    ],
    ['an empty id', { ids: ['lnk_a', ''], changes: { title: 'x' } }, 'ids', 'ids[1] must not be empty'],
    ['an id over 4096 characters', { ids: ['x'.repeat(4097)], changes: { title: 'x' } }, 'ids', 'ids[0] must be at most 4096 characters'],
    ['an id not a string', { ids: ['lnk_a', 5], changes: { title: 'x' } }, 'ids', 'ids[1] must be a string'],
    ['no ids', { ids: [], changes: { title: 'x' } }, 'ids', 'ids must hold 1 to 100 items'],
    ['101 ids', { ids: Array.from({ length: 101 }, (_, i) => `lnk_${i}`), changes: { title: 'x' } }, 'ids', 'ids must hold 1 to 100 items'],
    ['no changes', { ids: ['lnk_a'] }, 'changes', 'changes is required'],
    ['a change breaking its rules', { ids: ['lnk_a'], changes: { title: '' } }, 'changes', 'title must not be empty'],
    ['slug in the changes', { ids: ['lnk_a'], changes: { slug: 'new' } }, 'changes', 'slug cannot be changed after creation'],
  ])('%s: 422 VALIDATION_ERROR for the request, nothing changed', async (_name, body, field, message) => {
    const account = await createAccount(server);
    const link = await createLink(account);
    const response = await account.call('PATCH', '/links/bulk', { ...body, ids: body.ids?.map((id) => (id === 'lnk_a' ? link.id : id)) });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message, field });
    expect((await account.call('GET', `/links/${link.id}`)).body).toEqual(link);
  });
});

describe('one link named twice, by its lnk_ id and by ext_ + its external id', () => {
  const twice = (index: number, earlier: number) => ({
    code: 'VALIDATION_ERROR',
    message: `ids[${index}] names the same link as ids[${earlier}]: name each link once`,
    field: 'ids',
  });

  test('PATCH: 422 VALIDATION_ERROR for the request, as for the same id twice; nothing changed', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { external_id: 'named-twice' });
    const other = await createLink(account);
    const response = await account.call('PATCH', '/links/bulk', {
      ids: [other.id, 'ext_named-twice', link.id],
      changes: { title: 'Twice?' },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(twice(2, 1));
    expect((await account.call('GET', `/links/${link.id}`)).body).toEqual(link);
    expect((await account.call('GET', `/links/${other.id}`)).body).toEqual(other);
  });

  test('DELETE, over REST and tRPC: 422 VALIDATION_ERROR for the request; nothing deleted', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { external_id: 'named-twice' });
    const other = await createLink(account);
    const response = await account.call('DELETE', `/links/bulk?ids=${link.id},${other.id},ext_named-twice`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(twice(2, 0));
    const overTrpc = await trpcPost(account, 'links.bulkDelete', { ids: ['ext_named-twice', link.id] });
    expect(overTrpc.status).toBe(422);
    expect((overTrpc.body as { error: { data: unknown } }).error.data).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      appMessage: twice(1, 0).message,
      field: 'ids',
    });
    expect(await liveLinksOf(account)).toBe(2);
  });

  test('another account’s link, a deleted one, or none: no link, so nothing named twice', async () => {
    const account = await createAccount(server);
    const theirs = await createLink(await createAccount(server), { external_id: 'theirs' });
    const gone = await createLink(account, { external_id: 'gone' });
    await account.call('DELETE', `/links/${gone.id}`);
    const response = await account.call('DELETE', `/links/bulk?ids=${theirs.id},ext_theirs,${gone.id},ext_gone,lnk_none`);
    expect(response.status).toBe(422);
    expect(response.body.results.map((result: { status: number }) => result.status)).toEqual([404, 404, 404, 404, 404]);
  });
});

describe('DELETE /links/bulk', () => {
  test('comma-separated ids: 200, each 204, the short links stop at once', async () => {
    const account = await createAccount(server);
    const a = await createLink(account, { slug: 'bulk-gone-a' });
    const b = await createLink(account, { slug: 'bulk-gone-b' });
    expect((await visit('bulk-gone-a')).status).toBe(302);
    const response = await account.call('DELETE', `/links/bulk?ids=${a.id},${b.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      succeeded: 2,
      failed: 0,
      results: [
        { index: 0, ok: true, status: 204, id: a.id },
        { index: 1, ok: true, status: 204, id: b.id },
      ],
    });
    expect((await visit('bulk-gone-a')).status).toBe(404);
    expect((await account.call('GET', `/links/${b.id}`)).status).toBe(404);
    expect(await liveLinksOf(account)).toBe(0);
  });

  test('repeated ids= name external ids holding a comma; an unknown id is its 404 (207)', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { external_id: 'a,b' });
    const response = await account.call('DELETE', `/links/bulk?ids=${encodeURIComponent('ext_a,b')}&ids=lnk_missing`);
    expect(response.status).toBe(207);
    expect(response.body.results).toEqual([
      { index: 0, ok: true, status: 204, id: 'ext_a,b' },
      { index: 1, ok: false, status: 404, id: 'lnk_missing', error: { code: 'LINK_NOT_FOUND', message: expect.any(String) } },
    ]);
    expect((await account.call('GET', `/links/${link.id}`)).status).toBe(404);
  });

  test('one external id holding a comma, alone: split in a single ids=, named whole with an empty ids= beside it (as documented)', async () => {
    const account = await createAccount(server);
    const link = await createLink(account, { external_id: 'x,y' });
    const split = await account.call('DELETE', `/links/bulk?ids=${encodeURIComponent('ext_x,y')}`);
    expect(split.status).toBe(422);
    expect(split.body.results.map((result: { id: string; status: number }) => [result.id, result.status])).toEqual([
      ['ext_x', 404],
      ['y', 404],
    ]);

    const response = await account.call('DELETE', `/links/bulk?ids=${encodeURIComponent('ext_x,y')}&ids=`);
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([{ index: 0, ok: true, status: 204, id: 'ext_x,y' }]);
    expect((await account.call('GET', `/links/${link.id}`)).status).toBe(404);
  });

  test.each([
    ['no ids', '', 'ids is required'],
    // An empty query value counts as not sent (docs/api-decisions.md).
    ['an empty ids', '?ids=', 'ids is required'],
    ['only commas', '?ids=,,', 'ids must hold 1 to 100 items'],
    ['101 ids', `?ids=${Array.from({ length: 101 }, (_, i) => `lnk_${i}`).join(',')}`, 'ids must hold 1 to 100 items'],
    ['the same id twice', '?ids=lnk_a,lnk_a', 'ids[1] repeats ids[0]: name each link once'],
    ['an id over 4096 characters', `?ids=lnk_a,${'x'.repeat(4097)}`, 'ids[1] must be at most 4096 characters'],
  ])('%s: 422 VALIDATION_ERROR, nothing deleted', async (_name, query, message) => {
    const account = await createAccount(server);
    await createLink(account);
    const response = await account.call('DELETE', `/links/bulk${query}`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message, field: 'ids' });
    expect(await liveLinksOf(account)).toBe(1);
  });
});

describe('the single-link routes beside /links/bulk', () => {
  test('GET /links/bulk is a link id like any other: 404 LINK_NOT_FOUND', async () => {
    const response = await alice.call('GET', '/links/bulk');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('LINK_NOT_FOUND');
  });

  test('PATCH and DELETE /links/{id} still reach the single link', async () => {
    const link = await createLink(alice);
    expect((await alice.call('PATCH', `/links/${link.id}`, { title: 'Single' })).body.title).toBe('Single');
    expect((await alice.call('DELETE', `/links/${link.id}`)).status).toBe(204);
  });
});

describe('bulk calls over tRPC and the typed client', () => {
  test('tRPC answers the same statuses and results as REST (201, 207, 422)', async () => {
    const account = await createAccount(server, { link_limit: 2 });
    const all = await trpcPost(account, 'links.bulkCreate', { links: [newBody()] });
    expect(all.status).toBe(201);
    expect((all.body as { result: { data: unknown } }).result.data).toMatchObject({ succeeded: 1, failed: 0 });
    const some = await trpcPost(account, 'links.bulkCreate', { links: [newBody(), newBody()] });
    expect(some.status).toBe(207);
    expect((some.body as { result: { data: unknown } }).result.data).toMatchObject({
      succeeded: 1,
      failed: 1,
      results: [{ ok: true }, { ok: false, status: 403, error: { code: 'LINK_LIMIT_REACHED' } }],
    });
    const none = await trpcPost(account, 'links.bulkCreate', { links: [newBody()] });
    expect(none.status).toBe(422);
    expect((none.body as { result: { data: unknown } }).result.data).toMatchObject({ succeeded: 0, failed: 1 });
  });

  test('the client resolves with every item’s result, all, some or none done', async () => {
    const account = await createAccount(server, { link_limit: 2 });
    const sdk = createClient({ baseUrl: server.origin, apiKey: account.key });
    const some = await sdk.links.bulkCreate({ links: [newBody({ external_id: 'sdk-1' }), newBody({ slug: 'docs' }), newBody()] });
    expect(some).toMatchObject({ succeeded: 2, failed: 1 });
    const refused = some.results[1];
    if (refused?.ok !== false) throw new Error('item 1 should be refused');
    expect(refused).toMatchObject({ status: 422, error: { code: 'SLUG_INVALID', field: 'slug' } });
    const none = await sdk.links.bulkCreate({ links: [newBody()] });
    expect(none).toMatchObject({ succeeded: 0, failed: 1, results: [{ ok: false, status: 403, error: { code: 'LINK_LIMIT_REACHED' } }] });

    const created = some.results.flatMap((result) => (result.ok ? [result.link] : []));
    const updated = await sdk.links.bulkUpdate({ ids: [...created.map((link) => link.id), 'lnk_missing'], changes: { comments: 'bulk' } });
    expect(updated).toMatchObject({ succeeded: 2, failed: 1 });
    expect(updated.results.map((result) => (result.ok ? result.link.comments : result.error.code))).toEqual([
      'bulk',
      'bulk',
      'LINK_NOT_FOUND',
    ]);

    const deleted = await sdk.links.bulkDelete({ ids: ['ext_sdk-1', created[1]?.id ?? ''] });
    expect(deleted).toEqual({
      succeeded: 2,
      failed: 0,
      results: [
        { index: 0, ok: true, status: 204, id: 'ext_sdk-1' },
        { index: 1, ok: true, status: 204, id: created[1]?.id },
      ],
    });
  });

  test('the client rejects a request refused as a whole with ShortlinksError VALIDATION_ERROR', async () => {
    const error = await client.links.bulkCreate({ links: [] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ShortlinksError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'links', status: 422 });
  });
});

/** A link body with every field at its longest, in 4-byte characters where text may hold them. */
function maximalBody(i: number) {
  const rocket = '🚀';
  const tag = (n: number) => `${n}${rocket.repeat(49)}`;
  return {
    title: rocket.repeat(200),
    destination_url: `https://example.com/${i}/`.padEnd(2048, 'a'),
    slug: `max-${i}-`.padEnd(64, 'x'),
    tag_names: Array.from({ length: 10 }, (_, n) => tag(n)),
    comments: rocket.repeat(2048),
    expires_at: inDays(30),
    expiration_url: `https://example.org/${i}/`.padEnd(2048, 'b'),
    external_id: `${i}-`.padEnd(255, 'e'),
  };
}

describe('the body limit of bulk calls', () => {
  test('100 maximal links (about 1.6 MB) are accepted on REST and tRPC', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const rest = { links: Array.from({ length: 100 }, (_, i) => maximalBody(i)) };
    const size = Buffer.byteLength(JSON.stringify(rest));
    expect(size).toBeGreaterThan(1_500_000);
    const response = await account.call('POST', '/links/bulk', rest);
    expect(response.status, JSON.stringify(response.body.results?.find((result: { ok: boolean }) => !result.ok))).toBe(201);
    expect(response.body.succeeded).toBe(100);

    const viaTrpc = await trpcPost(account, 'links.bulkCreate', { links: Array.from({ length: 100 }, (_, i) => maximalBody(100 + i)) });
    expect(viaTrpc.status).toBe(201);
    expect(await liveLinksOf(account)).toBe(200);
  }, 60_000);

  test('a body over the bulk limit is 413 PAYLOAD_TOO_LARGE on REST and tRPC, nothing saved', async () => {
    const account = await createAccount(server);
    const padding = 'x'.repeat(101 * 64 * 1024 + 1);
    const body = JSON.stringify({ links: [{ title: padding, destination_url: 'https://example.com/' }] });
    const rest = await account.call('POST', '/links/bulk', body);
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    const viaTrpc = await trpcPost(account, 'links.bulkCreate', body);
    expect(viaTrpc.status).toBe(413);
    expect((viaTrpc.body as { error: { data: unknown } }).error.data).toMatchObject({ appCode: 'PAYLOAD_TOO_LARGE', httpStatus: 413 });
    expect(await liveLinksOf(account)).toBe(0);
  });

  test('other routes keep the usual 64 KiB limit', async () => {
    const link = await createLink(alice);
    const big = { title: 'x'.repeat(70 * 1024) };
    const patch = await alice.call('PATCH', `/links/${link.id}`, big);
    expect(patch.status).toBe(413);
    const create = await alice.call('POST', '/links', { ...big, destination_url: 'https://example.com/' });
    expect(create.status).toBe(413);
    const upsert = await trpcPost(alice, 'links.create', { ...big, destination_url: 'https://example.com/' });
    expect(upsert.status).toBe(413);
    // A tRPC batch holding a bulk call is read with the usual limit too.
    const batch = await trpcPost(alice, 'links.bulkCreate,links.list?batch=1', {
      0: { links: [{ ...big, destination_url: 'https://example.com/' }] },
    });
    expect(batch.status).toBe(413);
  });
});
