import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/** Requests refused before any procedure runs, ids PostgreSQL cannot hold, and what the logs keep. */

let server: TestServer;
let account: TestAccount;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ logLevel: 'debug', logStream: { write: (line) => logLines.push(line) } });
  account = await createAccount(server);
});
afterAll(() => server.close());

/** Tables the API writes, counted, to show a refused request saved nothing. */
async function counts() {
  return {
    links: await countRows(server, 'link'),
    tags: await countRows(server, 'tag'),
    linkTags: await countRows(server, 'link_tag'),
  };
}

describe('oversized and malformed requests', () => {
  const big = { title: 'Big', destination_url: 'https://example.com/big', comments: 'x'.repeat(70 * 1024) };

  test('a REST body over 64 KiB → 413 PAYLOAD_TOO_LARGE, nothing saved', async () => {
    const before = await counts();
    const response = await account.call('POST', '/links', big);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    expect(await counts()).toEqual(before);
  });

  test('a tRPC body over 64 KiB → 413 in the tRPC envelope with appCode PAYLOAD_TOO_LARGE, nothing saved', async () => {
    const before = await counts();
    const response = await fetch(`${server.origin}/trpc/links.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(big),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { message: string; data: Record<string, unknown> } };
    expect(body.error.data).toMatchObject({ appCode: 'PAYLOAD_TOO_LARGE', httpStatus: 413 });
    expect(await counts()).toEqual(before);
  });

  test('a URL over the 16 KiB header limit → 431 HEADERS_TOO_LARGE in the API error shape', async () => {
    const response = await fetch(`${server.api}/links/ext_${'a'.repeat(20_000)}`, { headers: { authorization: `Bearer ${account.key}` } });
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({ code: 'HEADERS_TOO_LARGE', message: expect.any(String) });
  });

  test('a path with broken percent-encoding → 400 MALFORMED_REQUEST', async () => {
    const response = await account.call('GET', '/links/ext_%ED%A0%80');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'MALFORMED_REQUEST', message: expect.any(String) });
  });

  test.each([
    ['PUT', '/api/v1/links/lnk_x'],
    ['PUT', '/api/v1/tags'],
    ['POST', '/no-such-page'],
  ])('%s %s, which nothing serves → 404 NOT_FOUND in the API error shape', async (method, path) => {
    const response = await fetch(`${server.origin}${path}`, { method, headers: { authorization: `Bearer ${account.key}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
  });

  test('an unknown query parameter with an empty name → 422 VALIDATION_ERROR naming it (field "")', async () => {
    const response = await account.call('GET', '/links?=1');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), field: '' });
  });
});

