import { sql } from 'kysely';
import type { Db } from '../database/database.ts';
import { AppError } from '../errors.ts';
import { randomSlug } from '../ids.ts';
import { LINK_FIELDS, type LinkRow } from './link-reads.ts';

/** The columns of `link_slug_live_key`: a slug is unique among the live links of one domain. */
const LIVE_SLUG_PER_DOMAIN = sql`(coalesce(domain_id, '')), slug`;

/**
 * Inserts the link under the requested slug, or under a fresh random one, for the API's creates
 * and the import alike. `on conflict do nothing` against the live-slug index keeps the transaction
 * usable when the slug is taken, even by a concurrent request of another account: a requested slug
 * is then SLUG_TAKEN, a random one is drawn again.
 */
export async function insertWithSlug(
  db: Db,
  values: Omit<LinkRow, 'slug' | 'click_count' | 'created_at'> & {
    account_id: string;
    created_at?: Date | undefined;
    /** The branded domain; none: the server's own (docs/domains.md). */
    domain_id?: string | null;
  },
  requested: string | undefined,
): Promise<LinkRow> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const slug = requested ?? randomSlug();
    const row = await db
      .insertInto('link')
      .values({ ...values, slug })
      .onConflict((conflict) => conflict.expression(LIVE_SLUG_PER_DOMAIN).where('deleted_at', 'is', null).doNothing())
      .returning(LINK_FIELDS)
      .executeTakeFirst();
    if (row) return row;
    if (requested !== undefined) throw new AppError('SLUG_TAKEN', `The slug "${requested}" is already in use`, 'slug');
  }
  throw new AppError('INTERNAL_ERROR', 'Could not find a free random slug');
}
