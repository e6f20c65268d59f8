import type { Database } from '@shortlinks/db';
import { type Kysely, sql } from 'kysely';
import {
  boundedCountry,
  boundedDevice,
  boundedText,
  boundedTrigger,
  boundedVisitor,
  CLICK_VALUE_LIMITS,
  type ClickTrigger,
} from './click-values.ts';

/** Visits that are the same event: one link, one second, one visitor, one referrer host, one agent, one country, one trigger. */
export interface ClickGroup {
  linkId: string;
  second: number;
  referrerHost: string | null;
  device: string;
  browser: string | null;
  os: string | null;
  country: string | null;
  /** The city the IP database placed the visitor in (in `country`), once the flush looked it up. */
  city: string | null;
  /**
   * The visitor's address, only in memory and only until the flush looks it up (geo-lookup.ts):
   * then null. Never written.
   */
  address: string | null;
  trigger: ClickTrigger;
  /** The visitor's daily hash as 16 hex digits (VisitorSalts), stored as a bigint. */
  visitor: string | null;
  clicks: number;
}

/**
 * One statement per batch: the raw events, today's newly seen visitors, the hourly and daily
 * rollups of links and accounts, and click_count. A visitor counts once per link and UTC day, in
 * the hour of their first click that day (docs/statistics.md). Rows are upserted in key order, so
 * two processes flushing at once take their locks in the same order.
 *
 * Being one statement, a batch is written whole or not at all: the recorder relies on that to
 * write the groups of a refused batch apart without counting any twice (write-apart.ts).
 */
export async function writeClickBatch(db: Kysely<Database>, groups: ClickGroup[]): Promise<void> {
  await clickBatchStatement(groups).execute(db);
}

/**
 * Every value that reaches a key is bounded here again, whatever its producer did (the redirect
 * bounds them already, agent-class.ts): a value too long for an index row, or one PostgreSQL text
 * cannot hold, is written as unknown. Off the redirect path, once per group.
 */
