import { HOUR_MS } from '@shortlinks/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../database/database.ts';
import type { StatsRange } from './stats-range.ts';

/**
 * The statistics queries. They read only the rollups the click recorder maintains (never the raw
 * events), so their cost depends on the range and the number of links, not on the clicks.
 * docs/statistics.md explains the buckets; PostgreSQL 16 or later does the time zone arithmetic.
 */

/**
 * Whose clicks: one link, the live links carrying a tag, or a whole account. A tag's closed days
 * (before `openDay`) come from its cache for the current `linksFingerprint` (see tag-stats-cache.ts), the
 * open days from the rollups of `linkIds`, the live links that `linksFingerprint` fingerprints (found once
 * per request, so every read counts the same links).
 */
export type StatsSubject =
  | { kind: 'link'; linkId: string }
  | { kind: 'tag'; tagId: string; linksFingerprint: string; linkIds: string[]; openDay: TagOpenDay }
  | { kind: 'account'; accountId: string };

/** The first UTC day a tag's statistics read live: `YYYY-MM-DD` and its start in Unix ms. */
export interface TagOpenDay {
  iso: string;
  ms: number;
}

/** One bucket of the series, Unix ms start. */
export interface SeriesBucket {
  start: number;
  clicks: number;
  unique_visitors: number;
}

