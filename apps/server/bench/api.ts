/**
 * `pnpm bench:api`: the API against what the same work costs written by hand. In one run, on the
 * embedded PostgreSQL, with the server as `npm start` builds it (its defaults: pool of 10, caches
 * on, log level info) except the rate limit, set out of reach:
 *   - memory:          a Fastify route answering a link from memory (no database)
 *   - handwritten-*:   Fastify + `pg` with prepared statements, the same JSON (bench/handwritten.ts):
 *                      the key by its prefix and SHA-256, then the link(s); for create, the same
 *                      account lock, limit count, slug uniqueness and change announcement
 *   - rest-* / trpc-*: GET /links/{id}, GET /links?per_page=100, POST /links on both transports.
 *                      A link or a page is answered from memory after its first read, as the server
 *                      does by default (services/link-read-cache.ts);
 *   - rest-*-uncached: the same GET and list on a second server whose reads expire at once, so every
 *                      one reads PostgreSQL: what a first read, or one just after a change, costs
 * Rounds interleave every target, so drift on the machine hits them alike; medians are reported,
 * with each target's ratio to its hand-written baseline. The last line is `api rest/handwritten`.
 */
import { deepStrictEqual } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../src/build-server.ts';
import { logDestination } from '../src/log-destination.ts';
import { handwrittenServer, memoryServer } from './handwritten.ts';
import { drive, type LoadResult, median, type RequestBody } from './load.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** The server's default pool (packages/db createOrm); the hand-written server gets as many connections. */
const POOL_SIZE = 10;
const SHORT_DOMAIN = 'https://sho.rt';
const LIST_LINKS = 300;

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: POOL_SIZE });
await migrate(orm);
const services = createServices({ orm, shortDomain: SHORT_DOMAIN, reputation: new LocalDenylist() });

// Reads on one account (a link with tags and comments, among LIST_LINKS), creates on another, so
// the list does not grow while it is measured.
const reading = await services.accounts.create({ name: 'Bench reads', plan: 'unlimited' });
const readKey = (await services.apiKeys.create(reading.id)).secret;
const link = await services.links.create(reading.id, {
  title: 'Benchmark link',
  destination_url: 'https://example.com/a/fairly/typical/landing-page?ref=bench',
  tag_names: ['alpha', 'beta'],
  comments: 'A link with tags and comments, like most real ones.',
});
for (let i = 1; i < LIST_LINKS; i++) {
  await services.links.create(reading.id, {
    title: `Listed link ${i}`,
    destination_url: `https://example.com/listed/${i}?ref=bench`,
    tag_names: i % 3 === 0 ? ['alpha'] : i % 3 === 1 ? ['alpha', 'beta'] : [],
  });
}
const creating = await services.accounts.create({ name: 'Bench creates', plan: 'unlimited' });
const createKey = (await services.apiKeys.create(creating.id)).secret;

// The rate limiter runs (its cost is measured) with a limit the load never reaches.
const unreachable = Number.MAX_SAFE_INTEGER;
/** The server as `npm start` builds it, on these services, logging to `logFile` in the data directory. */
const serverOn = (serverOrm: typeof orm, serverServices: typeof services, logFile: string) =>
  buildServer({
    orm: serverOrm,
    services: serverServices,
    databaseUrl: cluster.url,
    baseUrl: 'http://127.0.0.1',
    // The level operators run (LOG_LEVEL's default), one line a request, written to a file as a
    // service's would be. The baselines log nothing.
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    logStream: logDestination(path.join(dataDir, logFile)),
    rateLimits: {
      apiPerPlan: { starter: unreachable, trial: unreachable, team: unreachable, unlimited: unreachable },
      anonymous: unreachable,
    },
  });
