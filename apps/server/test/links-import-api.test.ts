import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { createClient, ShortlinksError } from '@shortlinks/client';
import { DEFAULT_IMPORT_MAX_BYTES } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/** POST /api/v1/links/import and `links.import` (issue #32): an import file sent to the API. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sample = (name: string) =>
  readFile(new URL(`../../../packages/api/src/links/import/formats/samples/${name}`, import.meta.url), 'utf8');

async function importFile(account: TestAccount | undefined, body: string | Uint8Array, query = '', type = 'text/csv') {
  const headers: Record<string, string> = { 'content-type': type };
  if (account) headers.authorization = `Bearer ${account.key}`;
  const response = await fetch(`${server.api}/links/import${query}`, { method: 'POST', headers, body });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as any };
}

/** A chunked POST (no Content-Length), 1 MiB a write, answered whenever the server answers (it may stop reading). */
function postChunked(account: TestAccount, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.api}/links/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    // The server closes the connection after an answer given before the body came: writes may fail then.
    request.on('error', (error) => setTimeout(() => reject(error), 2000));
    (async () => {
      for (let at = 0; at < body.length && !request.destroyed; at += 1 << 20) {
        if (!request.write(body.subarray(at, at + (1 << 20)))) await new Promise((drained) => request.once('drain', drained));
      }
      request.end();
    })().catch(() => undefined);
  });
}

const liveLinks = (account: TestAccount) => countRows(server, 'link', `account_id = '${account.account.id}' and deleted_at is null`);
const slugsOf = async (account: TestAccount) =>
  ((await account.call('GET', '/links?per_page=100')).body.links as { slug: string }[]).map((link) => link.slug).sort();

const OUR_CSV = [
  'slug,destination_url,title,tags',
  'imp-one,https://example.com/one,One,a|b',
  'imp-two,https://example.com/two,Two,',
  'docs,https://example.com/reserved,Reserved slug,',
  'imp-bad,ftp://example.com/file,Wrong scheme,',
  'imp-flagged,https://flagged.example/x,Flagged,',
].join('\n');

