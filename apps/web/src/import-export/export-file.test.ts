import { describe, expect, test } from 'vitest';
import { EXPORT_CHOICES, exportFileName, exportQueryOf } from './export-file.ts';

const [csv, jsonl] = EXPORT_CHOICES;

describe('what Export asks for', () => {
  test('the list showing everything exports everything', () => {
    expect(exportQueryOf({ search: '', tagId: '', domain: '' }, 'csv')).toEqual({ format: 'csv' });
  });

  test("the list's search and tag are the export's filters; spaces around a search are not", () => {
    expect(exportQueryOf({ search: '  promo ', tagId: 'tag_1', domain: '' }, 'jsonl')).toEqual({
      format: 'jsonl',
      search: 'promo',
      tag_ids: ['tag_1'],
    });
    expect(exportQueryOf({ search: '   ', tagId: '', domain: '' }, 'csv')).toEqual({ format: 'csv' });
  });

  test("the list's domain filter is the export's too", () => {
    expect(exportQueryOf({ search: '', tagId: '', domain: 'go.acme.example' }, 'csv')).toEqual({
      format: 'csv',
      domain: 'go.acme.example',
    });
  });
});

describe("the saved file's name", () => {
  const day = new Date('2026-11-27T10:00:00Z');

  test("says the day, and the tag's name made safe for a file name", () => {
    expect(exportFileName(csv, undefined, day)).toBe('links-2026-11-27.csv');
    expect(exportFileName(jsonl, 'Spring Sale / 2026', day)).toBe('links-spring-sale-2026-2026-11-27.jsonl');
    expect(exportFileName(csv, '€€€', day)).toBe('links-2026-11-27.csv');
  });
});
