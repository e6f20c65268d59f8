import { describe, expect, it } from 'vitest';
import { readBitlyCsv, readShlinkCsv, readShlinkImportCsv } from './index.ts';
import { collect } from './test-support.ts';

/** Each tool's own separator between tag names: a `,` inside a name is part of it wherever `|` separates. */
describe('import formats: tags are split on the separator their tool writes', () => {
  it('Shlink web client (8 columns, tags joined with |): a tag holding a comma stays whole', async () => {
    const csv =
      '"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"\n' +
      '"2024-03-05T14:22:10+00:00","s.test","q1","https://s.test/q1","https://example.com/q1","","Q1, 2024|sales",4\n';
    expect(await collect(readShlinkCsv(csv))).toMatchObject([{ row: 2, link: { slug: 'q1', tag_names: ['Q1, 2024', 'sales'] } }]);
  });

  it('Shlink web client (6 columns, before April 2023, tags joined with ,): split on , only', async () => {
    const csv =
      '"createdAt","shortUrl","longUrl","title","tags","visits"\n' +
      '"2022-04-02T10:00:00+02:00","https://s.test/abc","https://example.com/","","one,two",3\n' +
      '"2022-04-03T10:00:00+02:00","https://s.test/def","https://example.com/","","a|b",0\n';
    expect(await collect(readShlinkCsv(csv))).toMatchObject([
      { row: 2, link: { slug: 'abc', tag_names: ['one', 'two'] } },
      { row: 3, link: { slug: 'def', tag_names: ['a|b'] } },
    ]);
  });

  it('Shlink’s importer CSV (CsvImporter splits on | only): a tag holding a comma stays whole', async () => {
    const csv = 'Long URL,Short code,Domain,Title,Tags\nhttps://example.com,abc,,,"Q1, 2024|sales"\n';
    expect(await collect(readShlinkImportCsv(csv))).toEqual([
      { row: 2, link: { slug: 'abc', destination_url: 'https://example.com', tag_names: ['Q1, 2024', 'sales'] } },
    ]);
  });

  it('Bitly CSV (its separator unconfirmed): on , when the cell holds one, else on |', async () => {
    const csv =
      'Title,Bitlink,Long URL,Tags\n,bit.ly/a,https://example.com/a,"campaign,spring"\n,bit.ly/b,https://example.com/b,news|mail\n';
    expect(await collect(readBitlyCsv(csv))).toMatchObject([
      { row: 2, link: { slug: 'a', tag_names: ['campaign', 'spring'] } },
      { row: 3, link: { slug: 'b', tag_names: ['news', 'mail'] } },
    ]);
  });
});