describe('POST /links/import', () => {
  test('a dry run of our CSV reports every row, created or refused with its line, and writes nothing', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const answer = await importFile(account, OUR_CSV, '?dry_run=true');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ format: 'shortlinks-csv', dry_run: true, on_conflict: 'skip', read: 5, created: 2, refused: 3 });
    expect(answer.body.rows).toEqual([
      { row: 2, outcome: 'created', slug: 'imp-one', destination_url: 'https://example.com/one' },
      { row: 3, outcome: 'created', slug: 'imp-two', destination_url: 'https://example.com/two' },
    ]);
    expect(answer.body.refusals.map((refusal: { row: number; code: string }) => [refusal.row, refusal.code])).toEqual([
      [4, 'SLUG_INVALID'],
      [5, 'VALIDATION_ERROR'],
      [6, 'VALIDATION_ERROR'],
    ]);
    expect(answer.body.refusals[0]).toMatchObject({ field: 'slug' });
    expect(await liveLinks(account)).toBe(0);
    expect(await countRows(server, 'tag', `account_id = '${account.account.id}'`)).toBe(0);
  });

  test('the import creates the rows the dry run said, and a second run skips them all', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const first = await importFile(account, OUR_CSV, '?format=shortlinks-csv');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ dry_run: false, read: 5, created: 2, skipped: 0, refused: 3 });
    expect(await slugsOf(account)).toEqual(['imp-one', 'imp-two']);
    const one = (await account.call('GET', '/links?search=imp-one')).body.links[0];
    expect(one.tags.map((tag: { name: string }) => tag.name)).toEqual(['a', 'b']);

    const again = await importFile(account, OUR_CSV);
    expect(again.body).toMatchObject({ created: 0, skipped: 2, refused: 3 });
    expect(again.body.rows.map((row: { outcome: string }) => row.outcome)).toEqual(['skipped', 'skipped']);
    expect(await liveLinks(account)).toBe(2);
  });

  test('JSON Lines, ours, with on_conflict=update', async () => {
    const account = await createAccount(server, { plan: 'team' });
    await createLink(account, { slug: 'jl-one', title: 'Old title', destination_url: 'https://example.com/jl/old' });
    const lines = [
      JSON.stringify({ slug: 'jl-one', destination_url: 'https://example.com/jl/one', title: 'New title' }),
      JSON.stringify({ slug: 'jl-two', destination_url: 'https://example.com/jl/two', title: 'Two', tags: ['x'] }),
      '{"slug": "jl-broken"',
      '',
    ].join('\n');
    const answer = await importFile(account, lines, '?on_conflict=update', 'application/x-ndjson');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ format: 'shortlinks-jsonl', on_conflict: 'update', read: 3, created: 1, updated: 1, refused: 1 });
    expect(answer.body.refusals).toEqual([expect.objectContaining({ row: 3, code: 'MALFORMED_ROW' })]);
    const updated = (await account.call('GET', '/links?search=jl-one')).body.links[0];
    expect(updated).toMatchObject({ title: 'New title', destination_url: 'https://example.com/jl/one' });
  });

  test("other tools' files are told apart as the CLI tells them: Shlink's CSV, Bitly's JSON lines", async () => {
    const account = await createAccount(server, { plan: 'team' });
    const shlink = await importFile(account, await sample('shlink-web-client.csv'), '', 'application/octet-stream');
    expect(shlink.status).toBe(200);
    expect(shlink.body).toMatchObject({ format: 'shlink-csv', refused: 0 });
    expect(shlink.body.created).toBe(shlink.body.read);
    expect(await slugsOf(account)).toContain('launch');

    const bitly = await importFile(account, await sample('bitly-bitlinks.jsonl'), '', 'application/json');
    expect(bitly.status).toBe(200);
    expect(bitly.body).toMatchObject({ format: 'bitly-json', refused: 0 });
    expect(await slugsOf(account)).toContain('spring-sale');
  });

  test('a file no format fits is 422 UNKNOWN_FORMAT; one that is not UTF-8 is 422 MALFORMED_FILE; nothing is saved', async () => {
    const account = await createAccount(server);
    const unknown = await importFile(account, 'name,address\nx,y\n');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_FORMAT', field: 'format' });
    const latin1 = await importFile(
      account,
      new Uint8Array([...Buffer.from('slug,destination_url,title\nx,https://example.com/x,Caf'), 0xe9]),
    );
    expect(latin1.status).toBe(422);
    expect(latin1.body).toMatchObject({ code: 'MALFORMED_FILE', field: 'file' });
    const badMode = await importFile(account, OUR_CSV, '?on_conflict=merge');
    expect(badMode.status).toBe(422);
    expect(badMode.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'on_conflict' });
    expect(await liveLinks(account)).toBe(0);
  });

  test('a body of another media type is 415', async () => {
    const account = await createAccount(server);
    const answer = await importFile(account, OUR_CSV, '', 'image/png');
    expect(answer.status).toBe(415);
    expect(answer.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  test('a file over the cap is 413 PAYLOAD_TOO_LARGE, with a length or chunked, and nothing is saved', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const rows = ['slug,destination_url,title'];
    let size = rows[0]?.length ?? 0;
    for (let i = 0; size <= DEFAULT_IMPORT_MAX_BYTES; i++) {
      const row = `big-${i},https://example.com/big/${i},Big ${i} ${'x'.repeat(200)}`;
      rows.push(row);
      size += row.length + 1;
    }
    const file = rows.join('\n');
    expect(Buffer.byteLength(file)).toBeGreaterThan(DEFAULT_IMPORT_MAX_BYTES);
    const withLength = await importFile(account, file);
    expect(withLength.status).toBe(413);
    expect(withLength.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file' });

    // Without a Content-Length (chunked) the body is counted as it comes, and refused once past the cap.
    const chunked = await postChunked(account, Buffer.from(file));
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.text)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await liveLinks(account)).toBe(0);
  });

  test('without a key it is 401 and reads nothing', async () => {
    const answer = await importFile(undefined, OUR_CSV);
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('UNAUTHORIZED');
  });

  test('it spends 1 of the rate limit plus 1 per 256 KiB of file', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    const small = await importFile(account, OUR_CSV, '?dry_run=true');
    const before = Number(small.headers.get('ratelimit-remaining'));
    // Empty lines are skipped: 600 KiB that import nothing, and weigh 1 + 3 units.
    const big = `slug,destination_url,title\n${'\n'.repeat(600 * 1024)}`;
    const answer = await importFile(account, big, '?dry_run=true&format=shortlinks-csv');
    expect(answer.status).toBe(200);
    expect(Number(answer.headers.get('ratelimit-remaining'))).toBe(before - 4);
  });

  test('the OpenAPI document describes it: the file as the body, its parameters, the report and its errors', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is asserted field by field
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as any;
    const operation = document.paths['/links/import'].post;
    expect(operation.operationId).toBe('links_import');
    expect(Object.keys(operation.requestBody.content)).toEqual(
      expect.arrayContaining(['text/csv', 'application/x-ndjson', 'application/json']),
    );
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['format', 'on_conflict', 'dry_run']);
    expect(operation.responses['200'].content['application/json'].schema.properties).toHaveProperty('refusals');
    for (const status of ['401', '413', '415', '422', '429']) expect(operation.responses).toHaveProperty(status);
    expect(Object.keys(operation.responses['422'].content['application/json'].examples)).toEqual(
      expect.arrayContaining(['VALIDATION_ERROR', 'UNKNOWN_FORMAT', 'MALFORMED_FILE']),
    );
    expect(operation.responses).not.toHaveProperty('400');
  });
});

