import { createServer } from 'node:net';
import { createClient, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let alice: TestAccount;
let client: ShortlinksClient;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
  client = createClient({ baseUrl: server.origin, apiKey: alice.key });
});
afterAll(() => server.close());

/** The ShortlinksError a call rejected with (fails the test when it resolved or threw something else). */
async function failure(call: Promise<unknown>): Promise<ShortlinksError> {
  const outcome = await call.then(
    (value) => ({ resolved: true as const, value }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error(`expected the call to fail, it returned ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ShortlinksError);
  return outcome.error as ShortlinksError;
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve, reject) => probe.close((error) => (error ? reject(error) : resolve())));
  return address.port;
}

/** A raw call of a tRPC procedure at /trpc (one procedure, not batched). */
async function trpcPost(procedure: string, input: unknown, key: string | null = alice.key) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${server.origin}/trpc/${procedure}`, { method: 'POST', headers, body: JSON.stringify(input) });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  const body: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, body, text };
}

describe('the typed client returns what the REST API returns', () => {
  test('links.create, then get by id, equal the REST GET', async () => {
    const created = await client.links.create({
      title: '  Client launch ',
      destination_url: 'https://example.com/client',
      utm: { source: 'sdk' },
      tag_names: ['Client', 'alpha'],
      comments: 'notes',
      external_id: 'client-1',
    });
    expect(created.id).toMatch(/^lnk_/);
    expect(created).toMatchObject({
      title: 'Client launch',
      destination_url: 'https://example.com/client?utm_source=sdk',
      comments: 'notes',
      external_id: 'client-1',
      click_count: 0,
    });
    expect(created.tags.map((tag) => tag.name)).toEqual(['alpha', 'Client']);

    const rest = await alice.call('GET', `/links/${created.id}`);
    expect(rest.status).toBe(200);
    expect(created).toEqual(rest.body);
    expect(await client.links.get(created.id)).toEqual(rest.body);
    expect(await client.links.get('ext_client-1')).toEqual(rest.body);
  });

  test('links.list equals GET /links with the same page and filter', async () => {
    const tag = await client.tags.create({ name: 'listed' });
    await client.links.create({ title: 'L1', destination_url: 'https://example.com/l1', tag_ids: [tag.id] });
    await client.links.create({ title: 'L2', destination_url: 'https://example.com/l2' });

    const all = await client.links.list({ per_page: 100 });
    const restAll = await alice.call('GET', '/links?per_page=100');
    expect(restAll.status).toBe(200);
    expect(all).toEqual(restAll.body);
    expect(all.total).toBeGreaterThanOrEqual(2);

    const page = await client.links.list({ page: 2, per_page: 1 });
    expect(page).toEqual((await alice.call('GET', '/links?page=2&per_page=1')).body);

    const filtered = await client.links.list({ tag_ids: [tag.id] });
    const restFiltered = await alice.call('GET', `/links?tag_ids=${tag.id}`);
    expect(filtered).toEqual(restFiltered.body);
    expect(filtered.links.map((link) => link.title)).toEqual(['L1']);

    const defaults = await client.links.list();
    expect(defaults).toEqual((await alice.call('GET', '/links')).body);
    expect(defaults).toMatchObject({ page: 1, per_page: 20 });
  });

  test('links.update returns the updated link, equal to the REST GET', async () => {
    const link = await client.links.create({ title: 'Before', destination_url: 'https://example.com/before', tag_names: ['old'] });
    const updated = await client.links.update({
      id: link.id,
      title: 'After',
      destination_url: 'https://example.com/after',
      utm: { campaign: 'c' },
      tag_names: ['new'],
      comments: 'changed',
    });
    expect(updated).toMatchObject({
      id: link.id,
      slug: link.slug,
      title: 'After',
      destination_url: 'https://example.com/after?utm_campaign=c',
      comments: 'changed',
    });
    expect(updated.tags.map((tag) => tag.name)).toEqual(['new']);
    expect(updated).toEqual((await alice.call('GET', `/links/${link.id}`)).body);

    const cleared = await client.links.update({ id: link.id, comments: null, tag_ids: [] });
    expect(cleared).not.toHaveProperty('comments');
    expect(cleared.tags).toEqual([]);
    expect(cleared).toEqual((await alice.call('GET', `/links/${link.id}`)).body);
  });

  test('links.delete resolves with nothing and the link is gone from REST', async () => {
    const link = await client.links.create({ title: 'Doomed', destination_url: 'https://example.com/doomed' });
    await expect(client.links.delete(link.id)).resolves.toBeUndefined();
    const rest = await alice.call('GET', `/links/${link.id}`);
    expect(rest.status).toBe(404);
    expect(rest.body.code).toBe('LINK_NOT_FOUND');
  });

  test('links.upsert creates (created: true), then matches (created: false); both equal the REST GET plus created', async () => {
    const body = { title: 'Upserted', destination_url: 'https://example.com/upsert', utm: { campaign: 'sdk' } };
    const first = await client.links.upsert(body);
    expect(first.created).toBe(true);
    const afterFirst = await alice.call('GET', `/links/${first.id}`);
    expect(first).toEqual({ ...afterFirst.body, created: true });

    const second = await client.links.upsert({ ...body, title: 'Renamed', external_id: 'ups-1' });
    expect(second.created).toBe(false);
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ title: 'Renamed', external_id: 'ups-1' });
    const afterSecond = await alice.call('GET', `/links/${first.id}`);
    expect(second).toEqual({ ...afterSecond.body, created: false });
  });

  test('tags create, list, update and delete equal the REST answers', async () => {
    const account = await createAccount(server);
    const own = createClient({ baseUrl: server.origin, apiKey: account.key });

    const created = await own.tags.create({ name: ' Beta ', color: 'cyan' });
    expect(created).toMatchObject({ name: 'Beta', color: 'cyan', link_count: 0 });
    expect(created.id).toMatch(/^tag_/);
    const second = await own.tags.create({ name: 'Gamma' });

    const listed = await own.tags.list();
    const restList = await account.call('GET', '/tags');
    expect(restList.status).toBe(200);
    expect(listed).toEqual(restList.body);
    expect(listed.tags.map((tag) => tag.id)).toEqual([second.id, created.id]);
    expect(listed.tags).toContainEqual(created);

    const updated = await own.tags.update({ id: created.id, name: 'Delta', color: 'slate' });
    expect(updated).toEqual({ ...created, name: 'Delta', color: 'slate' });
    expect((await account.call('GET', '/tags')).body.tags).toContainEqual(updated);

    await expect(own.tags.delete(created.id)).resolves.toBeUndefined();
    const afterDelete = await own.tags.list();
    expect(afterDelete).toEqual((await account.call('GET', '/tags')).body);
    expect(afterDelete.tags.map((tag) => tag.id)).toEqual([second.id]);
  });

  test('external ids are passed unencoded: ext_ with "a/b c?" gets, updates and deletes the link', async () => {
    const externalId = 'a/b c?';
    const link = await client.links.create({ title: 'Odd id', destination_url: 'https://example.com/odd', external_id: externalId });
    expect(link.external_id).toBe(externalId);

    const rest = await alice.call('GET', `/links/ext_${encodeURIComponent(externalId)}`);
    expect(rest.status).toBe(200);
    expect(await client.links.get(`ext_${externalId}`)).toEqual(rest.body);

    const updated = await client.links.update({ id: `ext_${externalId}`, title: 'Odd id, renamed' });
    expect(updated).toMatchObject({ id: link.id, title: 'Odd id, renamed', external_id: externalId });

    await client.links.delete(`ext_${externalId}`);
    expect((await alice.call('GET', `/links/${link.id}`)).status).toBe(404);
    const gone = await failure(client.links.get(`ext_${externalId}`));
    expect(gone).toMatchObject({ code: 'LINK_NOT_FOUND', status: 404 });
  });
});

