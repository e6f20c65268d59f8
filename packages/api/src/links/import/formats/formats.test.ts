import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readBitlyJson, readImportFile, readYourlsJson } from './index.ts';
import { at, collect, samplePath } from './test-support.ts';

/** Each tool's sample file: detected as that tool's format, every row mapped exactly, row numbers as a person finds them. */
describe('import formats: each tool’s own file', () => {
  it('our CSV export: every column read, escaped tag separators, the row after a quoted line break numbered by its first line', async () => {
    const { format, rows } = await readImportFile(samplePath('shortlinks-export.csv'));
    expect(format).toBe('shortlinks-csv');
    expect(await collect(rows)).toEqual([
      {
        row: 2,
        link: {
          slug: 'spring',
          destination_url: 'https://example.com/sale?utm_source=mail',
          title: 'Sale, spring',
          tag_names: ['campaign', 'a|b', 'c\\d'],
          external_id: 'crm-4711',
          comments: 'Line one\r\nline two',
          expires_at: at('2026-12-31T23:59:59.000Z'),
          expiration_url: 'https://example.com/over',
          domain: 'sl.test',
          created_at: at('2026-11-23T05:30:00.000Z'),
        },
      },
      {
        row: 4,
        link: { slug: 'docs', destination_url: 'https://example.com/docs', created_at: at('2026-11-20T08:00:00.000Z'), domain: 'sl.test' },
      },
    ]);
  });

  it('our JSON Lines export: nulls and an empty tag list are absent, row = line', async () => {
    const { format, rows } = await readImportFile(samplePath('shortlinks-export.jsonl'));
    expect(format).toBe('shortlinks-jsonl');
    expect(await collect(rows)).toEqual([
      {
        row: 1,
        link: {
          slug: 'spring',
          destination_url: 'https://example.com/sale?utm_source=mail',
          title: 'Sale, spring',
          tag_names: ['campaign', 'a|b', 'c\\d'],
          external_id: 'crm-4711',
          comments: 'Line one\nline two',
          expires_at: at('2026-12-31T23:59:59.000Z'),
          expiration_url: 'https://example.com/over',
          domain: 'sl.test',
          created_at: at('2026-11-23T05:30:00.000Z'),
        },
      },
      {
        row: 2,
        link: { slug: 'docs', destination_url: 'https://example.com/docs', created_at: at('2026-11-20T08:00:00.000Z'), domain: 'sl.test' },
      },
    ]);
  });

  it('Shlink web client CSV: shortCode is the slug, tags split on |, times with their offset, doubled quotes, a title’s line break made a space', async () => {
    const { format, rows } = await readImportFile(samplePath('shlink-web-client.csv'));
    expect(format).toBe('shlink-csv');
    expect(await collect(rows)).toEqual([
      {
        row: 2,
        link: {
          slug: 'launch',
          destination_url: 'https://example.com/products/launch?utm_source=news',
          title: 'Launch "2024"',
          tag_names: ['marketing', 'product'],
          domain: 's.test',
          created_at: at('2024-03-05T14:22:10Z'),
        },
      },
      {
        row: 3,
        link: { slug: 'x7Kp2', destination_url: 'https://example.com/a,b', created_at: at('2024-03-06T08:01:00Z'), domain: 's.test' },
      },
      {
        row: 4,
        link: {
          slug: 'notes',
          destination_url: 'https://example.com/notes',
          title: 'Two lines',
          tag_names: ['docs'],
          domain: 's.test',
          created_at: at('2024-03-07T18:45:30Z'),
        },
      },
    ]);
  });

  it('Shlink web client six-column CSV: the slug is the short URL’s decoded path, tags split on ,', async () => {
    const { format, rows } = await readImportFile(samplePath('shlink-web-client-six-columns.csv'));
    expect(format).toBe('shlink-csv');
    expect(await collect(rows)).toEqual([
      {
        row: 2,
        link: {
          slug: 'abc',
          destination_url: 'https://example.com/',
          title: 'Example',
          tag_names: ['one', 'two'],
          domain: 's.test',
          created_at: at('2022-04-02T08:00:00Z'),
        },
      },
      {
        row: 3,
        link: { slug: 'café', destination_url: 'https://example.com/cafe', created_at: at('2022-04-03T09:30:00Z'), domain: 's.test' },
      },
    ]);
  });

  it('Shlink importer CSV: header names in any case and spacing, as Shlink’s own test file', async () => {
    const { format, rows } = await readImportFile(samplePath('shlink-importer.csv'));
    expect(format).toBe('shlink-import-csv');
    expect(await collect(rows)).toEqual([
      { row: 2, link: { slug: '123', destination_url: 'https://shlink.io', tag_names: ['foo', 'bar', 'baz'] } },
      { row: 3, link: { slug: '456', destination_url: 'https://facebook.com', title: 'my title', domain: 'example.com' } },
    ]);
  });

  const bitlinks = [
    {
      slug: 'spring-sale',
      destination_url: 'https://example.com/sale',
      title: 'Spring sale',
      tag_names: ['campaign', 'spring'],
      created_at: at('2024-03-05T14:22:10Z'),
    },
    { slug: '4QwErTy', destination_url: 'https://example.com/blog/post?id=7', created_at: at('2024-03-06T08:00:00Z') },
    {
      slug: '2ZxCvBn',
      destination_url: 'https://example.com/archive',
      title: 'Old page',
      tag_names: ['archive'],
      created_at: at('2023-12-31T23:59:59Z'),
    },
  ];

  it('Bitly API pages saved one after another: the custom bitlink’s path, else the link’s; row = position across pages', async () => {
    const { format, rows } = await readImportFile(samplePath('bitly-bitlinks-pages.json'));
    expect(format).toBe('bitly-json');
    expect(await collect(rows)).toEqual(bitlinks.map((link, index) => ({ row: index + 1, link })));
  });

  it('Bitly API pages pretty-printed (as `jq .` saves them) read the same', async () => {
    const pages = (await readFile(samplePath('bitly-bitlinks-pages.json'), 'utf8'))
      .trim()
      .split('\n')
      .map((page) => JSON.stringify(JSON.parse(page), null, 2))
      .join('\n');
    expect(await collect(readBitlyJson(pages))).toEqual(bitlinks.map((link, index) => ({ row: index + 1, link })));
  });

  it('Bitly bitlinks one a line: row = line', async () => {
    const { format, rows } = await readImportFile(samplePath('bitly-bitlinks.jsonl'));
    expect(format).toBe('bitly-json');
    expect(await collect(rows)).toEqual(bitlinks.map((link, index) => ({ row: index + 1, link })));
  });

  it('Bitly CSV: columns found by name ignoring case, a bitlink without a scheme, a zone-less time taken as UTC', async () => {
    const { format, rows } = await readImportFile(samplePath('bitly-links.csv'));
    expect(format).toBe('bitly-csv');
    expect(await collect(rows)).toEqual([
      { row: 2, link: { ...bitlinks[0] } },
      { row: 3, link: bitlinks[1] },
    ]);
  });

  it('Kutt API links: address, target, description, expire_in (ISO or SQLite’s UTC), domain (or the short URL’s host); a password-protected link is reported', async () => {
    const { format, rows } = await readImportFile(samplePath('kutt-links.json'));
    expect(format).toBe('kutt-json');
    expect(await collect(rows)).toEqual([
      {
        row: 1,
        link: {
          slug: 'docs',
          destination_url: 'https://example.com/docs',
          title: 'Documentation',
          created_at: at('2024-03-05T14:22:10Z'),
          domain: 'kutt.it',
        },
      },
      {
        row: 2,
        link: {
          slug: 'promo',
          destination_url: 'https://example.com/promo',
          expires_at: at('2025-01-01T00:00:00Z'),
          created_at: at('2024-03-06T09:00:00Z'),
          domain: 'go.example.com',
        },
      },
      {
        row: 3,
        problem: {
          code: 'PASSWORD_PROTECTED',
          message: 'the link is password-protected on Kutt; its password cannot be exported',
          field: 'password',
        },
      },
      {
        row: 4,
        link: {
          slug: 'sqlite',
          destination_url: 'https://example.com/sqlite',
          expires_at: at('2025-06-30T18:00:00Z'),
          created_at: at('2024-03-08T08:30:00Z'),
          domain: 'kutt.it',
        },
      },
    ]);
  });

  it('YOURLS stats JSON: the keyword is the short URL’s path, PHP’s escapes read, the timestamp in UTC', async () => {
    const { format, rows } = await readImportFile(samplePath('yourls-stats.json'));
    expect(format).toBe('yourls-json');
    expect(await collect(rows)).toEqual([
      {
        row: 1,
        link: {
          slug: 'ozh',
          destination_url: 'https://ozh.org/',
          title: 'Ozh RICHARD « planetOzh »',
          created_at: at('2024-03-05T14:22:10Z'),
        },
      },
      { row: 2, link: { slug: '1', destination_url: 'https://yourls.org/docs?x=1&y=2', created_at: at('2024-03-06T00:00:00Z') } },
    ]);
  });

  it('YOURLS installed in a subdirectory: the keyword is the short URL’s last path segment, not the directory with it', async () => {
    const stats =
      '{"links":{"link_1":{"shorturl":"https:\\/\\/example.com\\/yourls\\/ozh","url":"https:\\/\\/ozh.org\\/","title":"","timestamp":"2024-03-05 14:22:10","ip":"127.0.0.1","clicks":"25"}},"stats":{"total_links":1,"total_clicks":25},"message":"success"}';
    expect(await collect(readYourlsJson(stats))).toEqual([
      { row: 1, link: { slug: 'ozh', destination_url: 'https://ozh.org/', created_at: at('2024-03-05T14:22:10Z') } },
    ]);
  });

  it('YOURLS Import/Export plugin CSV: /keyword/ is the slug, quoted targets', async () => {
    const { format, rows } = await readImportFile(samplePath('yourls-export.csv'));
    expect(format).toBe('yourls-csv');
    expect(await collect(rows)).toEqual([
      { row: 2, link: { slug: 'ozh', destination_url: 'https://ozh.org/' } },
      { row: 3, link: { slug: '1', destination_url: 'https://example.com/?a=1,2' } },
      { row: 4, link: { slug: 'q', destination_url: 'https://example.com/say?"hi"' } },
    ]);
  });

  /** The file as a spreadsheet with a `;` list separator (Excel in most of Europe) saves it again. */
  function resavedWithSemicolons(csv: string): string {
    const quoted = (value: string) => (/[;"\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    return (parse(csv, { relax_column_count: true }) as string[][]).map((record) => `${record.map(quoted).join(';')}\r\n`).join('');
  }

  it.each([
    'shortlinks-export.csv',
    'shlink-web-client.csv',
    'shlink-web-client-six-columns.csv',
    'shlink-importer.csv',
    'bitly-links.csv',
    'yourls-export.csv',
  ])('%s re-saved with ; between fields reads the same links', async (sample) => {
    const original = await readImportFile(samplePath(sample));
    const path = join(await mkdtemp(join(tmpdir(), 'import-semicolons-')), sample);
    await writeFile(path, resavedWithSemicolons(await readFile(samplePath(sample), 'utf8')));
    const resaved = await readImportFile(path);
    expect(resaved.format).toBe(original.format);
    expect(await collect(resaved.rows)).toEqual(await collect(original.rows));
  });
});