export function clickBatchStatement(groups: ClickGroup[]) {
  const { referrerHost, browser, os, city } = CLICK_VALUE_LIMITS;
  return sql`
    with events (link_id, second, referrer_host, agent_class, browser, os, country, city, trigger, visitor, clicks) as (
      select * from unnest(
        ${groups.map((g) => g.linkId)}::text[],
        ${groups.map((g) => g.second)}::float8[],
        ${groups.map((g) => boundedText(g.referrerHost, referrerHost))}::text[],
        ${groups.map((g) => boundedDevice(g.device))}::text[],
        ${groups.map((g) => boundedText(g.browser, browser))}::text[],
        ${groups.map((g) => boundedText(g.os, os))}::text[],
        ${groups.map((g) => boundedCountry(g.country))}::text[],
        ${groups.map((g) => (boundedCountry(g.country) === null ? null : boundedText(g.city?.replaceAll('	', ' '), city)))}::text[],
        ${groups.map((g) => boundedTrigger(g.trigger))}::text[],
        ${groups.map((g) => boundedVisitor(g.visitor))}::text[],
        ${groups.map((g) => g.clicks)}::int4[])
    ),
    hashed as (
      select link_id, second, referrer_host, agent_class, browser, os, country, city, trigger,
        ('x' || visitor)::bit(64)::int8 as visitor, clicks
      from events
    ),
    live as (
      select e.*, link.account_id, link.slug, to_timestamp(e.second) as at,
        date_trunc('hour', to_timestamp(e.second), 'UTC') as hour,
        (to_timestamp(e.second) at time zone 'UTC')::date as day
      from hashed e join link on link.id = e.link_id
    ),
    recorded as (
      insert into click (link_id, occurred_at, referrer_host, agent_class, browser, os, country, city, trigger, visitor, clicks)
      select link_id, at, referrer_host, agent_class, browser, os, country, city, trigger, visitor, clicks from live
    ),
    firsts as (
      select link_id, day, visitor, min(hour) as hour from live where visitor is not null group by 1, 2, 3
    ),
    fresh as (
      insert into click_visitor (day, link_id, visitor)
      select day, link_id, visitor from firsts order by 1, 2, 3
      on conflict do nothing
      returning day, link_id, visitor
    ),
    fresh_by_hour as (
      select firsts.link_id, firsts.hour, count(*)::int as visitors
      from fresh join firsts using (day, link_id, visitor) group by 1, 2
    ),
    hourly as (
      select c.link_id, c.account_id, c.hour, c.clicks, coalesce(v.visitors, 0) as visitors
      from (select link_id, account_id, hour, sum(clicks)::int as clicks from live group by 1, 2, 3) c
      left join fresh_by_hour v using (link_id, hour)
    ),
    link_hourly as (
      insert into click_hourly (link_id, hour, clicks, visitors)
      select link_id, hour, clicks, visitors from hourly order by 1, 2
      on conflict (link_id, hour) do update
      set clicks = click_hourly.clicks + excluded.clicks, visitors = click_hourly.visitors + excluded.visitors
    ),
    account_hourly as (
      insert into account_click_hourly (account_id, hour, clicks, visitors)
      select account_id, hour, sum(clicks), sum(visitors) from hourly group by 1, 2 order by 1, 2
      on conflict (account_id, hour) do update
      set clicks = account_click_hourly.clicks + excluded.clicks, visitors = account_click_hourly.visitors + excluded.visitors
    ),
    dimensions as (
      select live.link_id, live.account_id, live.day, d.dimension, d.value, live.clicks
      from live cross join lateral (values
        ('referrer', coalesce(live.referrer_host, '')),
        ('device', live.agent_class),
        ('browser', coalesce(live.browser, '')),
        ('os', coalesce(live.os, '')),
        ('country', coalesce(live.country, '')),
        -- A city is its country's code, a tab and its name (click-values.ts, cityDimensionValue).
        ('city', coalesce(live.country || E'\t' || live.city, '')),
        ('trigger', live.trigger)) d (dimension, value)
    ),
    link_dimensions as (
      insert into click_daily_dimension (link_id, day, dimension, value, clicks)
      select link_id, day, dimension, value, sum(clicks) from dimensions group by 1, 2, 3, 4 order by 1, 2, 3, 4
      on conflict (link_id, day, dimension, value) do update set clicks = click_daily_dimension.clicks + excluded.clicks
    ),
    account_dimensions as (
      insert into account_click_daily_dimension (account_id, day, dimension, value, clicks)
      select account_id, day, dimension, value, sum(clicks) from dimensions group by 1, 2, 3, 4 order by 1, 2, 3, 4
      on conflict (account_id, day, dimension, value) do update set clicks = account_click_daily_dimension.clicks + excluded.clicks
    ),
    account_daily_links as (
      insert into account_click_daily_link (account_id, day, link_id, clicks)
      select account_id, day, link_id, sum(clicks) from live group by 1, 2, 3 order by 1, 2, 3
      on conflict (account_id, day, link_id) do update set clicks = account_click_daily_link.clicks + excluded.clicks
    ),
    account_weekly_links as (
      insert into account_click_weekly_link (account_id, week, link_id, clicks)
      select account_id, date_trunc('week', day)::date, link_id, sum(clicks) from live group by 1, 2, 3 order by 1, 2, 3
      on conflict (account_id, week, link_id) do update set clicks = account_click_weekly_link.clicks + excluded.clicks
    ),
    -- link.clicked for the webhooks that subscribe to it (docs/webhooks.md), in this statement: a
    -- click written has its events, one per click, and a batch refused has none. Never the visitor.
    click_hooks as (
      select webhook.id as webhook_id, webhook.account_id from webhook
      where webhook.enabled and 'link.clicked' = any(webhook.events)
        and webhook.account_id in (select account_id from live)
    ),
    clicked as (
      select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id, live.account_id,
        jsonb_build_object('type', 'link.clicked',
          'timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', jsonb_build_object('link_id', live.link_id, 'slug', live.slug,
            'clicked_at', to_char(live.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
            'country', live.country, 'device', live.agent_class, 'browser', live.browser, 'os', live.os,
            'referrer_host', live.referrer_host, 'bot', live.agent_class = 'bot')) as body
      from live cross join lateral generate_series(1, live.clicks)
      where live.account_id in (select account_id from click_hooks)
    ),
    click_events as (
      insert into webhook_event (id, account_id, type, body)
      select id, account_id, 'link.clicked', body from clicked
      returning id, account_id
    ),
    click_deliveries as (
      insert into webhook_delivery (id, webhook_id, event_id, type)
      select 'whd_' || replace(gen_random_uuid()::text, '-', ''), click_hooks.webhook_id, click_events.id, 'link.clicked'
      from click_events join click_hooks using (account_id)
    ),
    -- Clicks of a day that may have closed (tag-stats-cache.ts) reopen the cached tag sums of that day.
    late_tag_days as (
      delete from tag_stats_day
      where day in (select day from live where day < (now() at time zone 'UTC')::date)
        and exists (select 1 from live where day < (now() at time zone 'UTC')::date)
    )
    update link set click_count = link.click_count + counted.clicks
    from (select link_id, sum(clicks) as clicks from live group by link_id) counted
    where link.id = counted.link_id`;
}
