import { DEFAULT_ORDER, type ListLinksQuery } from '@shortlinks/contract';
import type { Database } from '@shortlinks/db';
import { type SelectQueryBuilder, sql } from 'kysely';
import { type Db, storable } from '../database/database.ts';

/**
 * A LIKE pattern that finds `text` anywhere: `%`, `_` and the escape character `\` (LIKE's default)
 * stand for themselves, since a search is a plain substring.
 */
export function substringPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The words of an ASCII search (its runs of letters and digits, as written) that the trigram index
 * is asked for instead of the whole text, or `undefined` to ask it for the whole text.
 *
 * Asked for `%sku-0042%`, pg_trgm's GIN index reads every trigram of the text, those padded at the
 * `-` included (`ku `, `  0`, ` 00`): such word-boundary trigrams are in nearly every link, and
 * reading their posting lists was most of a product code's search (31 ms of it at a million links,
 * bench:list). Asked for `%sku%` and `%0042%`, the same index reads only the unpadded trigrams and
 * finds the same candidates in 11–16 ms; the whole text is then tested on each candidate. Every
 * word is a substring of the search, so `like '%word%'` holds wherever `like '%search%'` does: the
 * links found are exactly the same. A search that is one word, or has a word of one or two
 * characters (`sale 17`, `a-b`), keeps the index's own choice. Only ASCII: `lower()` of a
 * substring is then a substring of `lower()` of the whole, which a context-sensitive lower-casing
 * of other scripts need not keep (ASCII letters are lower-cased one by one in every collation).
 */
export function indexedWords(search: string): string[] | undefined {
  if (!/^[\x20-\x7e]*$/.test(search)) return undefined;
  // As written, not lower-cased here: PostgreSQL lower-cases each word as it lower-cases the text,
  // under the database's collation (a Turkish one makes `I` a dotless `ı`, which JavaScript would not).
  const words = search.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  // A shorter word has no trigram of its own: left out, what the padded ones said of it is lost
  // (`sale 17` would find every `sale` and test 73,000 links, where the whole text tests 700).
  if (words.length === 0 || words.some((word) => word.length < 3) || (words.length === 1 && words[0] === search)) return undefined;
  return [...new Set(words)];
}

/**
 * The account's live links whose title, destination URL, slug or external id holds `search`,
 * ignoring case: the rows of `link_search` (migration Migration20261126080000_link_searched_text),
 * one lower-cased text per live link read through its trigram index. The pattern is lower-cased by
 * PostgreSQL, as the text was, so the match is `ilike`'s. A search holds no control character (the
 * contract refuses them), so it never spans two of the fields, which a line feed separates.
 */
function linksWithText(db: Db, accountId: string, search: string) {
  const inAccount = db.selectFrom('link_search').where('link_search.account_id', '=', accountId);
  const words = indexedWords(search);
  if (words === undefined) {
    return inAccount.where('link_search.searched_text', 'like', sql<string>`lower(${substringPattern(search)})`);
  }
  const candidates = words.reduce(
    (found, word) => found.where('link_search.searched_text', 'like', sql<string>`lower(${substringPattern(word)})`),
    inAccount,
  );
  // `|| ''` is not the indexed column: the whole text is tested on the candidates, not looked up.
  return candidates.where(
    sql<string>`${sql.ref('link_search.searched_text')} || ''`,
    'like',
    sql<string>`lower(${substringPattern(search)})`,
  );
}

/** The links that carry one of `tagIds` (of any account: the caller keeps to one). */
function linksWithTag(db: Db, tagIds: string[]) {
  return db.selectFrom('link_tag').select('link_tag.link_id').where('link_tag.tag_id', 'in', tagIds);
}

/** The search and tag ids of a list request, as the queries use them; `undefined` is "not asked". */
function filtersOf(query: Pick<ListLinksQuery, 'tag_ids' | 'search'>) {
  const requested = query.tag_ids ?? [];
  // An id PostgreSQL cannot hold matches nothing, like any other unknown id; so does such a text.
  const tagIds = requested.length > 0 ? requested.filter(storable) : undefined;
  const search = query.search ? query.search : undefined;
  return { tagIds, search, matchesNothing: tagIds?.length === 0 || (search !== undefined && !storable(search)) };
}

/**
 * Runs a search's count or page with plans made for its text. The server names its statements
 * (packages/db/src/prepared-statements.ts), and after five runs PostgreSQL may keep a generic plan,
 * made without the values, whenever its estimate is below the average of the runs so far. For a
 * search that plan is blind: it cannot tell `docs` (183,000 links) from `sku-0042` (1,000), took
 * the account's index as selective, and a count of a broad word took 130 ms instead of 60 (a search
 * with a tag, up to 900 ms). `plan_cache_mode` is set for the transaction only; other statements
 * keep their generic plans. Costs three short round trips (begin, set, commit), which a search,
 * at 5 ms or more, does not notice.
 */
export async function withPlansForTheSearch<T>(db: Db, query: Pick<ListLinksQuery, 'search'>, run: (db: Db) => Promise<T>): Promise<T> {
  if (!query.search) return run(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
    return run(trx);
  });
}

