/**
 * The manage page's views, addressed by the URL's hash so that each can be linked to (the popup
 * opens a link's statistics), reloaded, and left with the browser's Back:
 * `#/links`, `#/tags`, `#/overview`, `#/links/<id>` (a link's statistics), `#/tags/<id>` (a tag's).
 */
export type ManageRoute =
  | { view: 'links' }
  | { view: 'tags' }
  | { view: 'overview' }
  | { view: 'link'; linkId: string }
  | { view: 'tag'; tagId: string };

/** The route of a hash; anything unknown is the links list, the page's first view. */
export function parseManageRoute(hash: string): ManageRoute {
  const [section, id, ...rest] = hash.replace(/^#\/?/, '').split('/');
  if (rest.length > 0) return { view: 'links' };
  const decoded = id ? safeDecode(id) : undefined;
  if (section === 'links' && decoded) return { view: 'link', linkId: decoded };
  if (section === 'tags' && decoded) return { view: 'tag', tagId: decoded };
  if (section === 'tags' && id === undefined) return { view: 'tags' };
  if (section === 'overview' && id === undefined) return { view: 'overview' };
  return { view: 'links' };
}

/** The hash of a route (the inverse of {@link parseManageRoute}). */
export function manageRouteHash(route: ManageRoute): string {
  switch (route.view) {
    case 'link':
      return `#/links/${encodeURIComponent(route.linkId)}`;
    case 'tag':
      return `#/tags/${encodeURIComponent(route.tagId)}`;
    default:
      return `#/${route.view}`;
  }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
