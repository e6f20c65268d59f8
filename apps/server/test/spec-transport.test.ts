import { createClient, ShortlinksError } from '@shortlinks/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * The transport rules of docs/api-decisions.md ("Errors and credentials", "Transport details")
 * that no other file covers: codes the spec does not list, content types, empty values.
 */

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

const LINK_BODY = JSON.stringify({ title: 'Typed', destination_url: 'https://example.com/typed' });

/** A request with a raw body and exactly the headers given (plus the key). */
async function send(method: string, path: string, headers: Record<string, string>, body?: RequestInit['body']) {
  const response = await fetch(`${server.api}${path}`, { method, headers: { authorization: `Bearer ${alice.key}`, ...headers }, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('415 UNSUPPORTED_MEDIA_TYPE for a body that is not sent as JSON', () => {
  test.each([
    ['text/plain', 'POST', '/links'],
    ['text/plain', 'POST', '/links/upsert'],
    ['text/plain', 'POST', '/tags'],
    ['application/x-www-form-urlencoded', 'POST', '/links'],
    ['application/vnd.api+json', 'POST', '/links'],
  ])('%s on %s %s, and nothing is saved', async (contentType, method, path) => {
    const before = await countRows(server, 'link');
    const response = await send(method, path, { 'content-type': contentType }, LINK_BODY);
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) });
    expect(await countRows(server, 'link')).toBe(before);
  });

  test('a JSON body without any Content-Type header', async () => {
    const response = await send('POST', '/links', {}, new Blob([LINK_BODY]));
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  test('PATCH /links/{id} with text/plain leaves the link unchanged', async () => {
    const link = await createLink(alice, { title: 'Before' });
    const response = await send('PATCH', `/links/${link.id}`, { 'content-type': 'text/plain' }, JSON.stringify({ title: 'After' }));
    expect(response.status).toBe(415);
    expect((await alice.call('GET', `/links/${link.id}`)).body.title).toBe('Before');
  });

  test('application/json with a charset parameter is JSON', async () => {
    const response = await send('POST', '/links', { 'content-type': 'application/json; charset=utf-8' }, LINK_BODY);
    expect(response.status).toBe(201);
  });

  test('a DELETE or GET with another content type but no body is accepted', async () => {
    const link = await createLink(alice);
    expect((await send('GET', `/links/${link.id}`, { 'content-type': 'text/plain' })).status).toBe(200);
    expect((await send('DELETE', `/links/${link.id}`, { 'content-type': 'text/plain' })).status).toBe(204);
  });
});

describe('codes the spec does not list', () => {
  test('413 PAYLOAD_TOO_LARGE for a body over 64 KiB, and nothing is saved', async () => {
    const before = await countRows(server, 'link');
    const response = await alice.call('POST', '/links', {
      title: 'Big',
      destination_url: 'https://example.com/',
      comments: 'x'.repeat(70_000),
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    expect(await countRows(server, 'link')).toBe(before);
  });

  test('the typed client reports a body over 64 KiB as PAYLOAD_TOO_LARGE 413', async () => {
    const client = createClient({ baseUrl: server.origin, apiKey: alice.key });
    const failure = await client.links.create({ title: 'Big', destination_url: 'https://example.com/', comments: 'x'.repeat(70_000) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ShortlinksError);
    expect(failure).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  test.each([
    ['GET', '/nothing-here'],
    ['GET', '/links/lnk_x/extra'],
    ['PUT', '/links'],
    // Paths are matched as the OpenAPI document writes them (docs/api-decisions.md).
    ['GET', '/links/'],
    ['GET', '/Links'],
    ['DELETE', '/tags/'],
  ])('404 NOT_FOUND for %s %s, an unknown path under /api/v1', async (method, path) => {
    const response = await alice.call(method, path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
  });

  test.each([
    ['post', '/links'],
    ['patch', '/links/{id}'],
    ['post', '/links/upsert'],
    ['post', '/tags'],
    ['patch', '/tags/{id}'],
  ])('the OpenAPI document lists 413 and 415 for %s %s', async (method, path) => {
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const responses = document.paths[path]?.[method]?.responses ?? {};
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['400', '413', '415']));
  });

  test('401 carries WWW-Authenticate: Bearer', async () => {
    const response = await callApi(server, undefined, 'GET', '/links');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('bodies and query values', () => {
  test.each([['null'], ['[]'], ['"title"'], ['7']])(
    'POST /links with the JSON %s gives 422 VALIDATION_ERROR with field body',
    async (raw) => {
      const before = await countRows(server, 'link');
      const response = await alice.call('POST', '/links', raw);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'body' });
      expect(await countRows(server, 'link')).toBe(before);
    },
  );

  test('an empty body on PATCH is 400 INVALID_JSON', async () => {
    const link = await createLink(alice);
    const response = await send('PATCH', `/links/${link.id}`, { 'content-type': 'application/json' }, '');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_JSON');
  });

  test('empty query values count as not sent: the defaults apply', async () => {
    const response = await alice.call('GET', '/links?page=&per_page=&tag_ids=');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, per_page: 20 });
  });

  test('page may be 1,000,000 but not more', async () => {
    expect((await alice.call('GET', '/links?page=1000000')).body).toMatchObject({ page: 1_000_000, links: [] });
    const response = await alice.call('GET', '/links?page=1000001');
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });
  });

  test.each([['/links/abc'], ['/links/LNK_x'], ['/links/ext_']])('%s names no link: 404 LINK_NOT_FOUND', async (path) => {
    const response = await alice.call('GET', path);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('LINK_NOT_FOUND');
  });
});

describe('messages tell a missing field from a wrong one', () => {
  test.each([
    ['/links', { destination_url: 'https://example.com/' }, 'title', /title is required/],
    ['/links', { title: 7, destination_url: 'https://example.com/' }, 'title', /title must be a string/],
    ['/links', { title: 'x' }, 'destination_url', /destination_url is required/],
    ['/links', { title: 'x', destination_url: 'https://example.com/', expires_at: 'tomorrow' }, 'expires_at', /must be a number/],
    ['/links', { title: 'x', destination_url: 'https://example.com/', utm: null }, 'utm', /utm must be an object/],
    ['/tags', {}, 'name', /name is required/],
    ['/tags', { name: 7 }, 'name', /name must be a string/],
  ])('POST %s %j → 422 on %s', async (path, body, field, message) => {
    const response = await alice.call('POST', path, body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(response.body.message).toMatch(message);
  });
});

describe('tRPC batches', () => {
  test("a batch keeps tRPC's own status (207 when mixed), and each failure carries its app code", async () => {
    const link = await createLink(alice);
    const input = encodeURIComponent(JSON.stringify({ 0: { id: link.id }, 1: { id: 'lnk_missing' } }));
    const response = await fetch(`${server.origin}/trpc/links.get,links.get?batch=1&input=${input}`, {
      headers: { authorization: `Bearer ${alice.key}` },
    });
    expect(response.status).toBe(207);
    const [found, missing] = (await response.json()) as [{ result: { data: { id: string } } }, { error: { data: { appCode: string } } }];
    expect(found.result.data.id).toBe(link.id);
    expect(missing.error.data.appCode).toBe('LINK_NOT_FOUND');
  });
});

describe('tRPC answers malformed JSON like REST', () => {
  test('POST /trpc/links.create with a broken body: 400 INVALID_JSON, nothing saved', async () => {
    const before = await countRows(server, 'link');
    const response = await fetch(`${server.origin}/trpc/links.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json' },
      body: '{"title": "x",',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { data: { appCode: string } } }).error.data.appCode).toBe('INVALID_JSON');
    expect(await countRows(server, 'link')).toBe(before);
  });
});