describe('links.import over tRPC (the client)', () => {
  test('the file as text: a dry run, then the import, with the same report', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const client = createClient({ baseUrl: server.origin, apiKey: account.key });
    const file = await sample('shortlinks-export.jsonl');
    const dry = await client.links.import({ file, dry_run: true });
    expect(dry).toMatchObject({ format: 'shortlinks-jsonl', dry_run: true });
    expect(await liveLinks(account)).toBe(0);
    const done = await client.links.import({ file });
    expect(done).toMatchObject({ dry_run: false, created: dry.created, refused: dry.refused });
    expect(await liveLinks(account)).toBe(dry.created);
  });

  test('a file over the cap is PAYLOAD_TOO_LARGE there too', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const client = createClient({ baseUrl: server.origin, apiKey: account.key });
    const file = `slug,destination_url,title\n${'a,https://example.com/a,A\n'.repeat(Math.ceil(DEFAULT_IMPORT_MAX_BYTES / 25) + 1)}`;
    const failure = await client.links.import({ file }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShortlinksError);
    expect((failure as ShortlinksError).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await liveLinks(account)).toBe(0);
  });
});

describe('GET /links/export with the list filters', () => {
  test('search and tag_ids export what GET /links finds, and nothing else', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const tag = (await account.call('POST', '/tags', { name: 'Spring' })).body;
    await createLink(account, { title: 'Spring sale', destination_url: 'https://example.com/f/spring', tag_ids: [tag.id] });
    await createLink(account, { title: 'Spring plain', destination_url: 'https://example.com/f/plain' });
    await createLink(account, { title: 'Autumn', destination_url: 'https://example.com/f/autumn', tag_ids: [tag.id] });
    const exported = async (query: string) => {
      const response = await fetch(`${server.api}/links/export?format=jsonl&${query}`, {
        headers: { authorization: `Bearer ${account.key}` },
      });
      expect(response.status).toBe(200);
      return (await response.text())
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).title)
        .sort();
    };
    expect(await exported('search=spring')).toEqual(['Spring plain', 'Spring sale']);
    expect(await exported(`tag_ids=${tag.id}`)).toEqual(['Autumn', 'Spring sale']);
    expect(await exported(`search=spring&tag_ids=${tag.id}`)).toEqual(['Spring sale']);
    expect(await exported('')).toEqual(['Autumn', 'Spring plain', 'Spring sale']);
  });
});
