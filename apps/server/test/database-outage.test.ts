import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrm, migrate } from '@shortlinks/db';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BROWSER_USER_AGENT,
  createAccount,
  createCachedLink,
  createLink,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';
import { postmasterPid, waitFor } from './processes.ts';

/**
 * PostgreSQL killed (SIGKILL of the postmaster) under running servers, then brought back on the
 * same port: what the API, the redirects and the click counts do meanwhile and after
 * (docs/operations.md, "When the database goes away"). The cluster is this file's own, not the
 * suite's shared one.
 */

let dataDir: string;
let database: EmbeddedDatabase;
let port: number;
/** Keeps links seen before the outage for the default hour. */
let server: TestServer;
/** Keeps them for 1 s only. */
let shortMemory: TestServer;
/** Buffers 5 distinct click events at most, and serves its metrics. */
let tinyBuffer: TestServer;
let account: TestAccount;

const visit = (origin: string, slug: string) =>
  fetch(`${origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });

/** One series of the server's Prometheus text, e.g. `shortlinks_clicks_dropped_total{reason="buffer_full"}`. */
async function metric(server: TestServer, series: string): Promise<number> {
  const text = await (await fetch(server.app.metricsUrl ?? '')).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/**
 * Visits of `slug`, list reads and creates, four at a time, until `stop` resolves: every status
 * each got, and the creates acknowledged (201).
 */
async function underLoad(slug: string, stop: Promise<void>) {
  const statuses = { visits: new Map<number, number>(), reads: new Set<number>(), creates: new Set<number>() };
  const acknowledged: string[] = [];
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  const worker = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const [visited, read, created] = await Promise.all([
        visit(server.origin, slug),
        account.call('GET', '/links'),
        account.call('POST', '/links', { title: 'Load', destination_url: `https://example.com/load/${n}/${i}` }),
      ]);
      statuses.visits.set(visited.status, (statuses.visits.get(visited.status) ?? 0) + 1);
      statuses.reads.add(read.status);
      statuses.creates.add(created.status);
      if (created.status === 201) acknowledged.push(created.body.id);
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  return { statuses, acknowledged };
}

async function killPostmaster() {
  process.kill(await postmasterPid(dataDir), 'SIGKILL');
}

/** Starts the cluster again on its port; its orphaned backends may hold it back for a moment. */
async function restartPostgres() {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      database = await startEmbeddedPostgres({ dataDir, port });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-outage-'));
  database = await startEmbeddedPostgres({ dataDir });
  port = Number(new URL(database.url).port);
  const orm = await createOrm({ databaseUrl: database.url });
  await migrate(orm);
  await orm.close();
  server = await startTestServer({ databaseUrl: database.url });
  shortMemory = await startTestServer({ databaseUrl: database.url, redirectStaleIfErrorMs: 1000 });
  tinyBuffer = await startTestServer({
    databaseUrl: database.url,
    clickBufferMax: 5,
    trustProxy: true,
    metrics: { port: 0, host: '127.0.0.1' },
  });
  account = await createAccount(server);
}, 120_000);

