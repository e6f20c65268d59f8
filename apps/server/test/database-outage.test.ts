import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrm, migrate } from '@shortlinks/db';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';

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
let account: TestAccount;

const visit = (origin: string, slug: string) =>
  fetch(`${origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });

async function killPostmaster() {
  const pid = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGKILL');
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
  account = await createAccount(server);
}, 120_000);

afterAll(async () => {
  await server?.close().catch(() => {});
  await shortMemory?.close().catch(() => {});
  await database?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('the database goes away and comes back', () => {
  test('API calls answer 503 DATABASE_UNAVAILABLE with Retry-After; links seen recently keep redirecting; clicks are written once it is back', async () => {
    const seen = await createLink(account, { destination_url: 'https://example.com/seen', slug: 'seen-before' });
    const unseen = await createLink(account, { destination_url: 'https://example.com/unseen', slug: 'never-visited' });
    for (const origin of [server.origin, shortMemory.origin]) {
      expect((await visit(origin, 'seen-before')).status).toBe(302);
      expect((await visit(origin, 'no-such-link')).status).toBe(404);
    }
    await server.services.clicks.flush();
    await shortMemory.services.clicks.flush();

    await killPostmaster();
    // The servers hear of it when their change listeners lose the connection.
    await waitFor(() => server.services.redirects.cache.keptSize > 0, 15_000, 'the first server to notice');
    await waitFor(() => shortMemory.services.redirects.cache.keptSize > 0, 15_000, 'the second server to notice');

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
    expect(server.services.clicks.pending).toBe(40);
    await expect(server.services.clicks.flush()).rejects.toThrow();
    expect(server.services.clicks.pending).toBe(40);
    expect(server.services.clicks.dropped.overflowClicks).toBe(0);

    // Past its bound (1 s here), a link seen before is no longer served from memory.
    await sleep(1200);
    expect((await visit(shortMemory.origin, 'seen-before')).status).toBe(503);
    expect((await visit(server.origin, 'seen-before')).status).toBe(302);
    expect(server.services.clicks.pending).toBe(41);

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
    expect(counted.body.click_count).toBe(2 + 41);
    expect(server.services.clicks.dropped.overflowClicks).toBe(0);
    expect(unseen.id).toMatch(/^lnk_/);
  }, 180_000);

  test('with only the change listener cut, the database is asked: a link changed meanwhile is never served from what was kept', async () => {
    await createLink(account, { destination_url: 'https://example.com/before', slug: 'changed-meanwhile' });
    expect((await visit(server.origin, 'changed-meanwhile')).headers.get('location')).toBe('https://example.com/before');
    const em = server.orm.em.fork();
    await em
      .getConnection()
      .execute(`select pg_terminate_backend(pid) from pg_stat_activity where query like 'listen %' and pid <> pg_backend_pid()`);
    await waitFor(() => server.services.redirects.cache.keptSize > 0, 10_000, 'the listener to notice');
    await em.getConnection().execute(`update link set destination_url = 'https://example.com/after' where slug = 'changed-meanwhile'`);
    expect((await visit(server.origin, 'changed-meanwhile')).headers.get('location')).toBe('https://example.com/after');
  }, 60_000);
});
