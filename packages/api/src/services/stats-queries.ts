import { type RawBuilder, sql } from 'kysely';
import type { StatsRange } from '../domain/stats-range.ts';
import type { Db } from './database.ts';

/**
 * The statistics queries. They read only the rollups the click recorder maintains (never the raw
 * events), so their cost depends on the range and the number of links, not on the clicks.
 * docs/statistics.md explains the buckets; PostgreSQL 16 or later does the time zone arithmetic.
 */

/**
 * Whose clicks: one link, the live links carrying a tag, or a whole account. A tag's closed days
 * (before `openDay`) come from its cache for the current `members` (see tag-stats-cache.ts), the
 * open days from its links' rollups.
 */
export type StatsSubject =
  | { kind: 'link'; linkId: string }
  | { kind: 'tag'; tagId: string; members: string; openDay: TagOpenDay }
  | { kind: 'account'; accountId: string };

/** The first UTC day a tag's statistics read live: `YYYY-MM-DD` and its start in Unix ms. */
export interface TagOpenDay {
  iso: string;
  ms: number;
}

export interface SeriesRow {
  start: string;
  clicks: string;
  visitors: string;
}

export interface BreakdownRow {
  dimension: string;
  value: string;
  clicks: string;
  slug: string | null;
  title: string | null;
}

export interface StatsBounds {
  /** Start of the first bucket and end of the last one. */
  start: string;
  end: string;
  /** The UTC days the breakdowns count: start of the first, end of the last. */
  daysStart: string;
  daysEnd: string;
}

/** The live links carrying the tag (deleted links lose their tags, and are excluded again for safety). */
export const tagLinks = (tagId: string) => sql`
  select link_tag.link_id from link_tag join link on link.id = link_tag.link_id and link.deleted_at is null
  where link_tag.tag_id = ${tagId}`;

/**
 * The range rounded to whole buckets in `tz`: days start at local midnight, hours are UTC hours.
 * In zones whose offset is not a whole hour, a day bucket holds the rollup hours that start
 * within it (docs/statistics.md).
 */
function bounds(range: StatsRange): RawBuilder<unknown> {
  const unit = range.interval;
  const tz = zoneOf(range);
  return sql`
    select first, date_add(last, ${`1 ${unit}`}::interval, ${tz}) as stop
    from (select
      date_trunc(${unit}, to_timestamp(${range.start / 1000}::float8), ${tz}) as first,
      date_trunc(${unit}, to_timestamp(${(range.end - 1) / 1000}::float8), ${tz}) as last) rounded`;
}

/** Hour buckets are UTC hours: the rollups are hourly, so hours cannot start at :30. */
const zoneOf = (range: StatsRange) => (range.interval === 'hour' ? 'UTC' : range.tz);

function hourlyRows(subject: StatsSubject) {
  switch (subject.kind) {
    case 'link':
      return sql`select hour, clicks, visitors from click_hourly where link_id = ${subject.linkId}`;
    case 'tag':
      return sql`
        select hour, clicks, visitors from tag_click_hourly
        where tag_id = ${subject.tagId} and members = ${subject.members} and hour < to_timestamp(${subject.openDay.ms / 1000}::float8)
        union all
        select hour, clicks, visitors from click_hourly
        where link_id in (${tagLinks(subject.tagId)}) and hour >= to_timestamp(${subject.openDay.ms / 1000}::float8)`;
    case 'account':
      return sql`select hour, clicks, visitors from account_click_hourly where account_id = ${subject.accountId}`;
  }
}

/** Every bucket of the range, oldest first, with empty ones as 0; and the rounded range. */
export async function readSeries(db: Db, subject: StatsSubject, range: StatsRange): Promise<{ rows: SeriesRow[]; bounds: StatsBounds }> {
  const result = await seriesQuery(subject, range).execute(db);
  const first = result.rows[0];
  if (!first) throw new Error('a statistics range has at least one bucket');
  return {
    rows: result.rows,
    bounds: { start: first.range_start, end: first.range_end, daysStart: first.days_start, daysEnd: first.days_end },
  };
}

