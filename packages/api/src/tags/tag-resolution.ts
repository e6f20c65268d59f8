import { LIMITS, TAG_COLORS, type TagColor, type TagSummary } from '@shortlinks/contract';
import { sql } from 'kysely';
import { effectiveLimits } from '../accounts/plans.ts';
import { type AccountRow, type Db, storable } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { newId } from '../ids.ts';

/** Tags sorted by name as a person reads a list: ignoring case first, then exactly. */
export function byName(a: { name: string }, b: { name: string }): number {
  const left = a.name.toLowerCase();
  const right = b.name.toLowerCase();
  if (left !== right) return left < right ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Takes the next colours of the account's rotation (spec: "a colour is assigned in rotation"); the account must be locked. */
export async function takeRotationColors(db: Db, account: AccountRow, count: number): Promise<TagColor[]> {
  const colors = Array.from({ length: count }, (_, i) => TAG_COLORS[(account.color_cursor + i) % TAG_COLORS.length] as TagColor);
  account.color_cursor += count;
  await db.updateTable('account').set({ color_cursor: account.color_cursor }).where('id', '=', account.id).execute();
  return colors;
}

/** Fails with PLAN_LIMIT_REACHED when `adding` more tags would pass the account's tag limit; the account must be locked. */
export async function assertTagRoom(db: Db, account: AccountRow, adding: number): Promise<void> {
  const { tag_limit } = effectiveLimits(account);
  if (tag_limit === null || adding === 0) return;
  const { count } = await db
    .selectFrom('tag')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('account_id', '=', account.id)
    .executeTakeFirstOrThrow();
  if (Number(count) + adding > tag_limit) {
    throw new AppError(
      'PLAN_LIMIT_REACHED',
      adding === 1 && Number(count) >= tag_limit
        ? `The account is at its plan's limit of ${tag_limit} tags`
        : `Creating ${adding} more tags would pass the plan's limit of ${tag_limit} tags`,
    );
  }
}

/**
 * The tags a link should carry (spec: "Tags on links"), checked but not yet written: tag_ids must
 * be the account's tags (404 TAG_NOT_FOUND otherwise); tag_names match ignoring case, and the
 * unmatched (`missing`) are to be created with rotation colours ({@link createTags}), counting
 * toward the tag limit: with tag_names, the account row must be locked. Creating them apart lets a
 * write that may still be refused (a link whose slug is taken) create none.
 * The tags found are locked against deletion (FOR KEY SHARE) until the link is written: a tag
 * deleted meanwhile is then either not found or still there when the link takes it.
 */
export async function findTags(
  db: Db,
  account: AccountRow,
  tagIds: readonly string[] | undefined,
  tagNames: readonly string[] | undefined,
): Promise<{ found: TagSummary[]; missing: string[] }> {
  const resolved = new Map<string, TagSummary>();

  const ids = [...new Set(tagIds ?? [])];
  const unstorable = ids.find((id) => !storable(id));
  if (unstorable !== undefined) throw new AppError('TAG_NOT_FOUND', `Tag ${JSON.stringify(unstorable)} is not one of the account's tags`);
  if (ids.length > 0) {
    const found = await db
      .selectFrom('tag')
      .select(['id', 'name', 'color'])
      .where('account_id', '=', account.id)
      .where('id', 'in', ids)
      .forKeyShare()
      .execute();
    const missing = ids.find((id) => !found.some((tag) => tag.id === id));
    if (missing !== undefined) throw new AppError('TAG_NOT_FOUND', `Tag ${missing} is not one of the account's tags`);
    for (const tag of found) resolved.set(tag.id, tag as TagSummary);
  }

  const names = uniqueIgnoringCase(tagNames ?? []);
  let unmatched: string[] = [];
  if (names.length > 0) {
    const { rows: matches } = await sql<{ requested: string; id: string | null; name: string | null; color: string | null }>`
      select r.requested, matched.id, matched.name, matched.color
      from unnest(${names}::text[]) with ordinality as r(requested, position)
      left join lateral (
        select tag.id, tag.name, tag.color from tag
        where tag.account_id = ${account.id} and lower(tag.name) = lower(r.requested)
        for key share
      ) matched on true
      order by r.position`.execute(db);
    unmatched = matches.filter((row) => row.id === null).map((row) => row.requested);
    for (const row of matches) {
      if (row.id !== null && row.name !== null && row.color !== null) {
        resolved.set(row.id, { id: row.id, name: row.name, color: row.color as TagColor });
      }
    }
    if (resolved.size + unmatched.length > LIMITS.tagsPerLink) {
      throw validationError('tag_names', `a link carries at most ${LIMITS.tagsPerLink} tags`);
    }
  }
  if (resolved.size > LIMITS.tagsPerLink) {
    throw validationError(tagNames?.length ? 'tag_names' : 'tag_ids', `a link carries at most ${LIMITS.tagsPerLink} tags`);
  }
  await assertTagRoom(db, account, unmatched.length);
  return { found: [...resolved.values()], missing: unmatched };
}

/** Creates the tags {@link findTags} found missing, with the rotation's colours; the account must be locked. */
export async function createTags(db: Db, account: AccountRow, names: readonly string[]): Promise<TagSummary[]> {
  if (names.length === 0) return [];
  const colors = await takeRotationColors(db, account, names.length);
  const created = names.map((name, i) => ({ id: newId('tag'), account_id: account.id, name, color: colors[i] as TagColor }));
  await db.insertInto('tag').values(created).execute();
  return created.map(({ id, name, color }) => ({ id, name, color }));
}

function uniqueIgnoringCase(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Replaces the tags a link carries. */
export async function setLinkTags(db: Db, linkId: string, tags: readonly TagSummary[]): Promise<void> {
  await db.deleteFrom('link_tag').where('link_id', '=', linkId).execute();
  await attachTags(db, linkId, tags);
}

/** Tags a link that has none yet: nothing to remove first. */
async function attachTags(db: Db, linkId: string, tags: readonly TagSummary[]): Promise<void> {
  if (tags.length > 0) {
    await db
      .insertInto('link_tag')
      .values(tags.map((tag) => ({ link_id: linkId, tag_id: tag.id })))
      .execute();
  }
}
