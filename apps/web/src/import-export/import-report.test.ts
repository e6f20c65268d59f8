import type { ImportReport } from '@shortlinks/client';
import { ShortlinksError } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { countsText, importErrorOf, linksToWrite, reportLines, unlistedRows } from './import-report.ts';

const report = (changes: Partial<ImportReport> = {}): ImportReport => ({
  format: 'shortlinks-csv',
  dry_run: true,
  on_conflict: 'skip',
  read: 4,
  created: 2,
  updated: 0,
  unchanged: 0,
  skipped: 1,
  refused: 1,
  rows: [
    { row: 5, outcome: 'skipped', slug: 'kept', destination_url: 'https://example.com/kept' },
    { row: 2, outcome: 'created', slug: 'one', destination_url: 'https://example.com/1' },
    { row: 4, outcome: 'created', destination_url: 'https://example.com/3' },
  ],
  refusals: [{ row: 3, code: 'SLUG_INVALID', message: '"docs" is a reserved word', field: 'slug' }],
  ...changes,
});

describe("an import's report", () => {
  test('rows applied and refused are one table, in file order', () => {
    expect(reportLines(report()).map((line) => [line.row, line.result])).toEqual([
      [2, 'created'],
      [3, 'refused'],
      [4, 'created'],
      [5, 'skipped'],
    ]);
  });

  test('the counts that are not zero, and the links an import would write', () => {
    expect(countsText(report())).toBe('2 created, 1 skipped, 1 refused');
    expect(countsText(report({ created: 0, skipped: 0, refused: 0 }))).toBe('no rows');
    expect(linksToWrite(report({ updated: 3 }))).toBe(5);
  });

  test('rows counted but not listed (past the first 1,000 of each) are counted', () => {
    expect(unlistedRows(report())).toBe(0);
    // 1,501 applied with 3 listed; 1,201 refused with 1 listed.
    expect(unlistedRows(report({ created: 1500, refused: 1201 }))).toBe(1498 + 1200);
  });

  test('a failure of the whole file says what to do', () => {
    expect(importErrorOf(new ShortlinksError('UNKNOWN_FORMAT', 'x', 422))).toMatch(/Choose its format/);
    expect(importErrorOf(new ShortlinksError('PAYLOAD_TOO_LARGE', 'The file must be at most 10485760 bytes.', 413))).toBe(
      'This file is larger than the server imports at once (The file must be at most 10485760 bytes). Split it into smaller files.',
    );
    expect(importErrorOf(new Error('boom'))).toBe('Something went wrong. Please try again.');
  });
});