export function seriesQuery(subject: StatsSubject, range: StatsRange) {
  const unit = range.interval;
  const tz = zoneOf(range);
  return sql<SeriesRow & { range_start: string; range_end: string; days_start: string; days_end: string }>`
    with bounds as materialized (${bounds(range)}),
    hours as (
      select rows.hour, sum(rows.clicks) as clicks, sum(rows.visitors) as visitors
      from (${hourlyRows(subject)}) rows
      where rows.hour >= (select first from bounds) and rows.hour < (select stop from bounds)
      group by rows.hour
    ),
    buckets as (
      select generate_series(first, stop - interval '1 microsecond', ${`1 ${unit}`}::interval, ${tz}) as bucket from bounds
    ),
    totals as (
      select date_trunc(${unit}, hours.hour, ${tz}) as bucket, sum(hours.clicks) as clicks, sum(hours.visitors) as visitors
      from hours group by 1
    )
    select
      (extract(epoch from buckets.bucket) * 1000)::int8 as start,
      coalesce(totals.clicks, 0) as clicks,
      coalesce(totals.visitors, 0) as visitors,
      (extract(epoch from bounds.first) * 1000)::int8 as range_start,
      (extract(epoch from bounds.stop) * 1000)::int8 as range_end,
      (extract(epoch from date_trunc('day', bounds.first, 'UTC')) * 1000)::int8 as days_start,
      (extract(epoch from date_trunc('day', bounds.stop - interval '1 microsecond', 'UTC') + interval '1 day') * 1000)::int8 as days_end
    from buckets cross join bounds left join totals using (bucket)
    order by buckets.bucket`;
}

/** The UTC days the breakdowns count: every UTC day the rounded range touches. */
export function days(range: StatsRange) {
  return sql`
    select first_day, last_day,
      -- The whole ISO weeks (Monday to Sunday) inside the days, for the account's weekly link rollup.
      first_day + (8 - extract(isodow from first_day)::int) % 7 as weeks_from,
      last_day - extract(isodow from last_day)::int % 7 as weeks_to
    from (
      select (first at time zone 'UTC')::date as first_day, ((stop - interval '1 microsecond') at time zone 'UTC')::date as last_day
      from (${bounds(range)}) rounded
    ) utc_days`;
}

/**
 * A tag's daily dimension rows from its links' rollups, plus a `link` dimension for top links
 * (every click has exactly one device class, so a link's device rows sum to its clicks).
 */
export function tagDimensionRows(tagId: string) {
  return sql`
    select scan.day, case when top.link then 'link' else scan.dimension end as dimension,
      case when top.link then scan.link_id else scan.value end as value, scan.clicks
    from click_daily_dimension scan
    cross join lateral (values (false), (true)) top (link)
    where scan.link_id in (${tagLinks(tagId)}) and (not top.link or scan.dimension = 'device')`;
}

/** Rows of (dimension, value, clicks) for the subject over the breakdown days; `link` rows give top links. */
function dimensionRows(subject: StatsSubject) {
  switch (subject.kind) {
    case 'link':
      return sql`
        select dimension, value, clicks from click_daily_dimension
        where link_id = ${subject.linkId} and day between (select first_day from days) and (select last_day from days)`;
    case 'tag':
      return sql`
        select dimension, value, clicks from tag_click_daily_dimension
        where tag_id = ${subject.tagId} and members = ${subject.members}
          and day between (select first_day from days) and (select last_day from days) and day < ${subject.openDay.iso}::date
        union all
        select dimension, value, clicks from (${tagDimensionRows(subject.tagId)}) live
        where day between (select first_day from days) and (select last_day from days) and day >= ${subject.openDay.iso}::date`;
    case 'account':
      // Top links: whole weeks from the weekly rollup, the days around them from the daily one.
      // Deleted links keep their clicks in the account's totals but are not listed as top links.
      return sql`
        select dimension, value, clicks from account_click_daily_dimension
        where account_id = ${subject.accountId} and day between (select first_day from days) and (select last_day from days)
        union all
        select 'link', link_id, clicks from (
          select link_id, clicks from account_click_daily_link
          where account_id = ${subject.accountId} and day between (select first_day from days) and (select last_day from days)
            and (day < (select weeks_from from days) or day > (select weeks_to from days))
          union all
          select link_id, clicks from account_click_weekly_link
          where account_id = ${subject.accountId} and week between (select weeks_from from days) and (select weeks_to from days) - 6
        ) links
        where link_id in (select id from link where account_id = ${subject.accountId} and deleted_at is null)`;
  }
}

/** The `top` largest values of each dimension (ties by value), with slug and title for top links. */
export async function readBreakdowns(db: Db, subject: StatsSubject, range: StatsRange): Promise<BreakdownRow[]> {
  return (await breakdownQuery(subject, range).execute(db)).rows;
}

export function breakdownQuery(subject: StatsSubject, range: StatsRange) {
  return sql<BreakdownRow>`
    with days as materialized (${days(range)}),
    ranked as (
      select dimension, value, sum(clicks) as clicks,
        row_number() over (partition by dimension order by sum(clicks) desc, value) as rank
      from (${dimensionRows(subject)}) rows
      group by dimension, value
    )
    select ranked.dimension, ranked.value, ranked.clicks, link.slug, link.title
    from ranked left join link on ranked.dimension = 'link' and link.id = ranked.value
    where ranked.rank <= ${range.top}
    order by ranked.dimension, ranked.rank`;
}
