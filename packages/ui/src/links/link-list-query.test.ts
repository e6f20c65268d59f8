import { describe, expect, test } from 'vitest';
import { type ListChoice, listQuery, pageCount } from './link-list-query.ts';

const choice = (change: Partial<ListChoice> = {}): ListChoice => ({
  search: '',
  tagId: '',
  domain: '',
  order: 'newest',
  page: 1,
  perPage: 20,
  ...change,
});

describe('listQuery', () => {
  test('the default list sends only the page: newest first is the server’s default', () => {
    expect(listQuery(choice())).toEqual({ page: 1, per_page: 20 });
  });

  test('the search is sent trimmed, and not at all when it is only spaces', () => {
    expect(listQuery(choice({ search: '  spring sale ' }))).toEqual({ page: 1, per_page: 20, search: 'spring sale' });
    expect(listQuery(choice({ search: '   ' }))).toEqual({ page: 1, per_page: 20 });
  });

  test('search, tag filter, order and page go together in one request', () => {
    expect(listQuery(choice({ search: '100%', tagId: 'tag_1', order: 'least-clicked', page: 3 }))).toEqual({
      page: 3,
      per_page: 20,
      search: '100%',
      tag_ids: ['tag_1'],
      sort: 'click_count',
      order: 'asc',
    });
    expect(listQuery(choice({ order: 'title-za' }))).toMatchObject({ sort: 'title', order: 'desc' });
    expect(listQuery(choice({ order: 'oldest' }))).toMatchObject({ sort: 'created_at', order: 'asc' });
  });

  test('a domain filter is sent as domain; every domain sends none', () => {
    expect(listQuery(choice({ domain: 'go.acme.example' }))).toEqual({ page: 1, per_page: 20, domain: 'go.acme.example' });
    expect(listQuery(choice())).not.toHaveProperty('domain');
  });
});

describe('pageCount', () => {
  test('there is always at least one page', () => {
    expect(pageCount(45, 20)).toBe(3);
    expect(pageCount(40, 20)).toBe(2);
    expect(pageCount(0, 20)).toBe(1);
  });
});
