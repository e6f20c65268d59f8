/**
 * `pnpm bench:stats`: latency of the statistics endpoints at 10 million clicks.
 * On a fresh embedded PostgreSQL: 1,000 links of one account, 10 tags (each link carries one or
 * two), and 10,000,000 clicks over the last 60 days, generated in the database (generate_series)
 * as raw events, then rolled up from those events exactly as the click recorder would have
 * (so click_count, rollups and events agree). Then the real server answers
 * GET /links/{id}/stats, GET /tags/{id}/stats and GET /stats for the last 30 days at
 * interval=day (tz Europe/Berlin) and interval=hour, one request at a time over REST, and the
 * p50/p99 of each case are printed. Last line: `stats p99 max = X ms`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServices, LocalDenylist } from '@shortlinks/api';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { buildServer } from '../src/build-server.ts';

const CLICKS = Number(process.env.BENCH_CLICKS ?? 10_000_000);
const LINKS = 1_000;
const TAGS = 10;
const DAYS = 60;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 30;

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-stats-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 10 });
await migrate(orm);
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const account = await services.accounts.create({ name: 'Bench', plan: 'unlimited' });
const { secret } = await services.apiKeys.create(account.id);

const connection = orm.em.fork().getConnection();
const run = async (label: string, statement: string) => {
  const started = performance.now();
  await connection.execute(statement);
  console.log(`  ${label.padEnd(44)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
};

console.log(`seeding ${CLICKS.toLocaleString('en')} clicks over ${LINKS} links and ${TAGS} tags, ${DAYS} days:`);
const seedStarted = performance.now();
await run(
  'links and tags',
  `insert into link (id, account_id, slug, destination_url, title)
   select 'lnk_bench' || g, '${account.id}', 'b' || g, 'https://example.com/articles/' || g, 'Bench ' || g
   from generate_series(1, ${LINKS}) g;
   insert into tag (id, account_id, name, color) select 'tag_bench' || g, '${account.id}', 'Tag ' || g, 'indigo' from generate_series(0, ${TAGS - 1}) g;
   insert into link_tag (link_id, tag_id) select 'lnk_bench' || g, 'tag_bench' || (g % ${TAGS}) from generate_series(1, ${LINKS}) g;
   insert into link_tag (link_id, tag_id) select 'lnk_bench' || g, 'tag_bench' || ((g + 3) % ${TAGS}) from generate_series(1, ${LINKS}) g where g % 4 = 0;`,
);
// Skewed like real traffic: a few links, referrers, browsers and countries take most clicks.
// Foreign key checks are skipped for the bulk load (the ids are valid by construction), and the
// (link, time) index is built once afterwards.
await run(
  'raw click events',
  `set session_replication_role = replica;
   drop index click_link_occurred_idx;
   insert into click (link_id, occurred_at, referrer_host, agent_class, browser, os, country, visitor, clicks)
   select 'lnk_bench' || (1 + floor(power(random(), 2) * ${LINKS}))::int,
     date_trunc('second', now() - random() * interval '${DAYS} days'),
     nullif((array['', 'google.com', 't.co', 'news.ycombinator.com', 'reddit.com', 'facebook.com', 'linkedin.com',
       'newsletter.example.com', 'bing.com', 'duckduckgo.com', 'github.com'])[1 + floor(power(random(), 2) * 11)::int], ''),
     (array['desktop', 'mobile', 'tablet', 'unknown'])[1 + floor(power(random(), 2) * 4)::int],
     nullif((array['Chrome', 'Safari', 'Firefox', 'Microsoft Edge', 'Samsung Internet', 'Opera', ''])[1 + floor(power(random(), 2) * 7)::int], ''),
     nullif((array['Windows', 'iOS', 'Android', 'macOS', 'Linux', 'Chrome OS', ''])[1 + floor(power(random(), 2) * 7)::int], ''),
     nullif((array['US', 'DE', 'GB', 'FR', 'IN', 'BR', 'CA', 'JP', 'NL', 'ES', 'IT', 'PL', 'SE', 'AU', 'MX', 'KR', 'CH', 'AT', 'BE', 'DK', ''])
       [1 + floor(power(random(), 2) * 21)::int], ''),
     floor(random() * 200)::int8,
     1
   from generate_series(1, ${CLICKS});
   set session_replication_role = origin;`,
);
await run('index click (link_id, occurred_at)', 'create index click_link_occurred_idx on click (link_id, occurred_at);');
await run(
  'click_count',
  `update link set click_count = c.n from (select link_id, sum(clicks) n from click group by 1) c where link.id = c.link_id;`,
);
// The recorder's rules: a visitor counts once per link and UTC day, in the hour of their first click.
await run(
  'hourly rollups (clicks, first-of-day visitors)',
  `set work_mem = '512MB';
   create temporary table firsts as
     select link_id, date_trunc('hour', min(occurred_at), 'UTC') as hour, count(*) as n
     from click group by link_id, (occurred_at at time zone 'UTC')::date, visitor;
   insert into click_hourly (link_id, hour, clicks, visitors)
   select c.link_id, c.hour, c.clicks, coalesce(v.visitors, 0)
   from (select link_id, date_trunc('hour', occurred_at, 'UTC') as hour, sum(clicks) as clicks from click group by 1, 2) c
   left join (select link_id, hour, count(*) as visitors from firsts group by 1, 2) v using (link_id, hour);
   insert into account_click_hourly (account_id, hour, clicks, visitors)
   select '${account.id}', hour, sum(clicks), sum(visitors) from click_hourly group by hour;`,
);
await run(
  'daily dimension rollups',
  `set work_mem = '512MB';
   insert into click_daily_dimension (link_id, day, dimension, value, clicks)
   select link_id, (occurred_at at time zone 'UTC')::date, 'referrer', coalesce(referrer_host, ''), sum(clicks) from click group by 1, 2, 4;
   insert into click_daily_dimension (link_id, day, dimension, value, clicks)
   select link_id, (occurred_at at time zone 'UTC')::date, 'device', agent_class, sum(clicks) from click group by 1, 2, 4;
   insert into click_daily_dimension (link_id, day, dimension, value, clicks)
   select link_id, (occurred_at at time zone 'UTC')::date, 'browser', coalesce(browser, ''), sum(clicks) from click group by 1, 2, 4;
   insert into click_daily_dimension (link_id, day, dimension, value, clicks)
   select link_id, (occurred_at at time zone 'UTC')::date, 'os', coalesce(os, ''), sum(clicks) from click group by 1, 2, 4;
   insert into click_daily_dimension (link_id, day, dimension, value, clicks)
   select link_id, (occurred_at at time zone 'UTC')::date, 'country', coalesce(country, ''), sum(clicks) from click group by 1, 2, 4;
   insert into account_click_daily_dimension (account_id, day, dimension, value, clicks)
   select '${account.id}', day, dimension, value, sum(clicks) from click_daily_dimension group by 2, 3, 4
   union all
   select '${account.id}', day, 'link', link_id, sum(clicks) from click_daily_dimension where dimension = 'device' group by 2, 4;`,
);
await run('vacuum analyze', 'vacuum analyze');
const seedSeconds = (performance.now() - seedStarted) / 1000;
const [counts] = (await connection.execute(`
  select (select sum(clicks) from click)::int8 as events, (select sum(click_count) from link)::int8 as click_count,
    (select sum(clicks) from click_hourly)::int8 as hourly, (select sum(clicks) from account_click_hourly)::int8 as account_hourly,
    (select count(*) from click_hourly)::int8 as hourly_rows, (select count(*) from click_daily_dimension)::int8 as dimension_rows`)) as [
  Record<string, string>,
];
console.log(`seeded in ${seedSeconds.toFixed(0)} s:`, counts);
if (new Set([counts?.events, counts?.click_count, counts?.hourly, counts?.account_hourly]).size !== 1) {
  throw new Error('events, click_count and rollups disagree');
}

const app = await buildServer({ orm, services, databaseUrl: cluster.url, baseUrl: 'http://127.0.0.1', logLevel: 'warn' });
await app.listen({ port: 0, host: '127.0.0.1' });
const api = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
const headers = { authorization: `Bearer ${secret}` };

const start = Date.now() - 30 * 86_400_000;
const intervals = [
  ['day', `start=${start}&interval=day&tz=Europe/Berlin`],
  ['hour', `start=${start}&interval=hour`],
] as const;
const endpoints = [
  ['link', (i: number) => `/links/lnk_bench${1 + ((i * 7919) % LINKS)}/stats`],
  ['tag', (i: number) => `/tags/tag_bench${i % TAGS}/stats`],
  ['account', () => '/stats'],
] as const;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

console.log(`\n${REQUESTS} requests per case, one at a time, last 30 days (after ${WARMUP} warm-up requests):`);
console.log('endpoint              interval  p50 ms  p99 ms');
let worst = 0;
for (const [name, pathOf] of endpoints) {
  for (const [interval, search] of intervals) {
    const times: number[] = [];
    for (let i = -WARMUP; i < REQUESTS; i++) {
      const started = performance.now();
      const response = await fetch(`${api}${pathOf(i + WARMUP)}?${search}`, { headers });
      const body = (await response.json()) as { totals?: { clicks: number } };
      if (response.status !== 200 || !body.totals) throw new Error(`${name} ${interval}: ${response.status} ${JSON.stringify(body)}`);
      if (i >= 0) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    worst = Math.max(worst, p99);
    console.log(
      `${`GET ${name === 'link' ? '/links/{id}' : name === 'tag' ? '/tags/{id}' : ''}/stats`.padEnd(22)}${interval.padEnd(10)}${p50.toFixed(1).padStart(6)}  ${p99.toFixed(1).padStart(6)}`,
    );
  }
}

await app.close();
await orm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
console.log(`stats p99 max = ${worst.toFixed(1)} ms`);
