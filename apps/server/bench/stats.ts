/**
 * `pnpm bench:stats`: latency of the statistics endpoints at 10 million clicks.
 * On a fresh embedded PostgreSQL: 1,000 links of one account, 10 tags (each link carries one or
 * two), and 10,000,000 clicks over the last 60 days, generated in the database (generate_series)
 * as raw events, then rolled up from those events exactly as the click recorder would have
 * (so click_count, rollups and events agree). Then the real server answers
 * GET /links/{id}/stats, GET /tags/{id}/stats and GET /stats for the last 30 days at
 * interval=day (tz Europe/Berlin) and interval=hour, one request at a time over REST, and the
 * p50/p99 of each case are printed. Last line: `stats p99 max = X ms`. Each tag is asked once
 * before the timed cases, so its closed days are summed, and those sums are vacuumed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { buildServer } from '../src/build-server.ts';
import { seedClicks } from './stats-seed.ts';

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

// The seed skips foreign key checks (session_replication_role), which only a superuser may do:
// it runs as the cluster's administrator, on the app's database.
const seedUrl = new URL(cluster.adminUrl);
seedUrl.pathname = new URL(cluster.url).pathname;
// Seeding and vacuuming run statements of minutes: no statement bound (DATABASE_QUERY_TIMEOUT_MS
// is for the server's short statements, which the server measured here keeps).
const seedOrm = await createOrm({ databaseUrl: seedUrl.href, poolSize: 4, queryTimeoutMs: 0 });
await seedClicks(seedOrm, account.id, { clicks: CLICKS, links: LINKS, tags: TAGS, days: DAYS });

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

// The first statistics request of a tag sums its closed days once (docs/statistics.md). Those
// first requests are made here, and the rows they wrote are vacuumed as autovacuum would within
// a minute, so neither the fills nor autovacuum's pass over them land in the timed requests.
for (let tag = 0; tag < TAGS; tag++) {
  for (const [, search] of intervals) {
    const response = await fetch(`${api}/tags/tag_bench${tag}/stats?${search}`, { headers });
    if (response.status !== 200) throw new Error(`tag warm-up: ${response.status} ${await response.text()}`);
  }
}
await seedOrm.em.getConnection().execute('vacuum analyze tag_stats_day, tag_click_hourly, tag_click_daily_dimension');
await seedOrm.close();

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
