import type { Link, TagColor, TagSummary } from '@shortlinks/contract';
import type { Database } from '@shortlinks/db';
import type { ExpressionBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { type Db, storable } from './database.ts';
import { byName } from './tag-resolution.ts';

/** The columns a link object is built from. */
export const LINK_COLUMNS = [
  'link.id',
  'link.slug',
  'link.destination_url',
  'link.title',
  'link.external_id',
  'link.comments',
  'link.expires_at',
  'link.expiration_url',
  'link.click_count',
  'link.created_at',
] as const;

export interface LinkRow {
  id: string;
  slug: string;
  destination_url: string;
  title: string;
  external_id: string | null;
  comments: string | null;
  expires_at: Date | null;
  expiration_url: string | null;
  click_count: number | string;
  created_at: Date;
}

/** The spec's link object: fields present only when set are omitted when unset. */
export function toLink(row: LinkRow, tags: TagSummary[], shortDomain: string): Link {
  const link: Link = {
    id: row.id,
    short_url: `${shortDomain}/${row.slug}`,
    destination_url: row.destination_url,
    title: row.title,
    slug: row.slug,
    tags,
    click_count: Number(row.click_count),
    created_at: row.created_at.getTime(),
  };
  if (row.external_id !== null) link.external_id = row.external_id;
  if (row.comments !== null) link.comments = row.comments;
  if (row.expires_at !== null) link.expires_at = row.expires_at.getTime();
  if (row.expiration_url !== null) link.expiration_url = row.expiration_url;
  return link;
}

/** The link's tags as one JSON column, so a link and its tags come back in one round trip. */
export function tagsColumn(eb: ExpressionBuilder<Database, 'link'>) {
  return jsonArrayFrom(
    eb
      .selectFrom('link_tag')
      .innerJoin('tag', 'tag.id', 'link_tag.tag_id')
      .select(['tag.id', 'tag.name', 'tag.color'])
      .whereRef('link_tag.link_id', '=', 'link.id'),
  ).as('tags');
}

/** Tags from {@link tagsColumn}, in the spec's order (by name). */
export function sortedTags(tags: readonly { id: string; name: string; color: string }[]): TagSummary[] {
  return tags.map((tag) => ({ id: tag.id, name: tag.name, color: tag.color as TagColor })).sort(byName);
}

/** The live link of the account that `ref` names, with its tags. */
export async function findLiveLinkWithTags(db: Db, accountId: string, ref: string) {
  const query = liveLinkByRef(db, accountId, ref);
  return query?.select(tagsColumn).executeTakeFirst();
}

/**
 * The live link of the account that `ref` names: a `lnk_` id or `ext_` + external id.
 * `forUpdate` locks it for the rest of the transaction.
 */
export async function findLiveLink(db: Db, accountId: string, ref: string, forUpdate = false): Promise<LinkRow | undefined> {
  const query = liveLinkByRef(db, accountId, ref);
  return forUpdate ? query?.forUpdate().executeTakeFirst() : query?.executeTakeFirst();
}

function liveLinkByRef(db: Db, accountId: string, ref: string) {
  if (!storable(ref)) return undefined;
  const live = db.selectFrom('link').select(LINK_COLUMNS).where('link.account_id', '=', accountId).where('link.deleted_at', 'is', null);
  if (ref.startsWith('lnk_')) return live.where('link.id', '=', ref);
  if (ref.startsWith('ext_')) return live.where('link.external_id', '=', ref.slice('ext_'.length));
  return undefined;
}

/** The tags of each link, sorted by name. */
export async function tagsOfLinks(db: Db, linkIds: readonly string[]): Promise<Map<string, TagSummary[]>> {
  const byLink = new Map<string, TagSummary[]>(linkIds.map((id) => [id, []]));
  if (linkIds.length === 0) return byLink;
  const rows = await db
    .selectFrom('link_tag')
    .innerJoin('tag', 'tag.id', 'link_tag.tag_id')
    .select(['link_tag.link_id', 'tag.id', 'tag.name', 'tag.color'])
    .where('link_tag.link_id', 'in', linkIds)
    .execute();
  for (const row of rows) byLink.get(row.link_id)?.push({ id: row.id, name: row.name, color: row.color as TagColor });
  for (const tags of byLink.values()) tags.sort(byName);
  return byLink;
}