describe('client errors are ShortlinksError with the spec code, field and status', () => {
  test('VALIDATION_ERROR on title, 422, and nothing saved', async () => {
    const before = await countRows(server, 'link');
    const error = await failure(client.links.create({ title: '   ', destination_url: 'https://example.com/' }));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'title', status: 422 });
    expect(error.message).toEqual(expect.any(String));
    expect(await countRows(server, 'link')).toBe(before);
    // The REST twin of the same request answers the same.
    const rest = await alice.call('POST', '/links', { title: '   ', destination_url: 'https://example.com/' });
    expect(rest.status).toBe(error.status);
    expect(rest.body).toMatchObject({ code: error.code, field: error.field });
  });

  test('VALIDATION_ERROR on destination_url for a blocked destination', async () => {
    const error = await failure(client.links.create({ title: 'x', destination_url: 'http://localhost/' }));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'destination_url', status: 422 });
  });

  test('SLUG_INVALID 422 on slug', async () => {
    const error = await failure(client.links.create({ title: 'x', destination_url: 'https://example.com/', slug: 'has space' }));
    expect(error).toMatchObject({ code: 'SLUG_INVALID', field: 'slug', status: 422 });
  });

  test('SLUG_TAKEN 409', async () => {
    await client.links.create({ title: 'x', destination_url: 'https://example.com/s1', slug: 'client-taken' });
    const error = await failure(client.links.create({ title: 'y', destination_url: 'https://example.com/s2', slug: 'client-taken' }));
    expect(error).toMatchObject({ code: 'SLUG_TAKEN', status: 409 });
  });

  test('EXTERNAL_ID_TAKEN 409', async () => {
    await client.links.create({ title: 'x', destination_url: 'https://example.com/e1', external_id: 'dup-ext' });
    const error = await failure(client.links.create({ title: 'y', destination_url: 'https://example.com/e2', external_id: 'dup-ext' }));
    expect(error).toMatchObject({ code: 'EXTERNAL_ID_TAKEN', status: 409 });
  });

  test('LINK_NOT_FOUND 404 for get, update and delete', async () => {
    for (const call of [
      () => client.links.get('lnk_doesnotexist'),
      () => client.links.update({ id: 'lnk_doesnotexist', title: 'x' }),
      () => client.links.delete('lnk_doesnotexist'),
      () => client.links.get('ext_no-such-external-id'),
    ]) {
      expect(await failure(call())).toMatchObject({ code: 'LINK_NOT_FOUND', status: 404 });
    }
  });

  test('a link of another account is LINK_NOT_FOUND 404 through the client', async () => {
    const other = await createAccount(server);
    const foreign = await other.call('POST', '/links', { title: 'theirs', destination_url: 'https://example.com/theirs' });
    expect(await failure(client.links.get(foreign.body.id))).toMatchObject({ code: 'LINK_NOT_FOUND', status: 404 });
  });

  test('TAG_NAME_TAKEN 409, ignoring case', async () => {
    await client.tags.create({ name: 'Unique-Name' });
    const error = await failure(client.tags.create({ name: 'unique-name' }));
    expect(error).toMatchObject({ code: 'TAG_NAME_TAKEN', status: 409 });
  });

  test('TAG_NOT_FOUND 404 for an unknown tag, on update, delete and as a tag_ids entry', async () => {
    expect(await failure(client.tags.update({ id: 'tag_doesnotexist', name: 'x' }))).toMatchObject({ code: 'TAG_NOT_FOUND', status: 404 });
    expect(await failure(client.tags.delete('tag_doesnotexist'))).toMatchObject({ code: 'TAG_NOT_FOUND', status: 404 });
    expect(
      await failure(client.links.create({ title: 'x', destination_url: 'https://example.com/', tag_ids: ['tag_doesnotexist'] })),
    ).toMatchObject({ code: 'TAG_NOT_FOUND', status: 404 });
  });

  test('VALIDATION_ERROR 422 for a tag update with neither name nor color', async () => {
    const tag = await client.tags.create({ name: 'empty-update' });
    expect(await failure(client.tags.update({ id: tag.id }))).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
  });

  test('LINK_LIMIT_REACHED and PLAN_LIMIT_REACHED 403', async () => {
    const limited = await createAccount(server, { link_limit: 1, tag_limit: 1 });
    const own = createClient({ baseUrl: server.origin, apiKey: limited.key });
    await own.links.create({ title: 'one', destination_url: 'https://example.com/one', tag_names: ['only'] });
    expect(await failure(own.links.create({ title: 'two', destination_url: 'https://example.com/two' }))).toMatchObject({
      code: 'LINK_LIMIT_REACHED',
      status: 403,
    });
    expect(await failure(own.tags.create({ name: 'second' }))).toMatchObject({ code: 'PLAN_LIMIT_REACHED', status: 403 });
  });

  test('a wrong API key is UNAUTHORIZED 401', async () => {
    const wrong = createClient({ baseUrl: server.origin, apiKey: 'slk_not_a_real_key' });
    expect(await failure(wrong.links.list())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(await failure(wrong.links.create({ title: 'x', destination_url: 'https://example.com/' }))).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });
    expect(await failure(wrong.tags.list())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  test('an unreachable server is NETWORK_ERROR with status 0', async () => {
    const port = await closedPort();
    const unreachable = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: alice.key });
    const error = await failure(unreachable.links.list());
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(error.field).toBeUndefined();
    expect(await failure(unreachable.links.create({ title: 'x', destination_url: 'https://example.com/' }))).toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
    });
  });

  test('an address that is not a Shortlinks server gives its status and code, not NETWORK_ERROR', async () => {
    // The short domain's HTML 404 page answers for any path that is not the API's.
    const elsewhere = createClient({ baseUrl: `${server.origin}/not-the-api`, apiKey: alice.key });
    const error = await failure(elsewhere.links.list());
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(error.message).toContain('Shortlinks server');
  });

  test('a misspelt field is a compile-time error (tsc) and a VALIDATION_ERROR at run time', async () => {
    const before = await countRows(server, 'link');
    const error = await failure(
      client.links.create({
        title: 'x',
        destination_url: 'https://example.com/typo',
        // @ts-expect-error `titel` is not a field of links.create (checked by tsc in the test command)
        titel: 'typo',
      }),
    );
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'titel', status: 422 });
    expect(await countRows(server, 'link')).toBe(before);

    // Type-level only (never called): the same for a misspelt update field and tag colour.
    const typeChecks = (typed: ShortlinksClient) => [
      // @ts-expect-error `titel` is not a field of links.update
      typed.links.update({ id: 'lnk_x', titel: 'typo' }),
      // @ts-expect-error 'red' is not one of the six colours
      typed.tags.create({ name: 'x', color: 'red' }),
      // @ts-expect-error title is required
      typed.links.create({ destination_url: 'https://example.com/' }),
    ];
    expect(typeof typeChecks).toBe('function');
  });
});