const app = await serverOn(orm, services, 'server.log');
// The same server, but every link read goes to the database (entries expire as they are made).
const uncachedOrm = await createOrm({ databaseUrl: cluster.url, poolSize: POOL_SIZE });
const uncached = await serverOn(
  uncachedOrm,
  createServices({ orm: uncachedOrm, shortDomain: SHORT_DOMAIN, reputation: new LocalDenylist(), linkReadCacheMs: 0 }),
  'uncached.log',
);
const handwritten = await handwrittenServer(cluster.url, SHORT_DOMAIN, POOL_SIZE);
const memory = memoryServer(link);
const servers: FastifyInstance[] = [app, uncached, handwritten, memory];
for (const server of servers) await server.listen({ port: 0, host: '127.0.0.1' });
const origin = (server: FastifyInstance) => `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;

interface Target {
  url: string;
  headers: Record<string, string>;
  send?: RequestBody;
  /** The target whose req/s this one is compared with. */
  baseline: string;
}
const reads = { authorization: `Bearer ${readKey}` };
const creates = { authorization: `Bearer ${createKey}`, 'content-type': 'application/json' };
const newLink: RequestBody = {
  method: 'POST',
  body: JSON.stringify({ destination_url: 'https://example.com/created/by/the/bench?ref=bench', title: 'Created by the bench' }),
};
const trpcInput = (input: unknown) => `input=${encodeURIComponent(JSON.stringify(input))}`;
const targets: Record<string, Target> = {
  memory: { url: `${origin(memory)}/api/v1/links/${link.id}`, headers: {}, baseline: 'handwritten-get' },
  'handwritten-get': { url: `${origin(handwritten)}/api/v1/links/${link.id}`, headers: reads, baseline: 'handwritten-get' },
  'rest-get': { url: `${origin(app)}/api/v1/links/${link.id}`, headers: reads, baseline: 'handwritten-get' },
  'rest-get-uncached': { url: `${origin(uncached)}/api/v1/links/${link.id}`, headers: reads, baseline: 'handwritten-get' },
  'trpc-get': { url: `${origin(app)}/trpc/links.get?${trpcInput({ id: link.id })}`, headers: reads, baseline: 'handwritten-get' },
  'handwritten-list': { url: `${origin(handwritten)}/api/v1/links?per_page=100`, headers: reads, baseline: 'handwritten-list' },
  'rest-list': { url: `${origin(app)}/api/v1/links?per_page=100`, headers: reads, baseline: 'handwritten-list' },
  'rest-list-uncached': { url: `${origin(uncached)}/api/v1/links?per_page=100`, headers: reads, baseline: 'handwritten-list' },
  'trpc-list': { url: `${origin(app)}/trpc/links.list?${trpcInput({ per_page: 100 })}`, headers: reads, baseline: 'handwritten-list' },
  'handwritten-create': { url: `${origin(handwritten)}/api/v1/links`, headers: creates, send: newLink, baseline: 'handwritten-create' },
  'rest-create': { url: `${origin(app)}/api/v1/links`, headers: creates, send: newLink, baseline: 'handwritten-create' },
  'trpc-create': { url: `${origin(app)}/trpc/links.create`, headers: creates, send: newLink, baseline: 'handwritten-create' },
};

// The baselines answer what the API answers: the same link, the same page.
async function body(target: Target) {
  const response = await fetch(target.url, { headers: target.headers });
  if (!response.ok) throw new Error(`${target.url}: ${response.status}`);
  return response.json();
}
deepStrictEqual(await body(targets['handwritten-get'] as Target), await body(targets['rest-get'] as Target));
deepStrictEqual(await body(targets['handwritten-get'] as Target), await body(targets['rest-get-uncached'] as Target));
deepStrictEqual(await body(targets['handwritten-list'] as Target), await body(targets['rest-list'] as Target));
deepStrictEqual(await body(targets['handwritten-list'] as Target), await body(targets['rest-list-uncached'] as Target));

// BENCH_TARGETS=rest-get,handwritten-get measures only those (while iterating).
const only = process.env.BENCH_TARGETS?.split(',');
if (only) for (const name of Object.keys(targets)) if (!only.includes(name)) delete targets[name];

// Warm-up: JIT, connection pools, prepared statements, caches.
for (const target of Object.values(targets)) await drive(target.url, target.headers, 2, undefined, target.send);

const results: Record<string, LoadResult[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
const loads: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, target] of Object.entries(targets)) {
    const result = await drive(target.url, target.headers, SECONDS, undefined, target.send);
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
    results[name]?.push(result);
    console.log(
      `round ${round} ${name.padEnd(18)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  server thread busy ${((result.serverBusy ?? 0) * 100).toFixed(0)} %`,
    );
  }
  loads.push(loadavg()[0] ?? 0);
}

const summary = Object.fromEntries(
  Object.entries(results).map(([name, rounds]) => [
    name,
    { rps: median(rounds.map((r) => r.requestsPerSecond)), p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) },
  ]),
);
const ratio = (name: string) => (summary[name]?.rps ?? 0) / (summary[targets[name]?.baseline ?? '']?.rps ?? 1);
console.log(
  `\n${ROUNDS} rounds x ${SECONDS} s, 50 connections, medians; load average after each round: ${loads.map((l) => l.toFixed(1)).join(', ')}`,
);
console.log(`${'target'.padEnd(18)}   req/s  p50 ms  p99 ms  ratio  to`);
for (const [name, s] of Object.entries(summary)) {
  console.log(
    `${name.padEnd(18)} ${s.rps.toFixed(0).padStart(7)}  ${String(s.p50).padStart(6)}  ${String(s.p99).padStart(6)}  ${ratio(name).toFixed(2).padStart(5)}  ${targets[name]?.baseline}`,
  );
}
console.log(`api uncached rest/handwritten = ${ratio('rest-get-uncached').toFixed(2)}, list ${ratio('rest-list-uncached').toFixed(2)}`);
console.log(`api trpc/handwritten = ${ratio('trpc-get').toFixed(2)}`);
console.log(`api list rest/handwritten = ${ratio('rest-list').toFixed(2)}, trpc/handwritten = ${ratio('trpc-list').toFixed(2)}`);
console.log(`api create rest/handwritten = ${ratio('rest-create').toFixed(2)}, trpc/handwritten = ${ratio('trpc-create').toFixed(2)}`);
console.log(`api rest/handwritten = ${ratio('rest-get').toFixed(2)}`);

for (const server of servers) await server.close();
await orm.close();
await uncachedOrm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
