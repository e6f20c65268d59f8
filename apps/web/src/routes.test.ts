import { describe, expect, test } from 'vitest';
import { documentTitle, paths } from './routes.ts';

describe('dashboard addresses', () => {
  test('a link’s and a tag’s statistics pages are addressed by their ids, encoded', () => {
    expect(paths.link('lnk_V1StGXR8Z5jdHi')).toBe('/links/lnk_V1StGXR8Z5jdHi');
    expect(paths.tag('tag/odd id')).toBe('/tags/tag%2Fodd%20id');
  });

  test('document titles name the view first and the product last, skipping empty parts', () => {
    expect(documentTitle('Links')).toBe('Links · Shortlinks');
    expect(documentTitle('Spring launch', 'Statistics')).toBe('Spring launch · Statistics · Shortlinks');
    expect(documentTitle('', 'Statistics')).toBe('Statistics · Shortlinks');
  });
});