export interface BreakdownRow {
  dimension: string;
  value: string;
  clicks: string;
  slug: string | null;
  title: string | null;
  /** The link's branded domain (null: the server's own or not a link), for its short URL. */
  domain_id: string | null;
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
        where tag_id = ${subject.tagId} and links_fingerprint = ${subject.linksFingerprint} and hour < to_timestamp(${subject.openDay.ms / 1000}::float8)
        union all
        select hour, clicks, visitors from click_hourly
        where link_id = any(${subject.linkIds}::text[]) and hour >= to_timestamp(${subject.openDay.ms / 1000}::float8)`;
    case 'account':
      return sql`select hour, clicks, visitors from account_click_hourly where account_id = ${subject.accountId}`;
  }
}

interface SeriesAnswer {
  range_start: string;
  range_end: string;
  days_start: string;
  days_end: string;
  /** Day interval only: every bucket start in `tz` (hour buckets are every 3,600,000 ms from range_start). */
  starts: string[] | null;
  /** The buckets with clicks, in no order. */
  bucket_starts: string[] | null;
  clicks: string[] | null;
  visitors: string[] | null;
}

/**
 * Every bucket of the range, oldest first, with empty ones as 0; and the rounded range. PostgreSQL
 * answers one row: the bounds and the buckets that have clicks, as arrays; the empty buckets are
 * filled in here. (Answering every bucket as a row, with its epoch computed in SQL, cost several
 * times the reading of the rollups: docs/performance.md.)
 */
export async function readSeries(
  db: Db,
  subject: StatsSubject,
  range: StatsRange,
): Promise<{ buckets: SeriesBucket[]; bounds: StatsBounds }> {
  const answer = (await seriesQuery(subject, range).execute(db)).rows[0];
  if (!answer) throw new Error('the series query answers one row');
  const counted = new Map<number, number>();
  const { bucket_starts: found, clicks, visitors } = answer;
  for (let i = 0; found && i < found.length; i++) counted.set(Number(found[i]), i);
  const bucketStarts = answer.starts?.map(Number) ?? hourStarts(Number(answer.range_start), Number(answer.range_end));
  const buckets = bucketStarts.map((start) => {
    const at = counted.get(start);
    return at === undefined
      ? { start, clicks: 0, unique_visitors: 0 }
      : { start, clicks: Number(clicks?.[at]), unique_visitors: Number(visitors?.[at]) };
  });
  return {
    buckets,
    bounds: { start: answer.range_start, end: answer.range_end, daysStart: answer.days_start, daysEnd: answer.days_end },
  };
}

/** Hour buckets are UTC hours: every 3,600,000 ms from the rounded start. */
function hourStarts(start: number, end: number): number[] {
  const starts: number[] = [];
  for (let at = start; at < end; at += HOUR_MS) starts.push(at);
  return starts;
}

/** Unix ms of a timestamptz (whole seconds: exact in float8, and cheaper than extract's numeric). */
const epochMs = (timestamp: RawBuilder<unknown>) => sql`(date_part('epoch', ${timestamp}) * 1000)::int8`;

export function seriesQuery(subject: StatsSubject, range: StatsRange) {
  const tz = zoneOf(range);
  const day = range.interval === 'day';
  // Rollup hours are UTC hours, so an hour bucket is the rollup row's own hour.
  const bucket = day ? sql`date_trunc('day', rows.hour, ${tz})` : sql`rows.hour`;
  const starts = day
    ? sql`(select array_agg(${epochMs(sql`bucket`)} order by bucket)
        from generate_series(first, stop - interval '1 microsecond', interval '1 day', ${tz}) bucket)`
    : sql`null::int8[]`;
  return sql<SeriesAnswer>`
    with bounds as materialized (${bounds(range)}),
    totals as (
      select ${bucket} as bucket, sum(rows.clicks) as clicks, sum(rows.visitors) as visitors
      from (${hourlyRows(subject)}) rows
      where rows.hour >= (select first from bounds) and rows.hour < (select stop from bounds)
      group by 1
    )
    select
      ${epochMs(sql`first`)} as range_start,
      ${epochMs(sql`stop`)} as range_end,
      ${epochMs(sql`date_trunc('day', first, 'UTC')`)} as days_start,
      ${epochMs(sql`date_trunc('day', stop - interval '1 microsecond', 'UTC') + interval '1 day'`)} as days_end,
      ${starts} as starts,
      found.bucket_starts, found.clicks, found.visitors
    from bounds cross join (
      select array_agg(${epochMs(sql`bucket`)}) as bucket_starts, array_agg(clicks) as clicks, array_agg(visitors) as visitors from totals
    ) found`;
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
 * What one breakdown query of a link or an account reads: the seven dimensions, or the clicks per
 * link for top links. An account's two read different rollups, thousands of rows each, so they are
 * read at the same time on their own connections (with the series); a link has no top links.
 */
export type BreakdownPart = 'dimensions' | 'links';

/**
 * A tag's daily rows from its links' rollups: their dimension rows, plus a `link` dimension for top
 * links (every click has exactly one device class, so a link's device rows sum to its clicks).
 * Each row is read once and given twice.
 */
export function tagDimensionRows(tagId: string) {
  return sql`
    select scan.day, case when top.link then 'link' else scan.dimension end as dimension,
      case when top.link then scan.link_id else scan.value end as value, scan.clicks
    from click_daily_dimension scan
    cross join lateral (values (false), (true)) top (link)
    where scan.link_id in (${tagLinks(tagId)}) and (not top.link or scan.dimension = 'device')`;
}

/** Rows of (dimension, value, clicks) of a link or an account over the breakdown days; `link` rows give top links. */
function dimensionRows(subject: Exclude<StatsSubject, { kind: 'tag' }>, part: BreakdownPart) {
  if (subject.kind === 'link') {
    return sql`
      select dimension, value, clicks from click_daily_dimension
      where link_id = ${subject.linkId} and day between (select first_day from days) and (select last_day from days)`;
  }
  if (part === 'dimensions') {
    return sql`
      select dimension, value, clicks from account_click_daily_dimension
      where account_id = ${subject.accountId} and day between (select first_day from days) and (select last_day from days)`;
  }
  // Top links: whole weeks from the weekly rollup, the days around them from the daily one.
  // Deleted links keep their clicks in the account's totals but are not listed as top links.
  return sql`
    select 'link' as dimension, link_id as value, sum(clicks) as clicks from (
      -- The days before the whole weeks and those after them, as two index ranges (not one filtered range).
      select link_id, clicks from account_click_daily_link
      where account_id = ${subject.accountId} and day between (select first_day from days) and (select last_day from days)
        and day < (select weeks_from from days)
      union all
      select link_id, clicks from account_click_daily_link
      where account_id = ${subject.accountId} and day between (select first_day from days) and (select last_day from days)
        and day > (select greatest(weeks_to, weeks_from - 1) from days)
      union all
      select link_id, clicks from account_click_weekly_link
      where account_id = ${subject.accountId} and week between (select weeks_from from days) and (select weeks_to from days) - 6
    ) links
    -- Summed per link before the live links are picked: one lookup per link, not per row.
    group by link_id
    having link_id in (select id from link where account_id = ${subject.accountId} and deleted_at is null)`;
}

/**
 * The `top` largest values of each dimension, ties by value in code point order (`collate "C"`,
 * as tag breakdowns rank them: tag-breakdowns.ts), with slug and title for top links.
 */
export async function readBreakdowns(
  db: Db,
  subject: Exclude<StatsSubject, { kind: 'tag' }>,
  range: StatsRange,
  part: BreakdownPart,
): Promise<BreakdownRow[]> {
  return (await breakdownQuery(subject, range, part).execute(db)).rows;
}

export function breakdownQuery(subject: Exclude<StatsSubject, { kind: 'tag' }>, range: StatsRange, part: BreakdownPart) {
  const ranked = sql`
    with days as materialized (${days(range)}),
    ranked as (
      select dimension, value, sum(clicks) as clicks,
        row_number() over (partition by dimension order by sum(clicks) desc, value collate "C") as rank
      from (${dimensionRows(subject, part)}) rows
      group by dimension, value
    )`;
  return part === 'links'
    ? sql<BreakdownRow>`${ranked}
      select ranked.dimension, ranked.value, ranked.clicks, link.slug, link.title, link.domain_id
      from ranked left join link on link.id = ranked.value
      where ranked.rank <= ${range.top}
      order by ranked.rank`
    : sql<BreakdownRow>`${ranked}
      select ranked.dimension, ranked.value, ranked.clicks, null as slug, null as title, null as domain_id
      from ranked
      where ranked.rank <= ${range.top}
      order by ranked.dimension, ranked.rank`;
}

/**
 * What one of a tag's breakdown reads sums: its cached sums of the closed days (dimensions and top
 * links), or its links' rollups for the open days, dimensions or top links (a link's device rows
 * sum to its clicks: every click has exactly one device class).
 */
export type TagBreakdownRead = 'closed' | 'open dimensions' | 'open links';

/**
 * A tag's clicks per dimension and value (and per link, with slug and title) over the breakdown
 * days, unranked. The reads are summed at the same time and ranked together (tag-breakdowns.ts).
 */
export function tagBreakdownSumsQuery(subject: Extract<StatsSubject, { kind: 'tag' }>, range: StatsRange, read: TagBreakdownRead) {
  const breakdownDays = sql`day between (select first_day from days) and (select last_day from days)`;
  const rows = {
    closed: sql`
      select dimension, value, clicks from tag_click_daily_dimension
      where tag_id = ${subject.tagId} and links_fingerprint = ${subject.linksFingerprint} and ${breakdownDays} and day < ${subject.openDay.iso}::date`,
    'open dimensions': sql`
      select dimension, value, clicks from click_daily_dimension
      where link_id = any(${subject.linkIds}::text[]) and ${breakdownDays} and day >= ${subject.openDay.iso}::date`,
    'open links': sql`
      select 'link' as dimension, link_id as value, clicks from click_daily_dimension
      where link_id = any(${subject.linkIds}::text[]) and ${breakdownDays} and day >= ${subject.openDay.iso}::date and dimension = 'device'`,
  }[read];
  return sql<BreakdownRow>`
    with days as materialized (${days(range)}),
    sums as (select dimension, value, sum(clicks) as clicks from (${rows}) rows group by dimension, value)
    select sums.dimension, sums.value, sums.clicks, link.slug, link.title, link.domain_id
    from sums left join link on sums.dimension = 'link' and link.id = sums.value`;
}
