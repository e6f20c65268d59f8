import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORT_FORMATS } from '../import-row.ts';
import { detectImportFormat, ImportFileError, readImportFile } from './index.ts';
import { at, collect } from './test-support.ts';

async function fileWith(name: string, text: string | Buffer): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'import-formats-')), name);
  await writeFile(path, text);
  return path;
}

describe('import formats: detection', () => {
  it.each([
    ['the unquoted header of the first six-column Shlink export', 'createdAt,shortUrl,longUrl,title,tags,visits\n', 'shlink-csv'],
    ['Shlink’s importer CSV with ; between fields', 'longURL;tags;domain;short code;Title\n', 'shlink-import-csv'],
    ['Shlink’s importer CSV with only a long URL', 'longURL,tags\n', 'shlink-import-csv'],
    ['a Bitly CSV with a destination URL column', 'Destination URL,Bitlink\n', 'bitly-csv'],
    ['Shlink’s importer CSV as its docs write it', 'Long URL,Short code,Domain,Title,Tags\n', 'shlink-import-csv'],
    ['Shlink’s importer CSV without short codes (Shlink makes them)', 'Long URL,Domain,Title,Tags\n', 'shlink-import-csv'],
    ['a Bitly CSV with a Short URL and a custom link', 'Title,Long URL,Short URL,Custom Link,Created,Tags\n', 'bitly-csv'],
    ['a Bitly CSV with a Domain column', 'Title,Long URL,Bitlink,Domain,Created\n', 'bitly-csv'],
    ['a Bitly API page pretty-printed (jq .)', '{\n  "links": [\n    {\n      "long_url": "https://example.com"', 'bitly-json'],
    ['a Kutt list whose head ends mid-item', '{"total":1,"limit":10,"skip":0,"data":[{"id":"5f0a', 'kutt-json'],
    ['a YOURLS stats answer', '{"links":{"link_1":{"shorturl":"http:\\/\\/sho.rt\\/a"', 'yourls-json'],
    [
      'our JSON Lines',
      '{"id":"lnk_1","slug":"a","short_url":"https://s.test/a","destination_url":"https://example.com"}\n',
      'shortlinks-jsonl',
    ],
  ])('%s', async (_case, head, format) => {
    expect(await detectImportFormat(head)).toBe(format);
  });

  it('a Kutt list saved with sorted keys (`jq -S .`), `data` before `total`, past the first 64 KiB: the first link’s address and target tell it', async () => {
    const link = (index: number) => ({
      address: `a${index}`,
      banned: false,
      created_at: '2024-03-05T14:22:10.000Z',
      description: null,
      domain: null,
      expire_in: null,
      id: `5f0a4c3e-7d1b-4b6e-9a51-${String(index).padStart(12, '0')}`,
      link: `https://kutt.it/a${index}`,
      password: false,
      target: `https://example.com/articles/${index}`,
      updated_at: '2024-03-05T14:22:10.000Z',
      visit_count: index,
    });
    const links = Array.from({ length: 500 }, (_, index) => link(index));
    const text = `${JSON.stringify({ data: links, limit: 500, skip: 0, total: 500 }, null, 2)}\n`;
    expect(text.indexOf('"limit"')).toBeGreaterThan(65_536);
    const { format, rows } = await readImportFile(await fileWith('kutt-sorted.json', text));
    expect(format).toBe('kutt-json');
    expect(await collect(rows)).toHaveLength(500);
  });

  it('a text in a key’s value does not fool it: a Kutt description mentioning "links":[', async () => {
    expect(await detectImportFormat('{"total":1,"limit":10,"skip":0,"data":[{"description":"\\"links\\":["}]}')).toBe('kutt-json');
  });

  it.each([
    ['an unknown CSV', 'name,age\nbob,3\n'],
    ['a JSON list of numbers', '[1, 2, 3]'],
    ['a JSON object of something else', '{"users":[]}'],
    ['plain text', 'hello world'],
  ])('%s is no format it knows', async (_case, head) => {
    expect(await detectImportFormat(head)).toBeUndefined();
  });

  it('an undetectable file: an ImportFileError naming every format it knows, and the way to name one', async () => {
    const path = await fileWith('people.csv', 'name,age\nbob,3\n');
    const error = await readImportFile(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({ code: 'UNKNOWN_FORMAT' });
    for (const format of IMPORT_FORMATS) expect((error as Error).message).toContain(format);
    expect((error as Error).message).toContain('--format');
  });

  it('an empty file is said to be empty', async () => {
    const path = await fileWith('empty.csv', '');
    await expect(readImportFile(path)).rejects.toMatchObject({ code: 'UNKNOWN_FORMAT', message: expect.stringContaining('is empty') });
  });

  it('a file that does not exist: UNREADABLE_FILE', async () => {
    await expect(readImportFile('/nonexistent/links.csv')).rejects.toMatchObject({ code: 'UNREADABLE_FILE' });
  });

  it('a file that is not UTF-8 (a Latin-1 CSV from a spreadsheet) is refused, not imported garbled', async () => {
    const path = await fileWith('latin1.csv', Buffer.from('source,target,hits\r\n/caf\xe9/,https://example.com/,1\r\n', 'latin1'));
    await expect(readImportFile(path)).rejects.toMatchObject({ code: 'MALFORMED_FILE', message: expect.stringContaining('not UTF-8') });
  });

  it('a forced format wins over detection: a Bitly CSV read as Shlink’s importer when named', async () => {
    const path = await fileWith('links.csv', 'Long URL,Title,Created\nhttps://example.com,Home,2024-03-05 14:22:10\n');
    const detected = await readImportFile(path);
    expect(detected.format).toBe('bitly-csv');
    expect(await collect(detected.rows)).toEqual([
      { row: 2, link: { destination_url: 'https://example.com', title: 'Home', created_at: at('2024-03-05T14:22:10Z') } },
    ]);
    const forced = await readImportFile(path, 'shlink-import-csv');
    expect(forced.format).toBe('shlink-import-csv');
    expect(await collect(forced.rows)).toEqual([{ row: 2, link: { destination_url: 'https://example.com', title: 'Home' } }]);
  });

  it.each([
    [
      'Short URL',
      'Title,Long URL,Short URL,Custom Link,Created,Tags\nSale,https://example.com/sale,https://bit.ly/3xYzAbC,https://bit.ly/spring-sale,2024-03-05 14:22:10,\n',
      { slug: 'spring-sale', destination_url: 'https://example.com/sale', title: 'Sale', created_at: at('2024-03-05T14:22:10Z') },
    ],
    [
      'Domain',
      'Title,Long URL,Bitlink,Domain,Created\n,https://example.com/blog,bit.ly/4QwErTy,bit.ly,2024-03-06T08:00:00+0000\n',
      { slug: '4QwErTy', destination_url: 'https://example.com/blog', created_at: at('2024-03-06T08:00:00Z') },
    ],
  ])('a Bitly CSV with a %s column keeps its custom link or bitlink and its creation time', async (column, text, link) => {
    const read = await readImportFile(await fileWith(`bitly-${column.replace(' ', '-')}.csv`, text));
    expect(read.format).toBe('bitly-csv');
    expect(await collect(read.rows)).toEqual([{ row: 2, link }]);
  });

  it('a byte-order mark (as spreadsheet programs write) is read past, in CSV and JSON Lines', async () => {
    const csv = await fileWith(
      'bom.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('source,target,hits\r\n/a/,https://example.com/,1\r\n')]),
    );
    const fromCsv = await readImportFile(csv);
    expect(fromCsv.format).toBe('yourls-csv');
    expect(await collect(fromCsv.rows)).toEqual([{ row: 2, link: { slug: 'a', destination_url: 'https://example.com/' } }]);
    const jsonl = await fileWith(
      'bom.jsonl',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"slug":"a","destination_url":"https://example.com/"}\n')]),
    );
    const fromJsonl = await readImportFile(jsonl);
    expect(fromJsonl.format).toBe('shortlinks-jsonl');
    expect(await collect(fromJsonl.rows)).toEqual([{ row: 1, link: { slug: 'a', destination_url: 'https://example.com/' } }]);
  });
});
