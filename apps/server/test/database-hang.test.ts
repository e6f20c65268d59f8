import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrm, migrate } from '@shortlinks/db';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@shortlinks/db/embedded';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { postmasterPid, runCli, waitFor } from './processes.ts';

/**
 * Every PostgreSQL process of the database stopped (SIGSTOP: how a stalled disk, a frozen VM or a
 * network partition looks from the server) under a running server, then continued: requests that
 * need the database answer 503 within the statement bound (DATABASE_QUERY_TIMEOUT_MS, 5 s), and
 * everything recovers, losing nothing acknowledged (docs/operations.md). The cluster is this
 * file's own: stopping the suite's shared one would freeze every other test file.
 */

let dataDir: string;
let database: EmbeddedDatabase;
let server: TestServer;
let account: TestAccount;
/** The cluster's processes, stopped by the test; continued in afterAll whatever happened. */
let stopped: number[] = [];

/** The statement bound, and what a request may take at most in the worst case: a pooled connection's wait, then a statement. */
const BOUND_MS = 5_000;
const WORST_MS = 2 * BOUND_MS + 1_500;

/** The postmaster and every process it started (backends, checkpointer, WAL writer, …). */
function clusterProcesses(postmaster: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function signalCluster(signal: 'SIGSTOP' | 'SIGCONT', pids: number[]) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // A backend that ended meanwhile.
    }
  }
}

/** A request to the server with its time; a request the server never answers fails the test after 20 s instead of hanging it. */
async function timed(url: string, init: RequestInit = {}) {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, ms: performance.now() - started };
}

const api = (method: string, route: string, body?: unknown) =>
  timed(`${server.api}${route}`, {
    method,
    headers: { authorization: `Bearer ${account.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const visit = (slug: string) => timed(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-hung-'));
  database = await startEmbeddedPostgres({ dataDir });
  const orm = await createOrm({ databaseUrl: database.url });
  await migrate(orm);
  await orm.close();
  server = await startTestServer({ databaseUrl: database.url });
  account = await createAccount(server);
}, 120_000);

afterAll(async () => {
  signalCluster('SIGCONT', stopped);
  await server?.close().catch(() => {});
  await database?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('the database stops answering, then answers again', () => {
  test('bounded 503s with Retry-After on REST and tRPC, /readyz not ready, the CLI fails clearly; then everything recovers and nothing acknowledged is lost', async () => {
    const seen = await createLink(account, { destination_url: 'https://example.com/seen', slug: 'hung-seen' });
    expect((await visit('hung-seen')).status).toBe(302);
    await server.services.clicks.flush();

    // Creates and reads, three at a time, until told to stop: each one's status and time, and the links acknowledged.
    let loading = true;
    const acknowledged: string[] = [];
    const answers: { status: number; ms: number }[] = [];
    const load = Promise.all(
      [0, 1, 2].map(async (worker) => {
        for (let i = 0; loading; i++) {
          const [created, read] = await Promise.all([
            api('POST', '/links', { title: 'Load', destination_url: `https://example.com/load/${worker}/${i}` }),
            api('GET', '/links'),
          ]);
          answers.push(created, read);
          if (created.status === 201) acknowledged.push((JSON.parse(created.text) as { id: string }).id);
        }
      }),
    );
    await sleep(500);

    stopped = clusterProcesses(await postmasterPid(dataDir));
    signalCluster('SIGSTOP', stopped);
    const stoppedAt = performance.now();
    try {
      // A link seen before keeps redirecting while the database is stopped, and its visits are buffered.
      const during = await Promise.all(Array.from({ length: 5 }, () => visit('hung-seen')));
      expect(during.map((answer) => answer.status)).toEqual(Array(5).fill(302));
      expect(server.services.clicks.pending).toBe(5);

      const [list, create, trpc, ready, flush, cli, embeddedCli] = await Promise.all([
        // Pages not read before: none is answered from memory (link-read-cache.ts).
        api('GET', '/links?per_page=3'),
        api('POST', '/links', { title: 'Load', destination_url: 'https://example.com/during' }),
        timed(`${server.origin}/trpc/links.list?input=${encodeURIComponent('{"per_page":4}')}`, {
          headers: { authorization: `Bearer ${account.key}` },
        }),
        timed(`${server.origin}/readyz`),
        (async () => {
          const started = performance.now();
          const error = await server.services.clicks.flush().then(
            () => undefined,
            (failure: unknown) => failure as Error,
          );
          return { error, ms: performance.now() - started };
        })(),
        runCli(['account', 'list'], { DATABASE_URL: database.url }),
        // The embedded cluster, shared with the process that started it (this one).
        runCli(['account', 'list'], { DATABASE_URL: '', DATA_DIR: dataDir }),
      ]);

      for (const answer of [list, create]) {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.text)).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.ms).toBeLessThan(WORST_MS);
      }
      expect(trpc.status).toBe(503);
      expect(trpc.headers.get('retry-after')).toBe('5');
      expect((JSON.parse(trpc.text) as { error: { data: { appCode: string } } }).error.data.appCode).toBe('DATABASE_UNAVAILABLE');
      expect(trpc.ms).toBeLessThan(WORST_MS);
      expect(ready.status).toBe(503);
      expect(ready.ms).toBeLessThan(3_000);
      // The click flusher gives up within the bound, and keeps the clicks.
      expect(flush.error).toBeDefined();
      expect(flush.ms).toBeLessThan(WORST_MS);
      for (const run of [cli, embeddedCli]) {
        expect(run.code).toBe(69);
        expect(run.stderr).toMatch(/the database did not answer/);
      }

      expect(server.services.clicks.pending).toBe(5);
      // The change listener finds its connection unanswered (heartbeat) and stops trusting the cache.
      await waitFor(() => server.services.redirects.cache.keptSize > 0, 20_000, 'the change listener to notice');
      expect(performance.now() - stoppedAt).toBeLessThan(45_000);

      signalCluster('SIGCONT', stopped);
      stopped = [];
      await waitFor(async () => (await api('GET', '/links')).status === 200, 10_000, 'the API to answer again');
      await waitFor(async () => (await timed(`${server.origin}/readyz`)).status === 200, 10_000, '/readyz to answer 200');
      // The listener reconnects and the cache is trusted again.
      await waitFor(() => server.services.redirects.cache.keptSize === 0, 20_000, 'the change listener to reconnect');
    } finally {
      loading = false;
      await load.catch(() => {});
    }

    // Every answer under load was a success or a bounded 503, never a 500 nor a wait without end.
    expect(answers.filter((answer) => ![200, 201, 503].includes(answer.status))).toEqual([]);
    expect(answers.some((answer) => answer.status === 503)).toBe(true);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(WORST_MS);
    // Every link acknowledged, before, during or after the stop, is there.
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const id of acknowledged) expect((await api('GET', `/links/${id}`)).status).toBe(200);
    // The clicks buffered meanwhile are written, each once: the one before, and the five during.
    await server.services.clicks.flush();
    expect(server.services.clicks.pending).toBe(0);
    const counted = JSON.parse((await api('GET', `/links/${seen.id}`)).text) as { click_count: number };
    expect(counted.click_count).toBe(6);
  }, 90_000);
});
