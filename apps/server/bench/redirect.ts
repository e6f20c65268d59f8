/**
 * `pnpm bench:redirect`: redirects of the real server against the limit of Node on this machine.
 * In one run, on the embedded PostgreSQL with 10,000 links:
 *   - server: the real server (`buildServer`): cache lookup, click recording, headers;
 *   - bare:   a bare node:http server answering 302 from an in-memory Map of the same slugs.
 * The server runs as `npm start` runs it: at the default log level (info: a JSON line per
 * redirect), written to a file through the server's own log destination (BENCH_LOG_SYNC=1 writes
 * them synchronously instead, as before; BENCH_LOG_LEVEL sets another level).
 * Both get the same load: 50 connections cycling through 2,000 distinct slugs, with a browser
 * User-Agent (so every redirect is a counted click), in interleaved rounds (alternating which goes
 * first); medians are reported, and the ratio is the median of the rounds' ratios.
 *
 * Links live on three domains (issue #28): the server's SHORT_DOMAIN (`sho.rt`) and two verified
 * branded domains, a third of the links each, and the `server` case's visits are spread over them
 * by their Host header, so the host lookup is on the path. The `custom` case visits links of one
 * branded domain alone. (The bare server answers by slug and ignores the Host: slugs are distinct.)
 *
 * BENCH_WEBHOOK=1 subscribes a `link.clicked` webhook (issue #29): every counted click becomes an
 * event and a delivery to a receiver on loopback, sent by the same process while it redirects.
 * The count of deliveries received during the rounds is printed: the case is only measured if
 * they happened.
 *
 * Two smart-link cases (issue #30) run in the same rounds against the same server, each with its
 * own ratio to bare: `rules10`, links with 10 redirect rules none of which holds (every condition
 * is checked, the worst case), and `unlocked`, password-protected links visited with the cookie
 * their password gave (the cookie checked on every visit). Both are answered on the fast path, as
 * every smart link whose visit the request alone decides is (docs/redirects.md).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { DEFAULT_CLICK_FLUSH_MS, hashPassword, UNLOCK_COOKIE } from '@shortlinks/api/redirects';
import { createServices } from '@shortlinks/api/services';
import { createOrm, type Database, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { sql } from 'kysely';
import pino from 'pino';
import { buildServer } from '../src/build-server.ts';
import { logDestination } from '../src/log-destination.ts';
import { drive, type LoadResult, median } from './load.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LINKS = 10_000;
const DISTINCT_SLUGS = 2_000;
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 10 });
await migrate(orm);
const services = createServices({
  orm,
  shortDomain: 'https://sho.rt',
  reputation: new LocalDenylist(),
  clicks: { flushIntervalMs: Number(process.env.BENCH_FLUSH_MS ?? DEFAULT_CLICK_FLUSH_MS) },
  // BENCH_WEBHOOK=1: a `link.clicked` webhook is subscribed (below), its receiver on loopback.
  ...(process.env.BENCH_WEBHOOK ? { webhooks: { allowPrivateTargets: true } } : {}),
});
const account = await services.accounts.create({ name: 'Bench', plan: 'unlimited' });
const db = orm.em.fork().getKysely<Database>();
// Two branded domains, verified (as if their TXT record had been found): no DNS needed here.
const DOMAINS = [
  { id: null, host: 'sho.rt' },
  { id: 'dom_bench1', host: 'go.bench-one.example' },
  { id: 'dom_bench2', host: 'links.bench-two.example' },
] as const;
for (const domain of DOMAINS.slice(1)) {
  await sql`
    insert into domain (id, account_id, name, verification_token, verified_at, last_checked_at)
    values (${domain.id}, ${account.id}, ${domain.host}, 'bench', clock_timestamp(), clock_timestamp())`.execute(db);
}
// Link b<g> lives on domain g mod 3: the server's own, then the two branded ones.
await sql`
  insert into link (id, account_id, slug, destination_url, title, domain_id)
  select 'lnk_bench' || g, ${account.id}, 'b' || g, 'https://example.com/articles/' || g || '?ref=short', 'Bench ' || g,
    (array[null, ${DOMAINS[1].id}, ${DOMAINS[2].id}])[1 + g % 3]
  from generate_series(1, ${LINKS}) g`.execute(db);
// The smart links: 10 rules that never hold for the load's visitors, and a password.
const TEN_RULES = JSON.stringify(
  ['DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'AT', 'CH', 'PL', 'SE'].map((country, i) => ({
    if: i % 2 ? { country } : { country, language: 'de', query: { src: 'x' } },
    destination_url: `https://example.com/${country}`,
  })),
);
const PASSWORD_HASH = await hashPassword('bench-password');
await sql`
  insert into link (id, account_id, slug, destination_url, title, rules)
  select 'lnk_rules' || g, ${account.id}, 'r' || g, 'https://example.com/ruled/' || g, 'Rules ' || g, ${TEN_RULES}
  from generate_series(1, ${DISTINCT_SLUGS}) g`.execute(db);
await sql`
  insert into link (id, account_id, slug, destination_url, title, password_hash)
  select 'lnk_locked' || g, ${account.id}, 'p' || g, 'https://example.com/locked/' || g, 'Locked ' || g, ${PASSWORD_HASH}
  from generate_series(1, ${DISTINCT_SLUGS}) g`.execute(db);
const rows = await db
  .selectFrom('link')
  .select(['slug', 'destination_url'])
  .where('deleted_at', 'is', null)
  .where('slug', 'like', 'b%')
  .execute();
console.log(`${rows.length} links in the database`);

// The per-IP limiter runs (its cost is measured) with a limit the load never reaches.
const app = await buildServer({
  orm,
  services,
  databaseUrl: cluster.url,
  baseUrl: 'http://127.0.0.1',
  // The level operators run (LOG_LEVEL's default), its lines written to a file as a service's would be.
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  logStream: process.env.BENCH_LOG_SYNC
    ? pino.destination({ dest: path.join(dataDir, 'server.log'), sync: true })
    : logDestination(path.join(dataDir, 'server.log')),
  rateLimits: { redirects: Number.MAX_SAFE_INTEGER },
  // Off by default, as METRICS_PORT is; BENCH_METRICS=1 measures the cost of serving them.
  ...(process.env.BENCH_METRICS ? { metrics: { port: 0, host: '127.0.0.1' } } : {}),
});
await app.listen({ port: 0, host: '127.0.0.1' });

// With BENCH_WEBHOOK=1, every click the load makes becomes a `link.clicked` event, produced when
// clicks are flushed and sent to a receiver that answers 204: the redirect's path must not pay for it.
let delivered = 0;
if (process.env.BENCH_WEBHOOK) {
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      delivered += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await services.webhooks.create(account.id, {
    url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`,
    events: ['link.clicked'],
  });
  receiver.unref();
}

// The limit of Node here: the same answer from a Map, no framework, no database, no clicks.
const targets = new Map(rows.map((row) => [row.slug, row.destination_url]));
const bare = createServer((request, response) => {
  const location = targets.get((request.url ?? '/').slice(1));
  if (location === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(302, { location, 'cache-control': 'no-store', 'x-robots-tag': 'noindex' }).end();
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

/** A warm-up request with its own Host header (fetch does not let one set it): a redirect, or the load would measure something else. */
function warmUp(url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 302
          ? resolve()
          : reject(new Error(`${headers.host ?? ''}${new URL(url).pathname}: ${response.statusCode}`)),
      );
    }).on('error', reject);
  });
}

