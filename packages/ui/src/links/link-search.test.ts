import type { Link } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { matchesSearch, pageCount, pageOf } from './link-search.ts';

const link = {
  id: 'lnk_1',
  short_url: 'https://sho.rt/spring-sale',
  destination_url: 'https://shop.example.com/offers?season=spring',
  title: 'Big Spring Sale',
  slug: 'spring-sale',
  tags: [],
  click_count: 0,
  created_at: 0,
} satisfies Link;

describe('matchesSearch', () => {
  test('matches the title, destination or slug, ignoring case', () => {
    expect(matchesSearch(link, 'big spring')).toBe(true);
    expect(matchesSearch(link, 'SHOP.EXAMPLE')).toBe(true);
    expect(matchesSearch(link, 'spring-sale')).toBe(true);
  });

  test('every word must match somewhere; an empty query matches all', () => {
    expect(matchesSearch(link, 'spring winter')).toBe(false);
    expect(matchesSearch(link, '   ')).toBe(true);
  });
});

describe('paging a list in memory', () => {
  test('pages are 1-based slices and there is always at least one page', () => {
    const items = Array.from({ length: 45 }, (_, i) => i);
    expect(pageOf(items, 3, 20)).toEqual([40, 41, 42, 43, 44]);
    expect(pageCount(45, 20)).toBe(3);
    expect(pageCount(0, 20)).toBe(1);
  });
});