afterAll(async () => {
  await server?.close().catch(() => {});
  await shortMemory?.close().catch(() => {});
  await tinyBuffer?.close().catch(() => {});
  await database?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('the database goes away and comes back', () => {
  test('API calls answer 503 DATABASE_UNAVAILABLE with Retry-After; links seen recently keep redirecting; clicks are written once it is back', async () => {
    const seen = await createLink(account, { destination_url: 'https://example.com/seen', slug: 'seen-before' });
    const unseen = await createLink(account, { destination_url: 'https://example.com/unseen', slug: 'never-visited' });
    for (const origin of [server.origin, shortMemory.origin, tinyBuffer.origin]) {
      expect((await visit(origin, 'seen-before')).status).toBe(302);
      expect((await visit(origin, 'no-such-link')).status).toBe(404);
    }
    for (const each of [server, shortMemory, tinyBuffer]) await each.services.clicks.flush();

    // Killed under a load of visits, reads and creates, which goes on until the servers noticed.
    let noticed = () => {};
    const load = underLoad('seen-before', new Promise((resolve) => (noticed = resolve)));
    await sleep(300);
    await killPostmaster();
    // The servers hear of it when their change listeners lose the connection.
    for (const each of [server, shortMemory, tinyBuffer]) {
      await waitFor(() => each.services.redirects.cache.keptSize > 0, 15_000, 'each server to notice');
    }
    await sleep(300);
    noticed();
    const { statuses, acknowledged } = await load;
    // Never a 500: the visits all redirected, reads and creates answered or said 503.
    expect([...statuses.visits.keys()]).toEqual([302]);
    expect([...statuses.reads].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect([...statuses.creates].filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(statuses.reads).toContain(503);
    expect(acknowledged.length).toBeGreaterThan(0);
    const visitedUnderLoad = statuses.visits.get(302) ?? 0;
    const pendingBefore = server.services.clicks.pending;
    expect(pendingBefore).toBe(visitedUnderLoad);

    // The API, both transports: its own code and a time to retry, not a 500.
    const list = await account.call('GET', '/links');
    expect(list.status).toBe(503);
    expect(list.body).toEqual({ code: 'DATABASE_UNAVAILABLE', message: expect.stringMatching(/retry/) });
    expect(list.headers.get('retry-after')).toBe('5');
    const create = await account.call('POST', '/links', { title: 'During', destination_url: 'https://example.com/during' });
    expect(create.status).toBe(503);
    expect(create.body.code).toBe('DATABASE_UNAVAILABLE');
    const trpc = await fetch(`${server.origin}/trpc/links.list`, { headers: { authorization: `Bearer ${account.key}` } });
    expect(trpc.status).toBe(503);
    expect(trpc.headers.get('retry-after')).toBe('5');
    expect(((await trpc.json()) as { error: { data: { appCode: string } } }).error.data.appCode).toBe('DATABASE_UNAVAILABLE');
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(503);

    // A link seen before keeps redirecting, under load, and each visit is buffered as a click.
    const during = await Promise.all(Array.from({ length: 40 }, () => visit(server.origin, 'seen-before')));
    expect(during.map((response) => response.status)).toEqual(Array(40).fill(302));
    expect(during[0]?.headers.get('location')).toBe('https://example.com/seen');
    // A slug never seen, and one known to be free a moment ago (a link may have it by now): 503, not 404.
    for (const slug of ['never-visited', 'no-such-link']) {
      const refused = await visit(server.origin, slug);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.headers.get('content-type')).toMatch(/text\/html/);
    }
    expect(server.services.clicks.pending).toBe(pendingBefore + 40);
    await expect(server.services.clicks.flush()).rejects.toThrow();
    expect(server.services.clicks.pending).toBe(pendingBefore + 40);
    expect(server.services.clicks.dropped.overflowClicks).toBe(0);

    // A full buffer: 8 visitors (by their forwarded address) to a server that keeps 5 events
    // at most. 3 are dropped, counted, and served as a metric.
    for (let i = 0; i < 8; i++) {
      const response = await fetch(`${tinyBuffer.origin}/seen-before`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER_USER_AGENT, 'x-forwarded-for': `198.51.100.${i}` },
      });
      expect(response.status).toBe(302);
    }
    expect(tinyBuffer.services.clicks.pending).toBe(5);
    expect(await metric(tinyBuffer, 'shortlinks_clicks_dropped_total{reason="buffer_full"}')).toBe(3);
    expect(await metric(tinyBuffer, 'shortlinks_clicks_pending')).toBe(5);
    expect(await metric(tinyBuffer, 'shortlinks_redirects_total{outcome="redirected",visitor="human"}')).toBeGreaterThanOrEqual(9);

    // Past its bound (1 s here), a link seen before is no longer served from memory.
    await sleep(1200);
    expect((await visit(shortMemory.origin, 'seen-before')).status).toBe(503);
    expect((await visit(server.origin, 'seen-before')).status).toBe(302);
    expect(server.services.clicks.pending).toBe(pendingBefore + 41);

    await restartPostgres();
    // Everything recovers on its own: the pool reconnects, the listener too (within its backoff).
    await waitFor(async () => (await account.call('GET', '/links')).status === 200, 30_000, 'the API to answer again');
    await waitFor(async () => (await fetch(`${server.origin}/readyz`)).status === 200, 30_000, '/readyz to answer 200');
    // Redirects ask the database again at most a second after it last failed them.
    await waitFor(async () => (await visit(server.origin, 'never-visited')).status === 302, 5_000, 'an unseen link to redirect');
    expect((await visit(server.origin, 'no-such-link')).status).toBe(404);
    expect((await visit(shortMemory.origin, 'seen-before')).status).toBe(302);
    // Trusted again only once the listener is back: then the kept answers are forgotten.
    await waitFor(() => server.services.redirects.cache.keptSize === 0, 30_000, 'the listener to reconnect');

    // The clicks made during the outage were kept and are written now.
    await server.services.clicks.flush();
    const counted = await account.call('GET', `/links/${seen.id}`);
    // One before the outage through each server, the load's, and 41 during it.
    expect(counted.body.click_count).toBe(3 + visitedUnderLoad + 41);
    expect(server.services.clicks.dropped.overflowClicks).toBe(0);
    // No acknowledged link was lost.
    for (const id of acknowledged) expect((await account.call('GET', `/links/${id}`)).status).toBe(200);
    expect(unseen.id).toMatch(/^lnk_/);
  }, 180_000);

  test('with only the change listener cut, the database is asked: a link changed meanwhile is never served from what was kept', async () => {
    await createCachedLink(account, [server], { destination_url: 'https://example.com/before', slug: 'changed-meanwhile' });
    expect((await visit(server.origin, 'changed-meanwhile')).headers.get('location')).toBe('https://example.com/before');
    const em = server.orm.em.fork();
    await em
      .getConnection()
      .execute(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'shortlinks change listener' and pid <> pg_backend_pid()`,
      );
    await waitFor(() => server.services.redirects.cache.keptSize > 0, 10_000, 'the listener to notice');
    await em.getConnection().execute(`update link set destination_url = 'https://example.com/after' where slug = 'changed-meanwhile'`);
    expect((await visit(server.origin, 'changed-meanwhile')).headers.get('location')).toBe('https://example.com/after');
  }, 60_000);
});
