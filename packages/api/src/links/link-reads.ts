import type { Link, TagColor, TagSummary } from '@shortlinks/contract';
import type { Database } from '@shortlinks/db';
import { type CompiledQuery, type ExpressionBuilder, type Selectable, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { filledIn, STAND_IN } from '../database/compiled-query.ts';
import { type Db, storable } from '../database/database.ts';
import type { ShortUrls } from '../domains/short-urls.ts';
import { byName } from '../tags/tag-resolution.ts';
import { SMART_LINK_FIELDS, withSmartFields } from './smart-link-fields.ts';

/** The fields a link object is built from. */
export const LINK_FIELDS = [
  'id',
  'domain_id',
  'slug',
  'destination_url',
  'title',
  'external_id',
  'comments',
  'expires_at',
  'expiration_url',
  'click_count',
  'created_at',
  ...SMART_LINK_FIELDS,
] as const;

/** {@link LINK_FIELDS} as columns of `link`, for queries that join it. */
export const LINK_COLUMNS = LINK_FIELDS.map((field) => `link.${field}` as const);

/** A link as the query builder (with the ORM's value conversion) reads it: timestamps as Date. */
export type LinkRow = Pick<Selectable<Database['link']>, (typeof LINK_FIELDS)[number]>;

/**
 * A link as the plain reads select it ({@link LINK_READ_COLUMNS}): timestamps already Unix ms, and
 * the bigint click count as `pg` gives it, text.
 */
export interface LinkRecord extends Omit<LinkRow, 'expires_at' | 'created_at' | 'click_count'> {
  expires_at: number | null;
  created_at: number;
  click_count: number | string;
}

/** A timestamp column as Unix ms, computed by PostgreSQL: no text parsed into a Date per value. */
const unixMs = (column: 'link.created_at' | 'link.expires_at') => sql<number>`floor(extract(epoch from ${sql.ref(column)}) * 1000)::float8`;

/** The columns of a link object, for the {@link plainReader}: what LINK_COLUMNS reads, in the spec's units. */
export const LINK_READ_COLUMNS = [
  'link.id',
  'link.domain_id',
  'link.slug',
  'link.destination_url',
  'link.title',
  'link.external_id',
  'link.comments',
  unixMs('link.expires_at').as('expires_at'),
  'link.expiration_url',
  'link.click_count',
  unixMs('link.created_at').as('created_at'),
  ...SMART_LINK_FIELDS.map((field) => `link.${field}` as const),
] as const;

const unixTime = (value: Date | number): number => (typeof value === 'number' ? value : value.getTime());

/** The spec's link object: fields present only when set are omitted when unset. */
export function toLink(row: LinkRow | LinkRecord, tags: TagSummary[], urls: ShortUrls): Link {
  const link: Link = {
    id: row.id,
    domain: urls.domainOf(row.domain_id),
    short_url: urls.shortUrl(row.domain_id, row.slug),
    destination_url: row.destination_url,
    title: row.title,
    slug: row.slug,
    tags,
    click_count: Number(row.click_count),
    created_at: unixTime(row.created_at),
  };
  if (row.external_id !== null) link.external_id = row.external_id;
  if (row.comments !== null) link.comments = row.comments;
  if (row.expires_at !== null) link.expires_at = unixTime(row.expires_at);
  if (row.expiration_url !== null) link.expiration_url = row.expiration_url;
  withSmartFields(link, row);
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
  // The objects are those JSON.parse made for this row alone, with just these keys: sorted in place.
  return (tags as TagSummary[]).sort(byName);
}

/** The GET query of each builder and way of naming a link, compiled once: building it cost a tenth of a GET. */
const compiledReads = new WeakMap<Db, Record<'id' | 'external', CompiledQuery<LinkWithTags>>>();

/** A link as the plain reads select it, with its tags as {@link tagsColumn} reads them. */
export type LinkWithTags = LinkRecord & { tags: { id: string; name: string; color: string }[] };

function compiledRead(db: Db) {
  let compiled = compiledReads.get(db);
  if (compiled === undefined) {
    const live = db
      .selectFrom('link')
      .select(LINK_READ_COLUMNS)
      .select(tagsColumn)
      .where('link.account_id', '=', STAND_IN.account)
      .where('link.deleted_at', 'is', null);
    compiled = {
      id: live.where('link.id', '=', STAND_IN.ref).compile() as CompiledQuery<LinkWithTags>,
      external: live.where('link.external_id', '=', STAND_IN.ref).compile() as CompiledQuery<LinkWithTags>,
    };
    compiledReads.set(db, compiled);
  }
  return compiled;
}

/** The live link of the account that `ref` names, with its tags; `db` a {@link plainReader}. */
export async function findLiveLinkWithTags(db: Db, accountId: string, ref: string): Promise<LinkWithTags | undefined> {
  if (!storable(ref)) return undefined;
  const compiled = ref.startsWith('lnk_') ? compiledRead(db).id : ref.startsWith('ext_') ? compiledRead(db).external : undefined;
  if (!compiled) return undefined;
  const value = ref.startsWith('ext_') ? ref.slice('ext_'.length) : ref;
  const result = await db.executeQuery(
    filledIn(compiled, [
      [STAND_IN.account, accountId],
      [STAND_IN.ref, value],
    ]),
  );
  return result.rows[0];
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

/**
 * The live link each reference names (`lnk_` id or `ext_` + external id), by reference, in one
 * query; a reference that names no live link of the account is absent.
 */
export async function liveLinkIdsByRef(db: Db, accountId: string, refs: readonly string[]): Promise<Map<string, string>> {
  const usable = refs.filter(storable);
  const ids = usable.filter((ref) => ref.startsWith('lnk_'));
  const externalIds = usable.filter((ref) => ref.startsWith('ext_')).map((ref) => ref.slice('ext_'.length));
  const byRef = new Map<string, string>();
  if (ids.length === 0 && externalIds.length === 0) return byRef;
  const rows = await db
    .selectFrom('link')
    .select(['link.id', 'link.external_id'])
    .where('link.account_id', '=', accountId)
    .where('link.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('link.id', 'in', ids)] : []),
        ...(externalIds.length > 0 ? [eb('link.external_id', 'in', externalIds)] : []),
      ]),
    )
    .execute();
  for (const row of rows) {
    byRef.set(row.id, row.id);
    if (row.external_id !== null) byRef.set(`ext_${row.external_id}`, row.id);
  }
  return byRef;
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
