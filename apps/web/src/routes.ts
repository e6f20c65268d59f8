import { DEFAULT_LIST_VIEW, isListOrder, type ListView } from '@shortlinks/ui';

/**
 * The dashboard's addresses, below the server's /app (the router's base). One place builds them, so
 * a link in the list, in a chart and in the navigation lead to the same page.
 */
export const BASE = '/app';

export const paths = {
  links: '/',
  link: (id: string) => `/links/${encodeURIComponent(id)}`,
  tags: '/tags',
  tag: (id: string) => `/tags/${encodeURIComponent(id)}`,
  overview: '/overview',
  members: '/members',
  sessions: '/sessions',
  security: '/security',
  webhooks: '/webhooks',
  domains: '/domains',
  keys: '/keys',
  /** The audit log: `?actor_id=…&resource_id=…&action=…&page=…&per_page=…` (views/AuditLogPage.tsx). */
  audit: '/audit',
  /** Connect: `?challenge=…&client=extension` (views/ConnectPage.tsx). */
  connect: '/connect',
} as const;

/**
 * The one-time link's page a pathname is, if any: `/app/setup#slp_…` (the first owner) or
 * `/app/set-password#slp_…` (a new password). The secret is in the fragment, never sent to a server.
 */
export function passwordLinkPurposeOf(pathname: string): 'setup' | 'password' | undefined {
  if (pathname === `${BASE}/setup`) return 'setup';
  if (pathname === `${BASE}/set-password`) return 'password';
  return undefined;
}

/**
 * The links view's address for what it shows: `/?search=spring&tag=tag_…&domain=go.acme.com&sort=most-clicked&page=2`,
 * each part only when it is not the default, so a reload, Back and a bookmark show the same list.
 */
export function linksAddress(view: Partial<ListView> = {}): string {
  const shown = { ...DEFAULT_LIST_VIEW, ...view };
  const query = new URLSearchParams();
  if (shown.search !== '') query.set('search', shown.search);
  if (shown.tagId !== '') query.set('tag', shown.tagId);
  if (shown.domain !== '') query.set('domain', shown.domain);
  if (shown.order !== DEFAULT_LIST_VIEW.order) query.set('sort', shown.order);
  if (shown.page > 1) query.set('page', String(shown.page));
  const text = query.toString();
  return text === '' ? paths.links : `${paths.links}?${text}`;
}

/** What an address's query asks the links view to show; a part it cannot read is left at its default. */
export function listViewOf(search: string): ListView {
  const query = new URLSearchParams(search);
  const sort = query.get('sort') ?? '';
  const page = Number(query.get('page'));
  return {
    search: query.get('search') ?? '',
    tagId: query.get('tag') ?? '',
    domain: query.get('domain') ?? '',
    order: isListOrder(sort) ? sort : DEFAULT_LIST_VIEW.order,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The document's title for a view: what it shows first, the product last (tabs and history read best that way). */
export function documentTitle(...parts: string[]): string {
  return [...parts.filter((part) => part.trim() !== ''), 'Shortlinks'].join(' · ');
}
