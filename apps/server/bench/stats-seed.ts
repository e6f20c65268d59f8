import { performance } from 'node:perf_hooks';
import type { Orm } from '@shortlinks/db';

export interface SeedShape {
  clicks: number;
  links: number;
  tags: number;
  /** Clicks are spread over this many days before now. */
  days: number;
}

/**
 * Seeds links `lnk_bench1…`, tags `tag_bench0…` (link g carries tag g mod tags, and every
 * fourth link a second one) and `clicks` raw click events generated in the database, then
 * builds click_count and every rollup from those events by the recorder's rules, so all agree.
 * Skewed like real traffic: a few links, referrers, browsers and countries take most clicks.
 * For speed, foreign key checks are skipped (the ids are valid by construction), indexes and
 * primary keys are built once after the bulk inserts, and independent statements run at once.
 */
export async function seedClicks(orm: Orm, accountId: string, { clicks, links, tags, days }: SeedShape): Promise<void> {
  const connection = orm.em.fork().getConnection();
  const run = async (label: string, statement: string) => {
    const started = performance.now();
    await connection.execute(statement);
    console.log(`  ${label.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  };
  console.log(`seeding ${clicks.toLocaleString('en')} clicks over ${links} links and ${tags} tags, ${days} days:`);
  const started = performance.now();
  await run(
    'links and tags',
    `insert into link (id, account_id, slug, destination_url, title)
     select 'lnk_bench' || g, '${accountId}', 'b' || g, 'https://example.com/articles/' || g, 'Bench ' || g
     from generate_series(1, ${links}) g;
     insert into tag (id, account_id, name, color)
     select 'tag_bench' || g, '${accountId}', 'Tag ' || g, 'indigo' from generate_series(0, ${tags - 1}) g;
     insert into link_tag (link_id, tag_id) select 'lnk_bench' || g, 'tag_bench' || (g % ${tags}) from generate_series(1, ${links}) g;
     insert into link_tag (link_id, tag_id)
     select 'lnk_bench' || g, 'tag_bench' || ((g + 3) % ${tags}) from generate_series(1, ${links}) g where g % 4 = 0;`,
  );
  // Several statements at once on their own connections: PostgreSQL runs one process per connection.
  const parallel = async (label: string, statements: string[]) => {
    const started = performance.now();
    await Promise.all(statements.map((statement) => orm.em.fork().getConnection().execute(statement)));
    console.log(`  ${label.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  };
  const share = Math.ceil(clicks / 2);
  const events = (count: number) => `
    set session_replication_role = replica;
    insert into click (link_id, occurred_at, referrer_host, agent_class, browser, os, country, visitor, clicks)
    select 'lnk_bench' || (1 + floor(power(random(), 2) * ${links}))::int,
      date_trunc('second', now() - random() * interval '${days} days'),
      nullif((array['', 'google.com', 't.co', 'news.ycombinator.com', 'reddit.com', 'facebook.com', 'linkedin.com',
        'newsletter.example.com', 'bing.com', 'duckduckgo.com', 'github.com'])[1 + floor(power(random(), 2) * 11)::int], ''),
      (array['desktop', 'mobile', 'tablet', 'unknown'])[1 + floor(power(random(), 2) * 4)::int],
      nullif((array['Chrome', 'Safari', 'Firefox', 'Microsoft Edge', 'Samsung Internet', 'Opera', ''])[1 + floor(power(random(), 2) * 7)::int], ''),
      nullif((array['Windows', 'iOS', 'Android', 'macOS', 'Linux', 'Chrome OS', ''])[1 + floor(power(random(), 2) * 7)::int], ''),
      nullif((array['US', 'DE', 'GB', 'FR', 'IN', 'BR', 'CA', 'JP', 'NL', 'ES', 'IT', 'PL', 'SE', 'AU', 'MX', 'KR', 'CH', 'AT', 'BE', 'DK', ''])
        [1 + floor(power(random(), 2) * 21)::int], ''),
      floor(random() * 200)::int8,
      1
    from generate_series(1, ${count});
    set session_replication_role = origin;`;
  await run(
    'drop indexes for the bulk load',
    `drop index click_link_occurred_idx;
     alter table click_hourly drop constraint click_hourly_pkey;
     alter table account_click_hourly drop constraint account_click_hourly_pkey;
     alter table click_daily_dimension drop constraint click_daily_dimension_pkey;
     alter table account_click_daily_dimension drop constraint account_click_daily_dimension_pkey;
     alter table account_click_daily_link drop constraint account_click_daily_link_pkey;
     alter table account_click_weekly_link drop constraint account_click_weekly_link_pkey;`,
  );
  await parallel('raw click events', [events(share), events(clicks - share)]);
  const utcDay = `(occurred_at at time zone 'UTC')::date`;
  const dimension = (name: string, value: string) => `
    set work_mem = '256MB';
    insert into click_daily_dimension (link_id, day, dimension, value, clicks)
    select link_id, ${utcDay}, '${name}', ${value}, sum(clicks) from click group by 1, 2, 4;`;
  await parallel('event index, hourly and daily rollups', [
    'create index click_link_occurred_idx on click (link_id, occurred_at);',
    // The recorder's rules: a visitor counts once per link and UTC day, in the hour of their first click.
    `set work_mem = '256MB';
     insert into click_hourly (link_id, hour, clicks, visitors)
     select c.link_id, c.hour, c.clicks, coalesce(v.visitors, 0)
     from (select link_id, date_trunc('hour', occurred_at, 'UTC') as hour, sum(clicks) as clicks from click group by 1, 2) c
     left join (
       select link_id, hour, count(*) as visitors
       from (select link_id, date_trunc('hour', min(occurred_at), 'UTC') as hour from click group by link_id, ${utcDay}, visitor) firsts
       group by 1, 2
     ) v using (link_id, hour);`,
    dimension('referrer', "coalesce(referrer_host, '')"),
    dimension('device', 'agent_class'),
    dimension('browser', "coalesce(browser, '')"),
    dimension('os', "coalesce(os, '')"),
    dimension('country', "coalesce(country, '')"),
    // As the recorder writes them (click-batch.ts): a city is its country's code, a tab and its name.
    dimension('city', "coalesce(country || E'\\t' || city, '')"),
    dimension('trigger', 'trigger'),
  ]);
  await run(
    'account rollups, click_count, keys',
    `insert into account_click_hourly (account_id, hour, clicks, visitors)
     select '${accountId}', hour, sum(clicks), sum(visitors) from click_hourly group by hour;
     insert into account_click_daily_dimension (account_id, day, dimension, value, clicks)
     select '${accountId}', day, dimension, value, sum(clicks) from click_daily_dimension group by 2, 3, 4;
     insert into account_click_daily_link (account_id, day, link_id, clicks)
     select '${accountId}', day, link_id, sum(clicks) from click_daily_dimension where dimension = 'device' group by 2, 3;
     insert into account_click_weekly_link (account_id, week, link_id, clicks)
     select '${accountId}', date_trunc('week', day)::date, link_id, sum(clicks) from account_click_daily_link group by 2, 3;
     update link set click_count = c.n from (select link_id, sum(clicks) n from click_hourly group by 1) c where link.id = c.link_id;
     alter table click_hourly add primary key (link_id, hour) include (clicks, visitors);
     alter table account_click_hourly add primary key (account_id, hour) include (clicks, visitors);
     alter table click_daily_dimension add primary key (link_id, day, dimension, value) include (clicks);
     alter table account_click_daily_dimension add primary key (account_id, day, dimension, value) include (clicks);
     alter table account_click_daily_link add primary key (account_id, day, link_id) include (clicks);
     alter table account_click_weekly_link add primary key (account_id, week, link_id) include (clicks);`,
  );
  await run('vacuum analyze', 'vacuum analyze');
  // The bulk load leaves gigabytes of dirty pages: written out now, not by the checkpointer during the timed requests.
  await run('checkpoint', 'checkpoint');
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const [counts] = (await connection.execute(`
    select (select sum(clicks) from click)::int8 as events, (select sum(click_count) from link)::int8 as click_count,
      (select sum(clicks) from click_hourly)::int8 as hourly, (select sum(clicks) from account_click_hourly)::int8 as account_hourly,
      (select sum(clicks) from click_daily_dimension where dimension = 'device')::int8 as daily,
      (select count(*) from click_hourly)::int8 as hourly_rows, (select count(*) from click_daily_dimension)::int8 as dimension_rows`)) as [
    Record<string, string>,
  ];
  console.log('  rows:', counts);
  if (new Set([counts?.events, counts?.click_count, counts?.hourly, counts?.account_hourly, counts?.daily]).size !== 1) {
    throw new Error('events, click_count and rollups disagree');
  }
}
