/**
 * `pnpm bench:api`: how much the API layers cost. In one run, on the embedded PostgreSQL:
 *   - plain:  a bare Fastify route returning a link-shaped JSON object (no database)
 *   - rest:   GET /api/v1/links/{id}       (auth + link + tags from PostgreSQL, via trpc-to-openapi)
 *   - trpc:   GET /trpc/links.get?input=…  (the same procedure over tRPC)
 *   - service: the same work without HTTP (authenticate + links.get, 50 concurrent loops in-process):
 *     the ceiling the database round trips allow, to tell adapter cost from database cost
 * Rounds are interleaved so drift on the machine hits every target alike; medians are reported.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/reputation';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import Fastify from 'fastify';
import { buildServer } from '../src/build-server.ts';
import { drive, type LoadResult, median } from './load.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 20 });
await migrate(orm);
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const account = await services.accounts.create({ name: 'Bench', plan: 'unlimited' });
const { secret } = await services.apiKeys.create(account.id);
const link = await services.links.create(account.id, {
  title: 'Benchmark link',
  destination_url: 'https://example.com/a/fairly/typical/landing-page?ref=bench',
  tag_names: ['alpha', 'beta'],
  comments: 'A link with tags and comments, like most real ones.',
});

// The rate limiter runs (its cost is measured) with a limit the load never reaches.
const unreachable = Number.MAX_SAFE_INTEGER;
const app = await buildServer({
  orm,
  services,
  databaseUrl: cluster.url,
  baseUrl: 'http://127.0.0.1',
  logLevel: 'warn',
  rateLimits: {
    apiPerPlan: { starter: unreachable, trial: unreachable, team: unreachable, unlimited: unreachable },
    anonymous: unreachable,
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const plain = Fastify({ logger: false });
plain.get('/plain', async () => link);
await plain.listen({ port: 0, host: '127.0.0.1' });
const origin = (server: { server: { address(): unknown } }) => `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;

const auth = { authorization: `Bearer ${secret}` };
const targets: Record<string, { url: string; headers: Record<string, string> }> = {
  plain: { url: `${origin(plain)}/plain`, headers: {} },
  rest: { url: `${origin(app)}/api/v1/links/${link.id}`, headers: auth },
  trpc: { url: `${origin(app)}/trpc/links.get?input=${encodeURIComponent(JSON.stringify({ id: link.id }))}`, headers: auth },
};

// Warm-up: JIT, connection pool, caches.
for (const target of Object.values(targets)) await drive(target.url, target.headers, 2);

/** The REST call's work without HTTP: what the database round trips alone allow. */
async function driveService(seconds: number): Promise<LoadResult> {
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const caller = await services.apiKeys.authenticate(secret);
        await services.links.get(caller?.accountId ?? '', link.id);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] ?? 0);
  return { requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors: 0, timeouts: 0, non2xx: 0 };
}

const results: Record<string, LoadResult[]> = { plain: [], rest: [], trpc: [], service: [] };
const report = (round: number, name: string, result: LoadResult) =>
  console.log(
    `round ${round} ${name.padEnd(7)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms`,
  );
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, target] of Object.entries(targets)) {
    const result = await drive(target.url, target.headers, SECONDS);
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
    results[name]?.push(result);
    report(round, name, result);
  }
  const service = await driveService(SECONDS);
  results.service?.push(service);
  report(round, 'service', service);
}

const summary = Object.fromEntries(
  Object.entries(results).map(([name, rounds]) => [
    name,
    { rps: median(rounds.map((r) => r.requestsPerSecond)), p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) },
  ]),
);
const plainRps = summary.plain?.rps ?? 1;
console.log(`\n${ROUNDS} rounds x ${SECONDS} s, 50 connections, medians:`);
console.log('target    req/s     p50 ms  p99 ms  ratio vs plain');
for (const [name, s] of Object.entries(summary)) {
  console.log(
    `${name.padEnd(9)} ${s.rps.toFixed(0).padStart(7)}  ${String(s.p50).padStart(6)}  ${String(s.p99).padStart(6)}  ${(s.rps / plainRps).toFixed(2)}`,
  );
}
console.log(
  `api ratio vs plain fastify: rest = ${((summary.rest?.rps ?? 0) / plainRps).toFixed(2)}, trpc = ${((summary.trpc?.rps ?? 0) / plainRps).toFixed(2)}`,
);

await app.close();
await plain.close();
await orm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