/**
 * The live links of an account that a list request asks for (tag filter and search, both when
 * both are given), without order or page: the same rows are counted and paged.
 */
export function matchingLinks(db: Db, accountId: string, query: Pick<ListLinksQuery, 'tag_ids' | 'search'>, domainKey?: string) {
  const { tagIds, search, matchesNothing } = filtersOf(query);
  let live = db.selectFrom('link').where('link.account_id', '=', accountId).where('link.deleted_at', 'is', null);
  if (matchesNothing) return live.where((eb) => eb.val(false));
  // The domain filter (docs/domains.md): '' is the server's own domain.
  if (domainKey !== undefined) live = live.where(sql<string>`coalesce(${sql.ref('link.domain_id')}, '')`, '=', domainKey);
  if (tagIds) live = live.where('link.id', 'in', linksWithTag(db, tagIds));
  if (search) live = live.where('link.id', 'in', linksWithText(db, accountId, search).select('link_search.link_id'));
  return live;
}

/**
 * The page of `matchingLinks` a list request asks for, in its order (select the columns on it).
 * A search in the default order (created_at) chooses its page in `link_search`, which holds each
 * link's creation time with an index in that order: `link` is then read for the page's links only,
 * not for every match (a narrow search of 1,000 matches read 1,000 links to sort them), and a broad
 * one walks that index newest first until the page is full (docs/performance.md, bench:list).
 */
export function pageOfMatchingLinks(db: Db, accountId: string, query: ListLinksQuery, domainKey?: string) {
  const { tagIds, search, matchesNothing } = filtersOf(query);
  const offset = (query.page - 1) * query.per_page;
  if (!search || matchesNothing || query.sort !== 'created_at' || domainKey !== undefined) {
    return inListOrder(matchingLinks(db, accountId, query, domainKey), query)
      .limit(query.per_page)
      .offset(offset);
  }
  const direction = query.order ?? DEFAULT_ORDER.created_at;
  const found = linksWithText(db, accountId, search);
  const page = (
    tagIds
      ? // With tags, the matches are found first, all of them (`offset 0` keeps PostgreSQL from
        // merging this into the order below), as the count finds them. Walking the links newest
        // first and testing each instead took 200 ms for `webinar 4` with a tag: the planner
        // cannot see how few links match both.
        db.selectFrom(
          found
            .where('link_search.link_id', 'in', linksWithTag(db, tagIds))
            .select(['link_search.link_id', 'link_search.created_at'])
            .offset(0)
            .as('link_search'),
        )
      : found
  )
    .select('link_search.link_id')
    .orderBy('link_search.created_at', direction)
    .orderBy('link_search.link_id', direction)
    .limit(query.per_page)
    .offset(offset);
  const links = db
    .selectFrom('link')
    .where('link.account_id', '=', accountId)
    .where('link.deleted_at', 'is', null)
    .where('link.id', 'in', page);
  return inListOrder(links, query);
}

/**
 * How many links `matchingLinks` gives, counted the cheapest exact way (docs/performance.md,
 * bench:list): without a filter, the account's count of live links (kept by triggers); with only
 * tag_ids, the tag rows of the account's tags (deleting a link detaches its tags, so they name live
 * links only), in the (tag, link) index alone, a link with several of the tags once; with a
 * search, the matching rows of `link_search` (live links only), without reading a link.
 */
export function countOfMatchingLinks(db: Db, accountId: string, query: Pick<ListLinksQuery, 'tag_ids' | 'search'>, domainKey?: string) {
  const { tagIds, search, matchesNothing } = filtersOf(query);
  if (matchesNothing) {
    return db.selectNoFrom((eb) => eb.val('0').as('total'));
  }
  if (domainKey !== undefined) {
    return matchingLinks(db, accountId, query, domainKey).select((eb) => eb.fn.countAll<string>().as('total'));
  }
  if (search) {
    const found = linksWithText(db, accountId, search);
    return (tagIds ? found.where('link_search.link_id', 'in', linksWithTag(db, tagIds)) : found).select((eb) =>
      eb.fn.countAll<string>().as('total'),
    );
  }
  if (!tagIds) {
    return db.selectFrom('account').select('account.live_link_count as total').where('account.id', '=', accountId);
  }
  // Each tag's links in its (tag, link) index, in link order; if the tag is the account's. The
  // `union` of several tags drops a link carrying two of them: PostgreSQL 17 merges the ordered
  // lists (Merge Append, then Unique) instead of sorting them all, half the time of the
  // `count(distinct)` it replaces for three tags (22 ms instead of 38 for 66,000 entries).
  const [first, ...others] = [...new Set(tagIds)].map((tagId) =>
    db
      .selectFrom('link_tag')
      .select('link_tag.link_id')
      .where('link_tag.tag_id', '=', tagId)
      .where((eb) => eb.exists(eb.selectFrom('tag').select('tag.id').where('tag.id', '=', tagId).where('tag.account_id', '=', accountId))),
  );
  const tagged = others.reduce((union, next) => union.union(next), first as NonNullable<typeof first>);
  return db.selectFrom(tagged.as('tagged')).select((eb) => eb.fn.countAll<string>().as('total'));
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
