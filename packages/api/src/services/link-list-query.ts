import { DEFAULT_ORDER, type ListLinksQuery } from '@shortlinks/contract';
import type { Database } from '@shortlinks/db';
import { type SelectQueryBuilder, sql } from 'kysely';
import { type Db, storable } from './database.ts';

/**
 * What GET /links searches, in the order of the trigram index `link_search_idx` (migration
 * Migration20261125090000_link_search), which is what keeps a search fast at a million links.
 */
const SEARCHED_COLUMNS = ['link.title', 'link.destination_url', 'link.slug', 'link.external_id'] as const;

/**
 * A LIKE pattern that finds `text` anywhere: `%`, `_` and the escape character `\` (LIKE's default)
 * stand for themselves, since a search is a plain substring.
 */
export function substringPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The live links of an account that a list request asks for (tag filter and search, both when
 * both are given), without order or page: the same rows are counted and paged.
 */
export function matchingLinks(db: Db, accountId: string, query: Pick<ListLinksQuery, 'tag_ids' | 'search'>) {
  let live = db.selectFrom('link').where('link.account_id', '=', accountId).where('link.deleted_at', 'is', null);
  const requested = query.tag_ids ?? [];
  if (requested.length > 0) {
    // An id PostgreSQL cannot hold matches nothing, like any other unknown id.
    const tagIds = requested.filter(storable);
    live = live.where((eb) =>
      tagIds.length === 0
        ? eb.val(false)
        : eb.exists(
            eb
              .selectFrom('link_tag')
              .select('link_tag.link_id')
              .whereRef('link_tag.link_id', '=', 'link.id')
              .where('link_tag.tag_id', 'in', tagIds),
          ),
    );
  }
  const search = query.search ?? '';
  if (search !== '') {
    // A text PostgreSQL cannot hold is in no link.
    live = live.where((eb) =>
      storable(search) ? eb.or(SEARCHED_COLUMNS.map((column) => eb(column, 'ilike', substringPattern(search)))) : eb.val(false),
    );
  }
  return live;
}

/**
 * How many links `matchingLinks` gives, counted the cheapest exact way (docs/performance.md,
 * bench:list): without a filter, the account's count of live links (kept by triggers); with only
 * tag_ids, the tag rows of the account's tags (deleting a link detaches its tags, so they name live
 * links only), in the (tag, link) index alone; with a search, the matches themselves.
 */
export function countOfMatchingLinks(db: Db, accountId: string, query: Pick<ListLinksQuery, 'tag_ids' | 'search'>) {
  const tagIds = (query.tag_ids ?? []).filter(storable);
  if ((query.search ?? '') !== '' || (query.tag_ids?.length && tagIds.length === 0)) {
    return matchingLinks(db, accountId, query).select((eb) => eb.fn.countAll<string>().as('total'));
  }
  if (tagIds.length === 0) {
    return db.selectFrom('account').select('account.live_link_count as total').where('account.id', '=', accountId);
  }
  const tagged = db
    .selectFrom('link_tag')
    .innerJoin('tag', 'tag.id', 'link_tag.tag_id')
    .where('tag.account_id', '=', accountId)
    .where('link_tag.tag_id', 'in', tagIds);
  // A link with two of the tags counts once; with one tag, each row is one link.
  return new Set(tagIds).size === 1
    ? tagged.select((eb) => eb.fn.countAll<string>().as('total'))
    : tagged.select((eb) => eb.fn.count<string>('link_tag.link_id').distinct().as('total'));
}

/**
 * The list's order. Each sort ends on the link id, in the same direction, so that equal values
 * (the same click count, the same title) keep one order and pages neither repeat nor skip a link.
 * Each order has an index that reads it (link_account_created_idx, link_account_clicks_idx,
 * link_account_title_idx), so a page needs no sort of the whole account.
 */
export function inListOrder<O>(
  links: SelectQueryBuilder<Database, 'link', O>,
  query: Pick<ListLinksQuery, 'sort' | 'order'>,
): SelectQueryBuilder<Database, 'link', O> {
  const direction = query.order ?? DEFAULT_ORDER[query.sort];
  switch (query.sort) {
    case 'created_at':
      return links.orderBy('link.created_at', direction).orderBy('link.id', direction);
    case 'click_count':
      return links.orderBy('link.click_count', direction).orderBy('link.id', direction);
    case 'title':
      // Ignoring case (as people read a list), then exactly, so `apple` and `Apple` keep one order.
      return links
        .orderBy(sql`lower(${sql.ref('link.title')})`, direction)
        .orderBy('link.title', direction)
        .orderBy('link.id', direction);
  }
}
