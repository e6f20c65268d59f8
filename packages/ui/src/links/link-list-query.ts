import type { LinkListQuery } from '@shortlinks/client';

/** The orders the link list offers: each a `sort` and `order` of GET /links (docs/api-decisions.md). */
export const LIST_ORDERS = [
  { value: 'newest', label: 'Newest first', sort: 'created_at', order: 'desc' },
  { value: 'oldest', label: 'Oldest first', sort: 'created_at', order: 'asc' },
  { value: 'most-clicked', label: 'Most clicks', sort: 'click_count', order: 'desc' },
  { value: 'least-clicked', label: 'Fewest clicks', sort: 'click_count', order: 'asc' },
  { value: 'title-az', label: 'Title A–Z', sort: 'title', order: 'asc' },
  { value: 'title-za', label: 'Title Z–A', sort: 'title', order: 'desc' },
] as const satisfies readonly { value: string; label: string; sort: LinkListQuery['sort']; order: LinkListQuery['order'] }[];

export type ListOrder = (typeof LIST_ORDERS)[number]['value'];

/** What the list shows: the server searches, filters, sorts and pages (GET /links). */
export interface ListChoice {
  search: string;
  tagId: string;
  /** A domain's name (GET /links?domain=), or '' for every domain. */
  domain: string;
  order: ListOrder;
  page: number;
  perPage: number;
}

/** The list request for what the person chose; what is left at its default is not sent. */
export function listQuery(choice: ListChoice): LinkListQuery {
  const query: LinkListQuery = { page: choice.page, per_page: choice.perPage };
  const search = choice.search.trim();
  if (search !== '') query.search = search;
  if (choice.tagId !== '') query.tag_ids = [choice.tagId];
  if (choice.domain !== '') query.domain = choice.domain;
  const order = LIST_ORDERS.find((option) => option.value === choice.order);
  if (order && order.value !== 'newest') {
    query.sort = order.sort;
    query.order = order.order;
  }
  return query;
}

/** The number of pages for `total` items, at least 1. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** What the person chose to see, which a host may keep in its address: everything but the page size. */
export type ListView = Omit<ListChoice, 'perPage'>;

/** The list as it first opens: every link, newest first, page 1. */
export const DEFAULT_LIST_VIEW: ListView = { search: '', tagId: '', domain: '', order: 'newest', page: 1 };

/** Whether `value` names one of the list's orders (an address may hold anything). */
export function isListOrder(value: string): value is ListOrder {
  return LIST_ORDERS.some((option) => option.value === value);
}
