import { describe, expect, test } from 'vitest';
import { type ManageRoute, manageRouteHash, parseManageRoute } from './manage-route.ts';

describe('manage page routes', () => {
  test('every view has a hash that leads back to it', () => {
    const routes: ManageRoute[] = [
      { view: 'links' },
      { view: 'tags' },
      { view: 'overview' },
      { view: 'link', linkId: 'lnk_4hG7Qx2LpZ0aB3cD' },
      { view: 'tag', tagId: 'tag_abc' },
      // External ids may hold any character; the hash keeps them whole.
      { view: 'link', linkId: 'ext_order/42 #7' },
    ];
    for (const route of routes) expect(parseManageRoute(manageRouteHash(route))).toEqual(route);
    expect(manageRouteHash({ view: 'link', linkId: 'ext_order/42 #7' })).toBe('#/links/ext_order%2F42%20%237');
  });

  test('no hash, and anything unknown, is the links list', () => {
    for (const hash of ['', '#', '#/', '#/nowhere', '#/links/a/b', '#/overview/x', '#/links/%E0%A4%A']) {
      expect(parseManageRoute(hash)).toEqual({ view: 'links' });
    }
  });
});