describe('batched tRPC calls', () => {
  const batch = (calls: number) => {
    const paths = Array.from({ length: calls }, () => 'tags.list').join(',');
    const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, {}]));
    return fetch(`${server.origin}/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
  };

  test('a batch of up to 10 calls is answered; 11 calls are refused with 422 VALIDATION_ERROR, since a batch counts once against the rate limit', async () => {
    const ten = await batch(10);
    expect(ten.status).toBe(200);
    expect((await ten.json()) as unknown[]).toHaveLength(10);
    const eleven = await batch(11);
    expect(eleven.status).toBe(422);
    const body = JSON.stringify(await eleven.json());
    expect(body).toContain('"appCode":"VALIDATION_ERROR"');
    expect(body).toContain('"field":"body"');
  });
});

describe('ids and text PostgreSQL cannot hold (NUL, half a surrogate pair)', () => {
  test.each([
    ['GET', '/links/lnk_%00', 404, 'LINK_NOT_FOUND'],
    ['GET', '/links/ext_a%00b', 404, 'LINK_NOT_FOUND'],
    ['DELETE', '/links/lnk_%00', 404, 'LINK_NOT_FOUND'],
    ['DELETE', '/tags/tag_%00', 404, 'TAG_NOT_FOUND'],
    ['GET', '/links/lnk_%00/stats', 404, 'LINK_NOT_FOUND'],
    ['GET', '/tags/%00/stats', 404, 'TAG_NOT_FOUND'],
    ['GET', '/tags/tag_%00/stats?interval=hour', 404, 'TAG_NOT_FOUND'],
  ])('%s %s → %i %s', async (method, path, status, code) => {
    const response = await account.call(method, path);
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
  });

  /** A tRPC call as the typed client makes it: input as JSON, which can carry any text. */
  const trpcCall = async (procedure: string, input: unknown, mutation: boolean) => {
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    const response = mutation
      ? await fetch(`${server.origin}/trpc/${procedure}`, { method: 'POST', headers, body: JSON.stringify(input) })
      : await fetch(`${server.origin}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
    const body = (await response.json()) as { error?: { data: { appCode: string } }; result?: { data: unknown } };
    return { status: response.status, appCode: body.error?.data.appCode, data: body.result?.data };
  };

  test.each([
    ['stats.tag', 'TAG_NOT_FOUND', {}, false],
    ['stats.link', 'LINK_NOT_FOUND', {}, false],
    ['links.get', 'LINK_NOT_FOUND', {}, false],
    ['links.update', 'LINK_NOT_FOUND', { title: 'x' }, true],
    ['links.delete', 'LINK_NOT_FOUND', {}, true],
    ['tags.update', 'TAG_NOT_FOUND', { name: 'x' }, true],
    ['tags.delete', 'TAG_NOT_FOUND', {}, true],
  ])('tRPC %s with an id holding NUL or half a surrogate pair → 404 %s', async (procedure, code, rest, mutation) => {
    for (const id of ['\u0000', 'tag_\u0000', 'lnk_\u0000', 'ext_\u0000', '\ud800', 'lnk_\udfff', 'ext_a\ud800']) {
      expect(await trpcCall(procedure, { id, ...rest }, mutation), JSON.stringify(id)).toMatchObject({ status: 404, appCode: code });
    }
  });

  test('half a surrogate pair names no link, not even one whose external_id holds U+FFFD (what PostgreSQL would have been sent)', async () => {
    const link = (await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/fffd', external_id: 'a\ufffd' }))
      .body;
    expect(link.external_id).toBe('a\ufffd');
    expect(await trpcCall('links.get', { id: 'ext_a\ufffd' }, false)).toMatchObject({ status: 200, data: { id: link.id } });

    expect(await trpcCall('links.get', { id: 'ext_a\ud800' }, false)).toMatchObject({ status: 404, appCode: 'LINK_NOT_FOUND' });
    expect(await trpcCall('links.update', { id: 'ext_a\ud800', title: 'changed' }, true)).toMatchObject({ status: 404 });
    expect(await trpcCall('links.delete', { id: 'ext_a\ud800' }, true)).toMatchObject({ status: 404 });
    expect(await trpcCall('links.get', { id: link.id }, false)).toMatchObject({ status: 200, data: { title: 'x' } });
  });

  test('a list filter holding half a surrogate pair matches nothing', async () => {
    expect(await trpcCall('links.list', { tag_ids: ['\ud800'] }, false)).toMatchObject({ status: 200, data: { links: [], total: 0 } });
  });

  test('PATCH /tags/{id} with a NUL id → 404 TAG_NOT_FOUND', async () => {
    const response = await account.call('PATCH', '/tags/tag_%00', { name: 'x' });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('TAG_NOT_FOUND');
  });

  test('tag_ids holding NUL → 404 TAG_NOT_FOUND, nothing saved', async () => {
    const before = await counts();
    const response = await account.call('POST', '/links', {
      title: 'x',
      destination_url: 'https://example.com/nul',
      tag_ids: ['tag_\u0000'],
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('TAG_NOT_FOUND');
    expect(await counts()).toEqual(before);
  });

  test('a list filter naming only NUL ids matches nothing (it is not "no filter")', async () => {
    expect((await account.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/listed' })).status).toBe(201);
    const response = await account.call('GET', '/links?tag_ids=tag_%00');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ links: [], total: 0 });
  });

  test.each([['destination_url'], ['expiration_url']])('a %s with a raw control character → 422 naming it', async (field) => {
    const body: Record<string, unknown> = { title: 'x', destination_url: 'https://example.com/ok', expires_at: Date.now() + 86_400_000 };
    body[field] = 'https://example.com/a\u0000b';
    const response = await account.call('POST', '/links', body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), field });
  });
});

