import type { Link, ShortlinksClient } from '@shortlinks/client';

/**
 * True when the link's title, destination, slug or short URL contains every word of the query,
 * ignoring case. The API has no search parameter, so the link list searches the links it has
 * fetched (docs/extension.md).
 */
export function matchesSearch(link: Link, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = [link.title, link.destination_url, link.slug, link.short_url].join('\n').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Pages fetched at most while searching: 5,000 links, newest first. */
export const SEARCH_PAGES_MAX = 50;

/** Every live link (newest first), optionally only those with one of `tagIds`, up to SEARCH_PAGES_MAX pages. */
export async function fetchAllLinks(client: ShortlinksClient, tagIds: string[]): Promise<Link[]> {
  const links: Link[] = [];
  for (let page = 1; page <= SEARCH_PAGES_MAX; page += 1) {
    const result = await client.links.list({ page, per_page: 100, ...(tagIds.length > 0 ? { tag_ids: tagIds } : {}) });
    links.push(...result.links);
    if (result.links.length === 0 || links.length >= result.total) break;
  }
  return links;
}

/** One page (1-based) of a list already in memory. */
export function pageOf<T>(items: T[], page: number, perPage: number): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}

/** The number of pages for `total` items, at least 1. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}
