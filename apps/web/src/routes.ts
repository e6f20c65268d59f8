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
} as const;

/** The document's title for a view: what it shows first, the product last (tabs and history read best that way). */
export function documentTitle(...parts: string[]): string {
  return [...parts.filter((part) => part.trim() !== ''), 'Shortlinks'].join(' · ');
}
