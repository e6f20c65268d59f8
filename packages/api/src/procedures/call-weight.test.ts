import { describe, expect, test } from 'vitest';
import { callWeight, requestWeight } from './call-weight.ts';

const links = (count: number) => Array.from({ length: count }, (_, i) => ({ destination_url: `https://example.com/${i}` }));
const ids = (count: number) => Array.from({ length: count }, (_, i) => `lnk_${i}`);

describe('what a call spends of its rate limit', () => {
  test('a call that is no bulk call spends 1, whatever its input', () => {
    expect(callWeight({ path: 'links.list', input: { per_page: 100 } })).toBe(1);
    expect(callWeight({ path: 'links.create', input: { links: links(100) } })).toBe(1);
    expect(callWeight({ path: 'no.such', input: undefined })).toBe(1);
  });

  test('a bulk call spends 1 + ceil(items / 10): 2 for 1 to 10 items, 11 for 100', () => {
    expect(callWeight({ path: 'links.bulkCreate', input: { links: links(1) } })).toBe(2);
    expect(callWeight({ path: 'links.bulkCreate', input: { links: links(10) } })).toBe(2);
    expect(callWeight({ path: 'links.bulkCreate', input: { links: links(11) } })).toBe(3);
    expect(callWeight({ path: 'links.bulkCreate', input: { links: links(100) } })).toBe(11);
    expect(callWeight({ path: 'links.bulkUpdate', input: { ids: ids(55), changes: {} } })).toBe(7);
    expect(callWeight({ path: 'links.bulkDelete', input: { ids: ids(100) } })).toBe(11);
  });

  test("REST's comma-separated ids weigh as the same ids in a list", () => {
    expect(callWeight({ path: 'links.bulkDelete', input: { ids: ids(25).join(',') } })).toBe(4);
    expect(callWeight({ path: 'links.bulkDelete', input: { ids: 'lnk_a,,lnk_b,' } })).toBe(2);
  });

  test('a list longer than a bulk call takes weighs as the longest; one that is no list as none', () => {
    expect(callWeight({ path: 'links.bulkCreate', input: { links: links(5000) } })).toBe(11);
    expect(callWeight({ path: 'links.bulkCreate', input: { links: 'many' } })).toBe(2);
    expect(callWeight({ path: 'links.bulkCreate', input: { links: { length: 1e9 } } })).toBe(1);
    expect(callWeight({ path: 'links.bulkCreate', input: null })).toBe(1);
  });

  test('an import spends 1 + ceil(file bytes / 256 KiB): 1 for an empty file, 41 for 10 MiB', () => {
    expect(callWeight({ path: 'links.import', input: { file: '' } })).toBe(1);
    expect(callWeight({ path: 'links.import', input: { file: 'slug,destination_url\n' } })).toBe(2);
    expect(callWeight({ path: 'links.import', input: { file: 'x'.repeat(256 * 1024) } })).toBe(2);
    expect(callWeight({ path: 'links.import', input: { file: 'é'.repeat(128 * 1024 + 1) } })).toBe(3);
    expect(callWeight({ path: 'links.import', input: { file: 'x'.repeat(10 * 1024 * 1024) } })).toBe(41);
    expect(callWeight({ path: 'links.import', input: { file: 42 } })).toBe(1);
  });

  test('a request weighs what its calls weigh together', () => {
    expect(requestWeight([])).toBe(0);
    expect(requestWeight(Array.from({ length: 10 }, () => ({ path: 'links.bulkCreate', input: { links: links(100) } })))).toBe(110);
    expect(
      requestWeight([
        { path: 'tags.list', input: undefined },
        { path: 'links.bulkDelete', input: { ids: ids(3) } },
      ]),
    ).toBe(3);
  });
});
