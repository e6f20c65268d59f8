import type { ListLinksQuery } from '@shortlinks/contract';
import { type CompiledQuery, sql } from 'kysely';
import { filledIn, STAND_IN } from '../database/compiled-query.ts';
import type { Db } from '../database/database.ts';
import { inListOrder } from './link-list-query.ts';
import { LINK_FIELDS, LINK_READ_COLUMNS, type LinkWithTags, tagsColumn } from './link-reads.ts';

/** The account's limits and count of live links, with one page of its live links. */
export interface UnfilteredPage {
  account: { plan: string; link_limit_override: number | null; tag_limit_override: number | null };
  total: number;
  links: LinkWithTags[];
}

interface PageRow extends Omit<LinkWithTags, 'id'> {
  id: string | null;
  plan: string;
  link_limit_override: number | null;
  tag_limit_override: number | null;
  live_link_count: string | number;
}

/** A page's columns: the link's, as the lateral subquery `page` selects them. */
const PAGE_COLUMNS = [...LINK_FIELDS.map((field) => `page.${field}` as const), 'page.tags' as const];

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
  const { rows } = await db.executeQuery(
    filledIn(compiled, [
      [STAND_IN.account, accountId],
      [STAND_IN.limit, query.per_page],
      [STAND_IN.offset, (query.page - 1) * query.per_page],
    ]),
  );
  const first = rows[0];
  if (!first) return undefined;
  // Each row carries the account's columns too, which toLink does not read: no copy without them.
  const links = (first.id === null ? [] : rows) as unknown as LinkWithTags[];
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
    const page = inListOrder(live, query).limit(STAND_IN.limit).offset(STAND_IN.offset).as('page');
    compiled = db
      .selectFrom('account')
      // One row with no link when the page is empty: the account's limits and count still come.
      .leftJoinLateral(page, (join) => join.onTrue())
      .select(['account.plan', 'account.link_limit_override', 'account.tag_limit_override', 'account.live_link_count'])
      .select(PAGE_COLUMNS)
      .where('account.id', '=', STAND_IN.account)
      .compile() as unknown as CompiledQuery<PageRow>;
    byOrder.set(key, compiled);
  }
  return compiled;
}