const portOf = (address: unknown) => (address as { port: number }).port;
const server = `http://127.0.0.1:${portOf(app.server.address())}`;
const urls = { server, bare: `http://127.0.0.1:${portOf(bare.address())}`, rules10: server, unlocked: server, custom: server };
/** A visit of link b<n>, to the host of its domain. */
const visit = (n: number) => ({ path: `/b${n}`, headers: { host: DOMAINS[n % 3]?.host ?? 'sho.rt' } });
const paths = Array.from({ length: DISTINCT_SLUGS }, (_, i) => visit(1 + ((i * 7919) % LINKS)));
const now = Date.now();
const loads: Record<keyof typeof urls, Parameters<typeof drive>[3]> = {
  server: paths,
  bare: paths,
  // The first branded domain's links alone (b1, b4, b7, …).
  custom: Array.from({ length: DISTINCT_SLUGS }, (_, i) => visit(1 + 3 * ((i * 7919) % Math.floor(LINKS / 3)))),
  rules10: Array.from({ length: DISTINCT_SLUGS }, (_, i) => `/r${i + 1}`),
  unlocked: await Promise.all(
    Array.from({ length: DISTINCT_SLUGS }, async (_, i) => ({
      path: `/p${i + 1}`,
      headers: {
        cookie: `${UNLOCK_COOKIE}=${await services.smartRedirects.unlocks.cookieValue(`lnk_locked${i + 1}`, PASSWORD_HASH, now)}`,
      },
    })),
  ),
};
const headers = { 'user-agent': BROWSER };

