/**
 * `pnpm bench:list`: latency of GET /links (search, sort, tag filter) at a million links.
 * On a fresh embedded PostgreSQL: one account with 1,000,000 live links and 20 tags, and 50 other
 * accounts of 2,000 links each, seeded in the database (list-seed.ts). Then the real server answers
 * GET /links over REST, one request at a time, for each case below (none answered from memory),
 * and the p50/p99 of each case are printed, with how many links the case's requests matched (their `total`).
 * Last line: `list p99 max = X ms`.
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
import { logDestination } from '../src/log-destination.ts';
import { seedLinks, TITLE_KINDS, TITLE_TOPICS } from './list-seed.ts';

const LINKS = Number(process.env.BENCH_LINKS ?? 1_000_000);
const TAGS = 20;
const OTHER_ACCOUNTS = 50;
const OTHER_LINKS = 2_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 30;

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-list-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 10 });
await migrate(orm);
// Pages are never answered from memory here (entries expire as they are made): this bench measures
// what PostgreSQL does for each query, and its cases repeat queries a cache would answer.
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist(), linkReadCacheMs: 0 });
// No API rate limit for the measuring key (the operator's `--rate-limit none`): the load is the point.
const account = await services.accounts.create({ name: 'Bench', plan: 'unlimited', api_rate_limit: 0 });
const others = await Promise.all(
  Array.from({ length: OTHER_ACCOUNTS }, (_, i) => services.accounts.create({ name: `Other ${i}`, plan: 'unlimited' })),
);
const { secret } = await services.apiKeys.create(account.id);

// CHECKPOINT after the load needs more than the app's role: the seed runs as the cluster's
// administrator, on the app's database.
const seedUrl = new URL(cluster.adminUrl);
seedUrl.pathname = new URL(cluster.url).pathname;
// The bulk load runs statements of minutes: no statement bound (DATABASE_QUERY_TIMEOUT_MS is for
// the server's short statements, which the server measured here keeps).
const seedOrm = await createOrm({ databaseUrl: seedUrl.href, poolSize: 2, queryTimeoutMs: 0 });
await seedLinks(
  seedOrm,
  account.id,
  others.map((other) => other.id),
  { links: LINKS, tags: TAGS, otherAccounts: OTHER_ACCOUNTS, otherLinks: OTHER_LINKS },
);
await seedOrm.close();

const app = await buildServer({
  orm,
  services,
  databaseUrl: cluster.url,
  baseUrl: 'http://127.0.0.1',
  // The default level, its lines in a file as a service's would be.
  logStream: logDestination(path.join(dataDir, 'server.log')),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const api = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
const headers = { authorization: `Bearer ${secret}` };

/** A link number spread over the whole account, different for each request. */
const someLink = (i: number) => 1 + ((i * 7_919 + 104_729) % LINKS);
const KINDS = ['newsletter', 'webinar', 'sale', 'docs', 'podcast'];
/** The end of link g's title (`webinar 4821`), as the seed makes it. */
const titleEnd = (g: number) => `${TITLE_KINDS[Math.floor(g / TITLE_TOPICS.length) % TITLE_KINDS.length]} ${g}`;

/** Each case: what it measures, and the query of its i-th request (pages 1 to 3: people rarely go further). */
const cases: [string, (i: number) => string][] = [
  ['newest first (the default)', (i) => `page=${1 + (i % 3)}`],
  [
    'search: a title, slug or external id',
    (i) => {
      const g = someLink(i);
      const search = [titleEnd(g), g.toString(16), `crm-${g - (g % 5) || 5}`][i % 3] as string;
      return `search=${encodeURIComponent(search)}`;
    },
  ],
  ['search: a product code (1 in 1,000)', (i) => `search=sku-${String(i % 1000).padStart(4, '0')}&page=${1 + (i % 3)}`],
  ['search + tag filter', (i) => `search=${KINDS[i % KINDS.length]}%20${someLink(i) % 1000}&tag_ids=tag_list${i % TAGS}`],
  ['sort by clicks', (i) => `sort=click_count&page=${1 + (i % 3)}`],
  ['sort by clicks, ascending', (i) => `sort=click_count&order=asc&page=${1 + (i % 3)}`],
  ['sort by title', (i) => `sort=title&order=${i % 2 ? 'asc' : 'desc'}&page=${1 + (i % 3)}`],
  ['tag filter (one tag)', (i) => `tag_ids=tag_list${i % TAGS}&page=${1 + (i % 3)}`],
  ['tag filter (three tags)', (i) => `tag_ids=tag_list${i % TAGS},tag_list${(i + 7) % TAGS},tag_list${(i + 13) % TAGS}`],
  // `docs` is in 1 link in 5.5: docs.example.io is one of the 8 hosts too.
  ['search: a common word (1 link in 15–5)', (i) => `search=${KINDS[i % KINDS.length]}`],
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

console.log(`\n${REQUESTS} requests per case, one at a time, over REST (after ${WARMUP} warm-up requests):`);
console.log('case                                   matches (min–max)   p50 ms  p99 ms');
let worst = 0;
for (const [name, queryOf] of cases) {
  const times: number[] = [];
  let fewest = Number.POSITIVE_INFINITY;
  let most = 0;
  for (let i = -WARMUP; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(`${api}/links?${queryOf(i + WARMUP)}`, { headers });
    const body = (await response.json()) as { total?: number; links?: unknown[] };
    if (response.status !== 200 || body.total === undefined) throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
    if (i >= 0) {
      times.push(performance.now() - started);
      fewest = Math.min(fewest, body.total);
      most = Math.max(most, body.total);
    }
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  worst = Math.max(worst, p99);
  const matches = `${fewest.toLocaleString('en')}–${most.toLocaleString('en')}`;
  console.log(`${name.padEnd(39)}${matches.padEnd(20)}${p50.toFixed(1).padStart(6)}  ${p99.toFixed(1).padStart(6)}`);
}

await app.close();
await orm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
console.log(`list p99 max = ${worst.toFixed(1)} ms`);