describe('tRPC answers with the REST statuses', () => {
  test('POST /trpc/links.create: 201 for a valid body', async () => {
    const response = await trpcPost('links.create', { title: 'Over tRPC', destination_url: 'https://example.com/trpc' });
    expect(response.status).toBe(201);
    expect(response.body.result.data.id).toMatch(/^lnk_/);
    expect(response.body.result.data.title).toBe('Over tRPC');
  });

  test('POST /trpc/links.create: 422 for an invalid body, and nothing saved', async () => {
    const before = await countRows(server, 'link');
    const response = await trpcPost('links.create', { title: '', destination_url: 'https://example.com/trpc-bad' });
    expect(response.status).toBe(422);
    expect(response.body.error.data).toMatchObject({ appCode: 'VALIDATION_ERROR', field: 'title' });
    expect(await countRows(server, 'link')).toBe(before);
  });

  // REST answers 204; a tRPC response always carries its JSON envelope, so tRPC answers 200.
  test('POST /trpc/links.delete: 200 with an empty result', async () => {
    const created = await trpcPost('links.create', { title: 'Delete me', destination_url: 'https://example.com/trpc-delete' });
    const response = await trpcPost('links.delete', { id: created.body.result.data.id });
    expect(response.status).toBe(200);
    expect(response.body.result.data).toBeUndefined();
    expect((await alice.call('GET', `/links/${created.body.result.data.id}`)).status).toBe(404);
    const again = await trpcPost('links.delete', { id: created.body.result.data.id });
    expect(again.status).toBe(404);
  });

  test('POST /trpc/tags.delete: 200 with an empty result', async () => {
    const created = await trpcPost('tags.create', { name: 'trpc-doomed' });
    expect(created.status).toBe(201);
    const response = await trpcPost('tags.delete', { id: created.body.result.data.id });
    expect(response.status).toBe(200);
    expect(response.body.result.data).toBeUndefined();
    const again = await trpcPost('tags.delete', { id: created.body.result.data.id });
    expect(again.status).toBe(404);
  });

  test('POST /trpc/links.upsert: 201, then 200 for the same destination', async () => {
    const body = { title: 'Upsert over tRPC', destination_url: 'https://example.com/trpc-upsert' };
    const first = await trpcPost('links.upsert', body);
    expect(first.status).toBe(201);
    expect(first.body.result.data.created).toBe(true);
    const second = await trpcPost('links.upsert', body);
    expect(second.status).toBe(200);
    expect(second.body.result.data).toMatchObject({ created: false, id: first.body.result.data.id });
  });

  test('POST /trpc/tags.create: 201; without a key: 401', async () => {
    expect((await trpcPost('tags.create', { name: 'trpc-tag' })).status).toBe(201);
    expect((await trpcPost('tags.create', { name: 'trpc-tag-2' }, null)).status).toBe(401);
    expect((await trpcPost('links.create', { title: 'x', destination_url: 'https://example.com/' }, 'slk_wrong')).status).toBe(401);
  });
});