// Warm-up: every slug once (the cache holds the hot set, as in production), then JIT.
for (const [name, url] of Object.entries(urls) as [keyof typeof urls, string][]) {
  const load = loads[name] ?? [];
  for (let i = 0; i < load.length; i += 100) {
    await Promise.all(
      load
        .slice(i, i + 100)
        .map((entry) =>
          typeof entry === 'string'
            ? fetch(`${url}${entry}`, { redirect: 'manual', headers: { 'user-agent': 'Googlebot/2.1' } })
            : warmUp(`${url}${entry.path}`, { ...entry.headers, 'user-agent': 'Googlebot/2.1' }),
        ),
    );
  }
  await drive(url, headers, 2, load);
}

const results: Record<string, LoadResult[]> = { server: [], bare: [], rules10: [], unlocked: [], custom: [] };
for (let round = 1; round <= ROUNDS; round++) {
  // Alternating which target goes first, so a machine that speeds up or slows down favours neither.
  const order = (round % 2 ? Object.entries(urls) : Object.entries(urls).reverse()) as [keyof typeof urls, string][];
  for (const [name, url] of order) {
    const result = await drive(url, headers, SECONDS, loads[name]);
    if (result.errors > 0) throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} of them timeouts`);
    results[name]?.push(result);
    console.log(
      `round ${round} ${name.padEnd(6)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  server thread busy ${((result.serverBusy ?? 0) * 100).toFixed(0)} %`,
    );
  }
}
// The deliveries the receiver had taken when the last round ended: sent while the server redirected.
const deliveredDuringRun = delivered;
await services.clicks.flush();
const { clicks } = await db
  .selectFrom('click')
  .select((eb) => eb.fn.countAll<string>().as('clicks'))
  .executeTakeFirstOrThrow();

const summary = Object.fromEntries(
  Object.entries(results).map(([name, rounds]) => [
    name,
    { rps: median(rounds.map((r) => r.requestsPerSecond)), p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) },
  ]),
);
console.log(
  `\n${ROUNDS} rounds x ${SECONDS} s, 50 connections, ${DISTINCT_SLUGS} distinct slugs of ${LINKS}, medians; ${clicks} clicks recorded:`,
);
console.log('target   req/s     p50 ms  p99 ms');
for (const [name, s] of Object.entries(summary)) {
  console.log(`${name.padEnd(8)} ${s.rps.toFixed(0).padStart(7)}  ${String(s.p50).padStart(6)}  ${String(s.p99).padStart(6)}`);
}

if (process.env.BENCH_WEBHOOK) {
  const { events } = await db
    .selectFrom('webhook_delivery')
    .select((eb) => eb.fn.countAll<string>().as('events'))
    .executeTakeFirstOrThrow();
  console.log(`webhook: ${deliveredDuringRun} link.clicked deliveries received during the rounds (${events} deliveries written in all)`);
  if (deliveredDuringRun === 0) console.log('webhook: NO delivery during the rounds: the webhook case is not measured');
}

await app.close();
const logLines = (await readFile(path.join(dataDir, 'server.log'), 'utf8')).split('\n').length - 1;
console.log(`${logLines} log lines written at level ${app.log.level}`);
await new Promise((resolve) => bare.close(resolve));
await orm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
// The ratio of each round's pair, then their median: drift on a shared machine cancels out.
const ratiosOf = (name: string) =>
  (results[name] ?? []).map((result, i) => result.requestsPerSecond / (results.bare?.[i]?.requestsPerSecond ?? 1));
const ratios = ratiosOf('server');
console.log(`per-round ratios: ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
// Smart links (issue #30; target >= 0.70); visits to one branded domain alone (issue #28).
for (const name of ['rules10', 'unlocked', 'custom']) {
  console.log(
    `${name} ratio vs bare node:http = ${median(ratiosOf(name)).toFixed(2)} (per round: ${ratiosOf(name)
      .map((r) => r.toFixed(2))
      .join(' ')})`,
  );
}
console.log(`redirect ratio vs bare node:http = ${median(ratios).toFixed(2)} (links on three domains)`);
