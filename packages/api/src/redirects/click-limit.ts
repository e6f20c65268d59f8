import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { type Db, plainReader } from '../database/database.ts';

/**
 * Click limits (`max_clicks`, issue #30, docs/redirects.md): once a link has redirected that many
 * counted visits it behaves as expired. Exact across every instance on the database: each counted
 * visit takes one of the link's redirects with one atomic conditional statement, and PostgreSQL's
 * row lock orders the takers, so the count never passes the limit. Only limited links pay this
 * round trip; the others never reach it (their cached entry has no smart fields).
 *
 * Counted as `click_count` counts (GET, not a bot): a bot or a HEAD request is redirected while
 * redirects are left, without taking one.
 */
export class ClickLimits {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** Takes one of the link's redirects: false when all `max` are taken. */
  async take(linkId: string, max: number): Promise<boolean> {
    // The row is made by the write that set the limit; made here too if missing (a limit set by SQL by hand).
    const taken = await sql<{ redirected: string }>`
      insert into link_click_limit as counted (link_id, redirected) values (${linkId}, 1)
      on conflict (link_id) do update set redirected = counted.redirected + 1 where counted.redirected < ${max}
      returning redirected`.execute(plainReader(this.#orm));
    return taken.rows.length > 0 && Number(taken.rows[0]?.redirected) <= max;
  }

  /** Whether all `max` of the link's redirects are taken, taking none. */
  async reached(linkId: string, max: number): Promise<boolean> {
    const row = await plainReader(this.#orm)
      .selectFrom('link_click_limit')
      .select('redirected')
      .where('link_id', '=', linkId)
      .executeTakeFirst();
    return row !== undefined && Number(row.redirected) >= max;
  }
}

/**
 * Starts counting a link's redirects as its limit is set, from its clicks so far (`click_count`):
 * the limit counts visits as click_count does, so a link that already had them has used them.
 */
export async function startCounting(db: Db, linkId: string, alreadyRedirected: number): Promise<void> {
  await db
    .insertInto('link_click_limit')
    .values({ link_id: linkId, redirected: alreadyRedirected })
    .onConflict((conflict) => conflict.column('link_id').doUpdateSet({ redirected: alreadyRedirected }))
    .execute();
}

/** Forgets the count of a link whose limit is removed: a limit set again starts from its clicks then. */
export async function stopCounting(db: Db, linkId: string): Promise<void> {
  await db.deleteFrom('link_click_limit').where('link_id', '=', linkId).execute();
}
