/**
 * `pnpm bench:webhooks`: how fast webhook events reach a local receiver, and how long after their
 * change. On a fresh embedded PostgreSQL, the real server with one webhook subscribed to
 * `link.created` and `link.clicked`, and a receiver on 127.0.0.1 that verifies every signature
 * with `standardwebhooks` and answers 204:
 *
 * 1. creates: BENCH_LINKS links (POST /links, 8 at a time); events delivered per second, from the
 *    first create to the last delivery;
 * 2. clicks: BENCH_CLICKS visits (browser User-Agent, 16 at a time), then one flush of the click
 *    recorder; events delivered per second from the flush to the last delivery.
 *
 * The lag of each event is its arrival minus its `timestamp` (taken in the change's transaction,
 * just before commit): p50 and p99 per phase. Last line: `webhooks = X events/s (creates), Y
 * events/s (clicks)`.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { Webhook } from 'standardwebhooks';
import { buildServer } from '../src/build-server.ts';

const LINKS = Number(process.env.BENCH_LINKS ?? 2_000);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 5_000);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-webhooks-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 10 });
await migrate(orm);
const services = createServices({
  orm,
  shortDomain: 'https://sho.rt',
  reputation: new LocalDenylist(),
  // Flushed by the bench itself.
  clicks: { flushIntervalMs: 3_600_000 },
  webhooks: { allowPrivateTargets: true },
});
const account = await services.accounts.create({ name: 'Bench', plan: 'unlimited' });
const { secret: key } = await services.apiKeys.create(account.id);
const app = await buildServer({
  orm,
  services,
  databaseUrl: cluster.url,
  baseUrl: 'http://127.0.0.1',
  logLevel: 'warn',
  rateLimits: { redirects: 1_000_000_000 },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

/** Each event's arrival, by type: `at` (ms) and its lag from the change's timestamp. */
const arrivals = new Map<string, { at: number; lag: number }[]>();
let verifier: Webhook | undefined;
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const event = verifier?.verify(body, request.headers as Record<string, string>) as { type: string; timestamp: string };
    const at = Date.now();
    const list = arrivals.get(event.type) ?? [];
    list.push({ at, lag: at - Date.parse(event.timestamp) });
    arrivals.set(event.type, list);
    response.writeHead(204).end();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const created = await fetch(`${origin}/api/v1/webhooks`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ url: receiverUrl, events: ['link.created', 'link.clicked'] }),
});
if (created.status !== 201) throw new Error(`webhook: ${created.status} ${await created.text()}`);
verifier = new Webhook(((await created.json()) as { secret: string }).secret);

async function inParallel(count: number, width: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function arrived(type: string, count: number) {
  const deadline = Date.now() + 600_000;
  while ((arrivals.get(type)?.length ?? 0) < count) {
    if (Date.now() > deadline) throw new Error(`only ${arrivals.get(type)?.length ?? 0} of ${count} ${type} events arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function report(phase: string, type: string, startedAt: number, count: number): number {
  const list = arrivals.get(type) ?? [];
  const last = Math.max(...list.map((arrival) => arrival.at));
  const rate = count / ((last - startedAt) / 1000);
  const lags = list.map((arrival) => arrival.lag).sort((a, b) => a - b);
  console.log(
    `${phase.padEnd(8)} ${String(count).padStart(7)} events  ${rate.toFixed(0).padStart(6)} events/s  lag p50 ${percentile(lags, 50).toFixed(0)} ms  p99 ${percentile(lags, 99).toFixed(0)} ms`,
  );
  return rate;
}

// 1. Creates.
const slugs: string[] = [];
const createsStarted = Date.now();
await inParallel(LINKS, 8, async (i) => {
  const response = await fetch(`${origin}/api/v1/links`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: `Bench ${i}`, destination_url: `https://example.com/bench/${i}` }),
  });
  if (response.status !== 201) throw new Error(`create: ${response.status}`);
  slugs.push(((await response.json()) as { slug: string }).slug);
});
await arrived('link.created', LINKS);
const createRate = report('creates', 'link.created', createsStarted, LINKS);

// 2. Clicks: the visits are buffered; one flush writes them and their events.
await inParallel(CLICKS, 16, async (i) => {
  const response = await fetch(`${origin}/${slugs[i % slugs.length]}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
  await response.arrayBuffer();
  if (response.status !== 302) throw new Error(`visit: ${response.status}`);
});
const flushStarted = Date.now();
await services.clicks.flush();
await arrived('link.clicked', CLICKS);
const clickRate = report('clicks', 'link.clicked', flushStarted, CLICKS);

await app.close();
receiver.close();
await orm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
console.log(`webhooks = ${createRate.toFixed(0)} events/s (creates), ${clickRate.toFixed(0)} events/s (clicks)`);
