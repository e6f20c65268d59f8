import { describe, expect, test } from 'vitest';
import { documentTitle, linksAddress, listViewOf, paths } from './routes.ts';

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

  test('the links view’s address holds its search, tag filter, sort and page, and only what is not the default', () => {
    expect(linksAddress()).toBe('/');
    expect(linksAddress({ page: 1, order: 'newest' })).toBe('/');
    expect(linksAddress({ search: 'spring sale & more', tagId: 'tag_1', order: 'most-clicked', page: 3 })).toBe(
      '/?search=spring+sale+%26+more&tag=tag_1&sort=most-clicked&page=3',
    );
    expect(linksAddress({ domain: 'go.acme.example' })).toBe('/?domain=go.acme.example');
  });

  test('an address gives back the view it was made from', () => {
    const view = { search: 'Q3 “report”/50%', tagId: 'tag_x', domain: 'go.acme.example', order: 'title-za' as const, page: 2 };
    expect(listViewOf(linksAddress(view).slice(2))).toEqual(view);
    expect(listViewOf('')).toEqual({ search: '', tagId: '', domain: '', order: 'newest', page: 1 });
  });

  test('a part of an address it cannot read is left at its default (an old bookmark, a hand-edited URL)', () => {
    expect(listViewOf('?sort=cheapest&page=0')).toMatchObject({ order: 'newest', page: 1 });
    expect(listViewOf('page=-2')).toMatchObject({ page: 1 });
    expect(listViewOf('page=2.5')).toMatchObject({ page: 1 });
    expect(listViewOf('page=abc&tag=')).toMatchObject({ page: 1, tagId: '' });
  });
});