describe('deeply nested JSON', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  /** The body: 60 KB, `utm` nested 30,000 levels deep. */
  const deepBody = `{"title":"Deep","destination_url":"https://example.com/deep","utm":${nested(30_000)}}`;
  /** The top-level object and 31 arrays inside it: 32 levels, the most a body may nest. */
  const atTheLimit = `{"title":"Deep","destination_url":"https://example.com/deep","utm":${nested(31)}}`;
  const trpcPost = (path: string, body: string) =>
    fetch(`${server.origin}/trpc/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body,
    });
  const trpcError = async (response: Response) => ((await response.json()) as { error: { data: Record<string, unknown> } }).error.data;

  test('REST: a 60 KB body nested 30,000 levels deep → 422 VALIDATION_ERROR on body, nothing saved', async () => {
    expect(deepBody.length).toBeGreaterThan(60_000);
    const before = await counts();
    const response = await account.call('POST', '/links', deepBody);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringContaining('32 levels'), field: 'body' });
    expect(await counts()).toEqual(before);
  });

  test.each([
    ['PATCH', '/tags/tag_x', `{"name":${nested(30_000)}}`],
    ['POST', '/links/upsert', `{"title":${nested(5_000)},"destination_url":"https://example.com/deep"}`],
  ])('REST: %s %s with a deeply nested field → 422 VALIDATION_ERROR on body', async (method, path, body) => {
    const response = await account.call(method, path, body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringContaining('32 levels'), field: 'body' });
  });

  test('tRPC: the same body → 422 with appCode VALIDATION_ERROR on body, nothing saved', async () => {
    const before = await counts();
    const response = await trpcPost('links.create', deepBody);
    expect(response.status).toBe(422);
    expect(await trpcError(response)).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      appMessage: expect.stringContaining('32 levels'),
      field: 'body',
    });
    expect(await counts()).toEqual(before);
  });

  test('tRPC: a query input nested too deep → 422 with appCode VALIDATION_ERROR on input', async () => {
    const input = encodeURIComponent(`{"id":${nested(2_000)}}`);
    const response = await fetch(`${server.origin}/trpc/links.get?input=${input}`, { headers: { authorization: `Bearer ${account.key}` } });
    expect(response.status).toBe(422);
    expect(await trpcError(response)).toMatchObject({ appCode: 'VALIDATION_ERROR', field: 'input' });
  });

  test("a body nested exactly 32 levels is read: its answer is the schema's (utm must be an object), on both transports", async () => {
    const before = await counts();
    const rest = await account.call('POST', '/links', atTheLimit);
    expect(rest.status).toBe(422);
    expect(rest.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'utm' });
    const trpc = await trpcPost('links.create', atTheLimit);
    expect(trpc.status).toBe(422);
    expect(await trpcError(trpc)).toMatchObject({ appCode: 'VALIDATION_ERROR', field: 'utm' });
    expect(await counts()).toEqual(before);
  });

  test('brackets inside strings are text, not nesting: a title of 100 brackets is saved', async () => {
    const title = `${'[{'.repeat(50)}\\"${']'.repeat(50)}`;
    const response = await account.call('POST', '/links', { title, destination_url: 'https://example.com/brackets' });
    expect(response.status).toBe(201);
    expect(response.body.title).toBe(title);
  });
});

describe('API keys in logs', () => {
  test('at debug level request headers are logged, with Authorization redacted: no key, valid or not, appears', async () => {
    const wrongKey = `slk_${'w'.repeat(43)}`;
    await account.call('GET', '/links', undefined, { 'user-agent': 'log-probe/1.0' });
    await callApi(server, wrongKey, 'POST', '/tags', { name: 'x' });
    await fetch(`${server.origin}/trpc/tags.list`, { headers: { authorization: `Bearer ${account.key}`, 'user-agent': 'log-probe/1.0' } });
    await account.call('POST', '/links', '{"broken": ');

    const output = logLines.join('');
    // The capture works: the requests and their headers are there.
    expect(output).toContain('log-probe/1.0');
    expect(output).toContain('"authorization":"[redacted]"');
    expect(output).not.toContain(account.key);
    expect(output).not.toContain(account.key.slice(4));
    expect(output).not.toContain(wrongKey);
  });
});
