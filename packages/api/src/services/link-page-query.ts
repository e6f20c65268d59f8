import type { ListLinksQuery } from '@shortlinks/contract';
import { type CompiledQuery, sql } from 'kysely';
import type { Db } from './database.ts';
import { inListOrder } from './link-list-query.ts';
import { LINK_READ_COLUMNS, type LinkRecord, tagsColumn } from './link-reads.ts';

/** A link of the page, with its tags as {@link tagsColumn} reads them. */
export type PageLink = LinkRecord & { tags: { id: string; name: string; color: string }[] };

/** The account's limits and count of live links, with one page of its live links. */
export interface UnfilteredPage {
  account: { plan: string; link_limit_override: number | null; tag_limit_override: number | null };
  total: number;
  links: PageLink[];
}

interface PageRow extends Omit<PageLink, 'id'> {
  id: string | null;
  plan: string;
  link_limit_override: number | null;
  tag_limit_override: number | null;
  live_link_count: string | number;
}

/** Stand-ins compiled into the statement once, replaced by the request's values on every call. */
const ACCOUNT = '\u0000account';
const LIMIT = -1_000_001;
const OFFSET = -1_000_002;

const PAGE_COLUMNS = [
  'id',
  'slug',
  'destination_url',
  'title',
  'external_id',
  'comments',
  'expires_at',
  'expiration_url',
  'click_count',
  'created_at',
  'tags',
] as const;

/** The statement of each builder and order, compiled once: building it cost more than a tenth of a list request. */
const compiledPages = new WeakMap<Db, Map<string, CompiledQuery<PageRow>>>();

/**
 * An unfiltered page of the account's live links (no search, no tag filter: every client's first
 * view), in the order asked, with what else the answer needs, in one statement and one round trip:
 * the account row (its limits, and its count of live links, which triggers keep: the `total`)
 * joined with the page. The list with a filter counts its matches in a statement of its own, on
 * another connection, while the page is read (link-service.ts).
 */
export async function unfilteredPage(db: Db, accountId: string, query: ListLinksQuery): Promise<UnfilteredPage | undefined> {
  const compiled = compiledPage(db, query);
  const parameters = compiled.parameters.map((value) =>
    value === ACCOUNT ? accountId : value === LIMIT ? query.per_page : value === OFFSET ? (query.page - 1) * query.per_page : value,
  );
  const { rows } = await db.executeQuery<PageRow>({ ...compiled, parameters });
  const first = rows[0];
  if (!first) return undefined;
  // Each row carries the account's columns too, which toLink does not read: no copy without them.
  const links = (first.id === null ? [] : rows) as unknown as PageLink[];
  return {
    account: { plan: first.plan, link_limit_override: first.link_limit_override, tag_limit_override: first.tag_limit_override },
    total: Number(first.live_link_count),
    links,
  };
}

function compiledPage(db: Db, query: Pick<ListLinksQuery, 'sort' | 'order'>): CompiledQuery<PageRow> {
  let byOrder = compiledPages.get(db);
  if (byOrder === undefined) {
    byOrder = new Map();
    compiledPages.set(db, byOrder);
  }
  const key = `${query.sort} ${query.order ?? ''}`;
  let compiled = byOrder.get(key);
  if (compiled === undefined) {
    const live = db
      .selectFrom('link')
      .select(LINK_READ_COLUMNS)
      .select(tagsColumn)
      .where('link.account_id', '=', sql<string>`"account"."id"`)
      .where('link.deleted_at', 'is', null);
    const page = inListOrder(live, query).limit(LIMIT).offset(OFFSET).as('page');
    compiled = db
      .selectFrom('account')
      // One row with no link when the page is empty: the account's limits and count still come.
      .leftJoinLateral(page, (join) => join.onTrue())
      .select(['account.plan', 'account.link_limit_override', 'account.tag_limit_override', 'account.live_link_count'])
      .select(PAGE_COLUMNS.map((column) => `page.${column}` as const))
      .where('account.id', '=', ACCOUNT)
      .compile() as unknown as CompiledQuery<PageRow>;
    byOrder.set(key, compiled);
  }
  return compiled;
}
