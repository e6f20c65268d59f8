import { describe, expect, it } from 'vitest';
import {
  ImportFileError,
  readBitlyJson,
  readKuttJson,
  readShlinkCsv,
  readShlinkImportCsv,
  readShortlinksCsv,
  readShortlinksJsonl,
  readYourlsJson,
} from './index.ts';
import { at, collect } from './test-support.ts';

const OUR_HEADER = 'id,slug,short_url,destination_url,title,tags,external_id,comments,expires_at,expiration_url,click_count,created_at';

describe('import formats: rows that cannot be read are reported with their row number', () => {
  it('CSV: a missing destination and an unparsable date, numbered by the line each record starts on', async () => {
    const csv = [
      OUR_HEADER,
      'lnk_1,a,,,"two\r\nlines",,,,,,0,',
      'lnk_2,b,,https://example.com/b,,,,,31/12/2026,,0,',
      '',
      'lnk_3,c,,https://example.com/c,,,,,2026-02-30T00:00:00Z,,0,',
      'lnk_4,d,,https://example.com/d,,,,,,,0,2026-11-23T05:30:00+0100',
    ].join('\r\n');
    expect(await collect(readShortlinksCsv(csv))).toEqual([
      { row: 2, problem: { code: 'VALIDATION_ERROR', message: 'destination_url is missing', field: 'destination_url' } },
      {
        row: 4,
        problem: { code: 'VALIDATION_ERROR', message: 'expires_at is not a date and time (ISO 8601): "31/12/2026"', field: 'expires_at' },
      },
      {
        row: 6,
        problem: { code: 'VALIDATION_ERROR', message: 'expires_at is not a date that exists: "2026-02-30T00:00:00Z"', field: 'expires_at' },
      },
      { row: 7, link: { slug: 'd', destination_url: 'https://example.com/d', created_at: at('2026-11-23T04:30:00Z') } },
    ]);
  });

  it('CSV: a record with more cells than the header is MALFORMED_ROW; fewer cells leave the rest empty', async () => {
    const csv = 'Long URL,Short code\nhttps://example.com/a,a,extra\nhttps://example.com/b\n';
    expect(await collect(readShlinkImportCsv(csv))).toEqual([
      { row: 2, problem: { code: 'MALFORMED_ROW', message: 'the record has 3 cells where the header has 2' } },
      { row: 3, link: { destination_url: 'https://example.com/b' } },
    ]);
  });

  it('CSV: quoting that cannot be read stops the file with the line its record starts on', async () => {
    const csv =
      '"createdAt","shortUrl","longUrl"\n"2024-01-01T00:00:00Z","https://s.test/a","https://example.com/a"\n"2024-01-01T00:00:00Z","https://s.test/b","https://example.com/b\n';
    const rows = readShlinkCsv(csv);
    await expect(collect(rows)).rejects.toMatchObject({ code: 'MALFORMED_FILE', line: 3 });
    await expect(collect(readShlinkCsv(csv))).rejects.toBeInstanceOf(ImportFileError);
  });

  it('JSON Lines: a line that is not JSON is MALFORMED_ROW, one that is no object or has a wrong type VALIDATION_ERROR; blank lines count', async () => {
    const jsonl = [
      '{"slug":"a","destination_url":"https://example.com/a"}',
      '{"slug":"b","destination_url":',
      '',
      '["not", "an", "object"]',
      '{"slug":"c","destination_url":"https://example.com/c","tags":"one|two"}',
      '{"slug":"d","destination_url":42}',
    ].join('\n');
    const rows = await collect(readShortlinksJsonl(jsonl));
    expect(rows[0]).toEqual({ row: 1, link: { slug: 'a', destination_url: 'https://example.com/a' } });
    expect(rows[1]).toMatchObject({ row: 2, problem: { code: 'MALFORMED_ROW' } });
    expect(rows.slice(2)).toEqual([
      { row: 4, problem: { code: 'VALIDATION_ERROR', message: 'the item must be an object, not a list' } },
      { row: 5, problem: { code: 'VALIDATION_ERROR', message: 'tags must be a list of text, not string "one|two"', field: 'tags' } },
      { row: 6, problem: { code: 'VALIDATION_ERROR', message: 'destination_url must be text, not number 42', field: 'destination_url' } },
    ]);
  });

  it('Bitly: a bitlink without long_url is refused at its position; JSON cut short stops the file', async () => {
    const page =
      '{"links":[{"link":"https://bit.ly/a","long_url":"https://example.com/a"},{"link":"https://bit.ly/b","title":"no destination"}]}';
    expect(await collect(readBitlyJson(page))).toEqual([
      { row: 1, link: { slug: 'a', destination_url: 'https://example.com/a' } },
      { row: 2, problem: { code: 'VALIDATION_ERROR', message: 'long_url is missing', field: 'long_url' } },
    ]);
    await expect(collect(readBitlyJson('{"links":[{"link":"https://bit.ly/a","long_url":"https://exa'))).rejects.toMatchObject({
      code: 'MALFORMED_FILE',
    });
  });

  it('Bitly one a line: a broken first line is that row’s problem, the lines after it are still read', async () => {
    const lines = '{"link":"https://bit.ly/a","long_url":"https://exa\n{"link":"https://bit.ly/b","long_url":"https://example.com/b"}\n';
    const rows = await collect(readBitlyJson(lines));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ row: 1, problem: { code: 'MALFORMED_ROW' } });
    expect(rows[1]).toEqual({ row: 2, link: { slug: 'b', destination_url: 'https://example.com/b' } });
  });

  it('Kutt: pages saved one after another are numbered on across pages', async () => {
    const page = (skip: number, address: string) =>
      `{"total":2,"limit":1,"skip":${skip},"data":[{"address":"${address}","banned":false,"password":false,"target":"https://example.com/${address}"}]}`;
    expect(await collect(readKuttJson(`${page(0, 'a')}\n${page(1, 'b')}\n`))).toEqual([
      { row: 1, link: { slug: 'a', destination_url: 'https://example.com/a' } },
      { row: 2, link: { slug: 'b', destination_url: 'https://example.com/b' } },
    ]);
  });

  it('Kutt: a link its admins banned is reported, not brought back', async () => {
    const list =
      '{"total":1,"limit":10,"skip":0,"data":[{"address":"bad","banned":true,"password":false,"target":"https://example.com/malware"}]}';
    expect(await collect(readKuttJson(list))).toEqual([
      { row: 1, problem: { code: 'LINK_BANNED', message: 'the link is banned on Kutt', field: 'banned' } },
    ]);
  });

  it('YOURLS: MySQL’s zero date is refused as a date that does not exist', async () => {
    const stats =
      '{"links":{"link_1":{"shorturl":"http:\\/\\/sho.rt\\/z","url":"https:\\/\\/example.com\\/","title":"","timestamp":"0000-00-00 00:00:00","ip":"","clicks":"0"}},"stats":{"total_links":1,"total_clicks":0}}';
    expect(await collect(readYourlsJson(stats))).toEqual([
      {
        row: 1,
        problem: { code: 'VALIDATION_ERROR', message: 'timestamp is not a date that exists: "0000-00-00 00:00:00"', field: 'timestamp' },
      },
    ]);
  });
});
