import { DAY_MS } from '@shortlinks/contract';
import { sql } from 'kysely';
import type { Db } from '../database/database.ts';
import { days, type TagOpenDay, tagDimensionRows, tagLinks } from './stats-queries.ts';
import type { StatsRange } from './stats-range.ts';

/**
 * A tag's statistics sum the rollups of its live links, which costs links × days × values rows
 * per request (hundreds of thousands for a big tag). Closed days — UTC days that ended more than
 * {@link CLOSING_GRACE_MS} ago, which no new click reaches — are therefore summed once per tag and kept, keyed by a fingerprint of
 * the tag's live links: when a link is tagged, untagged or deleted the fingerprint changes and
 * the old sums are simply never read again (and are deleted at the next fill), so no write path
 * has to keep them current. Today is always read live from the links' rollups. Clicks flushed
 * after their day closed (a database outage) make the flush drop the marks of the days they
 * touch, so those days are summed again (docs/statistics.md).
 */

/** A day closes this long after its end: far more than a flush interval (at most 60 s). */
export const CLOSING_GRACE_MS = 5 * 60_000;

/** The first UTC day read live (today, or yesterday during the grace after midnight), for a request at `now`. */
export function tagOpenDay(now: number): TagOpenDay {
  const ms = Math.floor((now - CLOSING_GRACE_MS) / DAY_MS) * DAY_MS;
  return { ms, iso: new Date(ms).toISOString().slice(0, 10) };
}

/**
 * The account's tag with its live link ids and their md5, sorted (the key of its cached sums), and
 * whether any closed day of the range still has to be summed; undefined when the account has no
 * such tag. One round trip: a statistics request of a tag usually needs no other before its reads.
 */
export async function findTagForStats(
  db: Db,
  accountId: string,
  tagId: string,
  range: StatsRange,
  openDay: TagOpenDay,
): Promise<{ linksFingerprint: string; linkIds: string[]; missing: boolean } | undefined> {
  const result = await sql<{ links_fingerprint: string; link_ids: string[]; missing: boolean }>`
    -- Materialized: the fingerprint is computed once, not once per use.
    with found as materialized (
      select tag.id, member.links_fingerprint, member.link_ids
      from tag cross join lateral (
        select md5(coalesce(string_agg(link_id, ',' order by link_id), '')) as links_fingerprint,
          coalesce(array_agg(link_id), '{}') as link_ids
        from (${tagLinks(tagId)}) member
      ) member
      where tag.id = ${tagId} and tag.account_id = ${accountId}
    ),
    days as (${days(range)})
    select found.links_fingerprint, found.link_ids, exists (
      select 1 from days, generate_series(days.first_day, least(days.last_day, ${openDay.iso}::date - 1), interval '1 day') closed (day)
      where not exists (
        select 1 from tag_stats_day done where done.tag_id = found.id and done.links_fingerprint = found.links_fingerprint and done.day = closed.day::date
      )
    ) as missing
    from found`.execute(db);
  const found = result.rows[0];
  return found && { linksFingerprint: found.links_fingerprint, linkIds: found.link_ids, missing: found.missing };
}

/** Sums the closed days of the range that are not cached yet for this set of links (one statement; usually nothing to do). */
export async function fillTagCache(db: Db, tagId: string, linksFingerprint: string, range: StatsRange, openDay: TagOpenDay): Promise<void> {
  await sql`
    with days as materialized (${days(range)}),
    wanted as materialized (
      select day::date as day
      from days, generate_series(days.first_day, least(days.last_day, ${openDay.iso}::date - 1), interval '1 day') day
      except
      select day from tag_stats_day where tag_id = ${tagId} and links_fingerprint = ${linksFingerprint}
    ),
    hourly as (
      insert into tag_click_hourly (tag_id, links_fingerprint, hour, clicks, visitors)
      select ${tagId}, ${linksFingerprint}, hourly.hour, sum(hourly.clicks), sum(hourly.visitors)
      from click_hourly hourly
      where hourly.link_id in (${tagLinks(tagId)})
        and hourly.hour >= (select min(day) from wanted)::timestamp at time zone 'UTC'
        and hourly.hour < ((select max(day) from wanted) + 1)::timestamp at time zone 'UTC'
        and (hourly.hour at time zone 'UTC')::date in (select day from wanted)
      group by hourly.hour
      on conflict (tag_id, links_fingerprint, hour) do update set clicks = excluded.clicks, visitors = excluded.visitors
    ),
    dimensions as (
      insert into tag_click_daily_dimension (tag_id, links_fingerprint, day, dimension, value, clicks)
      select ${tagId}, ${linksFingerprint}, live.day, live.dimension, live.value, sum(live.clicks)
      from (${tagDimensionRows(tagId)}) live
      where live.day between (select min(day) from wanted) and (select max(day) from wanted) and live.day in (select day from wanted)
      group by live.day, live.dimension, live.value
      on conflict (tag_id, links_fingerprint, day, dimension, value) do update set clicks = excluded.clicks
    ),
    marked as (
      insert into tag_stats_day (tag_id, links_fingerprint, day) select ${tagId}, ${linksFingerprint}, day from wanted on conflict do nothing
    ),
    -- Sums of an earlier set of links are never read again.
    stale_days as (
      delete from tag_stats_day where tag_id = ${tagId} and links_fingerprint <> ${linksFingerprint} and exists (select 1 from wanted)
    ),
    stale_hours as (
      delete from tag_click_hourly where tag_id = ${tagId} and links_fingerprint <> ${linksFingerprint} and exists (select 1 from wanted)
    ),
    stale_dimensions as (
      delete from tag_click_daily_dimension where tag_id = ${tagId} and links_fingerprint <> ${linksFingerprint} and exists (select 1 from wanted)
    )
    select count(*) from wanted`.execute(db);
}
