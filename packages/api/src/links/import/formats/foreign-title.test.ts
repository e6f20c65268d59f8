import { describe, expect, it } from 'vitest';
import { readBitlyCsv, readBitlyJson, readKuttJson, readShlinkImportCsv, readShortlinksCsv, readYourlsJson } from './index.ts';
import { collect } from './test-support.ts';

/** A page title of `words` words, as a site might give one: longer than our 200 characters. */
const longTitle = (words: number) => Array.from({ length: words }, (_, index) => `word${index}`).join(' ');

describe('import formats: another tool’s title becomes one our API takes', () => {
  it('Kutt: a description of 2,040 characters over several lines is one line cut to 200 characters', async () => {
    const description = `First line\n\n${'x'.repeat(100)}\r\n${'y'.repeat(1_926)}`;
    expect(description).toHaveLength(2_040);
    const list = JSON.stringify({
      total: 1,
      limit: 10,
      skip: 0,
      data: [{ address: 'docs', banned: false, password: false, description, target: 'https://example.com/docs' }],
    });
    const [row] = await collect(readKuttJson(list));
    expect(row).toEqual({
      row: 1,
      link: { slug: 'docs', destination_url: 'https://example.com/docs', title: `First line ${'x'.repeat(100)} ${'y'.repeat(88)}` },
    });
  });

  it('Bitly API: a long fetched title with tabs is one line, cut between whole characters (an emoji at the cut is left out)', async () => {
    const title = `Spring\tsale ${'a'.repeat(187)}👍🏽 and more`;
    const page = JSON.stringify({ links: [{ link: 'https://bit.ly/abc', long_url: 'https://example.com/', title }] });
    expect(await collect(readBitlyJson(page))).toEqual([
      { row: 1, link: { slug: 'abc', destination_url: 'https://example.com/', title: `Spring sale ${'a'.repeat(187)}` } },
    ]);
  });

  it('Bitly CSV and YOURLS stats: a page title longer than 200 characters is cut, not refused, without a trailing space', async () => {
    const title = longTitle(40);
    expect(title[199]).toBe(' ');
    const [fromCsv] = await collect(readBitlyCsv(`Title,Bitlink,Long URL\n${title},bit.ly/abc,https://example.com/\n`));
    expect(fromCsv).toMatchObject({ row: 2, link: { title: title.slice(0, 199) } });
    const stats = JSON.stringify({
      links: { link_1: { shorturl: 'http://sho.rt/ozh', url: 'https://ozh.org/', title, timestamp: '2024-03-05 14:22:10' } },
    });
    const [fromYourls] = await collect(readYourlsJson(stats));
    expect(fromYourls).toMatchObject({ row: 1, link: { title: title.slice(0, 199) } });
  });

  it('Shlink’s importer CSV: a title of only spaces and control characters is no title', async () => {
    expect(await collect(readShlinkImportCsv('Long URL,Short code,Domain,Title,Tags\nhttps://example.com,abc,," \t\u0007 ",\n'))).toEqual([
      { row: 2, link: { slug: 'abc', destination_url: 'https://example.com' } },
    ]);
  });

  it('our own export is read as written: a title with a line break is left for the import to refuse', async () => {
    const csv = 'slug,destination_url,title\r\nabc,https://example.com,"Two\r\nlines"\r\n';
    expect(await collect(readShortlinksCsv(csv))).toEqual([
      { row: 2, link: { slug: 'abc', destination_url: 'https://example.com', title: 'Two\r\nlines' } },
    ]);
  });
});

describe('import formats: characters that hide or reorder text are cleaned from another tool’s titles and tags', () => {
  it('Bitly: U+202E and U+200B leave the title and the tag names; a tag of nothing else is dropped', async () => {
    const bitlink = {
      link: 'https://bit.ly/abc',
      long_url: 'https://example.com/a',
      title: 'pay\u200Bpal \u202Egnp.exe',
      tags: ['n\u200Bews', '\u200B'],
    };
    const [row] = await collect(readBitlyJson(JSON.stringify(bitlink)));
    expect(row).toMatchObject({ row: 1, link: { title: 'paypal gnp.exe', tag_names: ['news'] } });
  });

  it('Shlink importer CSV: tags split and cleaned; joiners that emoji and scripts need are kept', async () => {
    const csv = `Long URL,Short code,Domain,Title,Tags\nhttps://example.com/a,a,,\u200F\u05E9\u05DC\u05D5\u05DD 👨\u200D👩\u200D👧,a\u2066b|c\n`;
    const [row] = await collect(readShlinkImportCsv(csv));
    expect(row).toMatchObject({ link: { title: '\u200F\u05E9\u05DC\u05D5\u05DD 👨\u200D👩\u200D👧', tag_names: ['ab', 'c'] } });
  });

  it('our own export is read as written: such a title reaches the API’s check, which refuses it', async () => {
    const csv = `id,slug,short_url,destination_url,title\nlnk_1,a,,https://example.com/a,x\u202Ey\n`;
    const [row] = await collect(readShortlinksCsv(csv));
    expect(row).toMatchObject({ link: { title: 'x\u202Ey' } });
  });
});
