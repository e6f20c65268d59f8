import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { type ClickEvent, ClickRecorder, type VisitorAgent } from '@shortlinks/api/redirects';
import { createOrm, type Orm } from '@shortlinks/db';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { createAccount, createLink, createTestDatabase, getLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { freePort, runCli, startServerProcess, waitFor } from './processes.ts';

/**
 * What a visitor sends must never stop click counting (docs/security.md, "Click counting"): every
 * value that reaches a key is bounded, a group the database refuses is dropped alone with a log
 * line, and an unreachable database loses nothing.
 */

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const DESKTOP_CHROME: VisitorAgent = { device: 'desktop', browser: 'Chrome', os: 'Windows' };

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  // Many clicks here are written by recorders of the tests' own, which the server hears of only by
  // announcement, a moment after: its link reads must come from the database, not from memory.
  server = await startTestServer({ countryHeader: 'cf-ipcountry', linkReadCacheMs: 0 });
  alice = await createAccount(server);
  bob = await createAccount(server);
});
afterAll(() => server.close());

const visit = (slug: string, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER, ...headers } });

const sql = async <T>(text: string, params: unknown[] = []) => (await server.orm.em.fork().getConnection().execute(text, params)) as T[];

/**
 * Letters in a random-looking but fixed order: PostgreSQL compresses a repeated letter far below
 * its index row limit, but not these.
 */
function letters(length: number, seed = 1): string {
  let state = seed;
  return Array.from({ length }, () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return String.fromCharCode(97 + ((state >>> 16) % 26));
  }).join('');
}

/** One time for every recorded click, so identical clicks always share a group. */
const NOW = Date.now();

/** A click as the redirect records it. */
const event = (linkId: string, extra: Partial<ClickEvent> = {}): ClickEvent => ({
  linkId,
  at: NOW,
  referrerHost: null,
  agent: DESKTOP_CHROME,
  country: null,
  clientIp: '192.0.2.1',
  userAgent: BROWSER,
  ...extra,
});

/** click_count of a link equals the sum of its hourly rollup: the batch wrote both or neither. */
async function expectCounted(account: TestAccount, linkId: string, clicks: number) {
  expect((await getLink(account, linkId)).click_count).toBe(clicks);
  const [rollup] = await sql<{ n: number }>('select coalesce(sum(clicks), 0)::int as n from click_hourly where link_id = ?', [linkId]);
  expect(rollup?.n).toBe(clicks);
}

describe('visitor-supplied values that reach a key', () => {
  test('a visit whose Referer host is 4,000 letters is counted (as no referrer), and so is every later visit of any account', async () => {
    const link = await createLink(alice);
    const other = await createLink(bob);
    expect((await visit(link.slug, { referer: `http://${letters(4000)}.example/` })).status).toBe(302);
    await server.services.clicks.flush();
    expect((await visit(other.slug, { referer: 'https://news.example.org/' })).status).toBe(302);
    await server.services.clicks.flush();

    await expectCounted(alice, link.id, 1);
    await expectCounted(bob, other.id, 1);
    const stats = (await alice.call('GET', `/links/${link.id}/stats`)).body;
    expect(stats.totals.clicks).toBe(1);
    expect(stats.breakdowns.referrers).toEqual([{ value: null, clicks: 1 }]);
  });

  test('a Referer host of 253 characters, the most DNS allows, is kept', async () => {
    const link = await createLink(alice);
    const host = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(host).toHaveLength(253);
    await visit(link.slug, { referer: `https://${host}/page` });
    await server.services.clicks.flush();
    expect((await alice.call('GET', `/links/${link.id}/stats`)).body.breakdowns.referrers).toEqual([{ value: host, clicks: 1 }]);
  });

  test('a User-Agent whose browser name is 4,000 letters is counted with an unknown browser', async () => {
    const link = await createLink(alice);
    expect((await visit(link.slug, { 'user-agent': `${letters(4000)}/1.0 (Windows NT 10.0)` })).status).toBe(302);
    await server.services.clicks.flush();
    await expectCounted(alice, link.id, 1);
    expect((await alice.call('GET', `/links/${link.id}/stats`)).body.breakdowns).toMatchObject({
      browsers: [{ value: null, clicks: 1 }],
      operating_systems: [{ value: 'Windows', clicks: 1 }],
    });
  });

  test('values a caller of the recorder failed to bound are bounded again when written', async () => {
    const link = await createLink(alice);
    const recorder = new ClickRecorder(server.orm);
    recorder.record(
      event(link.id, {
        referrerHost: letters(5000),
        agent: { device: 'd'.repeat(5000) as VisitorAgent['device'], browser: letters(5000), os: 'o\u0000s' },
        country: 'ZZZ',
      }),
    );
    recorder.record(event(link.id, { referrerHost: 'nul\u0000.example', country: 'de' }));
    await recorder.flush();

    await expectCounted(alice, link.id, 2);
    const rows = await sql('select referrer_host, agent_class, browser, os, country from click where link_id = ? order by agent_class', [
      link.id,
    ]);
    expect(rows).toEqual([
      { referrer_host: null, agent_class: 'desktop', browser: 'Chrome', os: 'Windows', country: null },
      { referrer_host: null, agent_class: 'unknown', browser: null, os: null, country: null },
    ]);
    expect(recorder.dropped).toEqual({ refusedGroups: 0, refusedClicks: 0, overflowClicks: 0 });
  });
});

describe('a flush the database partly refuses', () => {
  beforeAll(async () => {
    // Stands for any value PostgreSQL may one day refuse that no bound foresaw.
    await sql(`alter table click add constraint refuses_poison check (referrer_host is distinct from 'poison.example')`);
  });

  test('the refused groups are dropped with a log line and a count; the others are written exactly once, and housekeeping runs', async () => {
    const good = await createLink(alice);
    const mixed = await createLink(bob);
    const log: string[] = [];
    const recorder = new ClickRecorder(server.orm, { log: (message) => log.push(message) });
    // An old salt, which the hourly housekeeping deletes (docs/statistics.md).
    await sql(`insert into visitor_salt (day, salt) values (current_date - 10, '\\x00') on conflict do nothing`);

    let expectedGood = 0;
    for (let i = 0; i < 20; i++) {
      for (let n = 0; n <= i % 3; n++) recorder.record(event(good.id, { clientIp: `198.51.100.${i}` }));
      expectedGood += (i % 3) + 1;
    }
    for (let i = 0; i < 5; i++) recorder.record(event(mixed.id, { clientIp: `203.0.113.${i}`, referrerHost: 'fine.example' }));
    for (const ip of ['192.0.2.7', '192.0.2.8', '192.0.2.8'])
      recorder.record(event(mixed.id, { clientIp: ip, referrerHost: 'poison.example' }));
    expect(recorder.pending).toBe(expectedGood + 8);

    await recorder.flush();

    await expectCounted(alice, good.id, expectedGood);
    await expectCounted(bob, mixed.id, 5);
    expect(recorder.pending).toBe(0);
    expect(recorder.dropped).toEqual({ refusedGroups: 2, refusedClicks: 3, overflowClicks: 0 });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/dropped 3 clicks \(2 click groups\) the database refused/);
    expect(log[0]).toContain('refuses_poison');
    expect(log[0]).toContain('23514');
    expect(await sql(`select day from visitor_salt where day < current_date - 1`)).toEqual([]);

    // Nothing is written twice by a later flush.
    await recorder.flush();
    await expectCounted(alice, good.id, expectedGood);
    await expectCounted(bob, mixed.id, 5);
  });

  test('a click without a valid time is dropped alone, not kept to fail every later flush', async () => {
    const link = await createLink(alice);
    const log: string[] = [];
    const recorder = new ClickRecorder(server.orm, { log: (message) => log.push(message) });
    recorder.record(event(link.id, { at: Number.NaN }));
    recorder.record(event(link.id));
    await recorder.flush();
    await expectCounted(alice, link.id, 1);
    expect(recorder.dropped).toEqual({ refusedGroups: 1, refusedClicks: 1, overflowClicks: 0 });
    expect(log).toEqual(['dropped 1 click without a valid time']);
  });

  test('after a refused group, the server counts every later visit', async () => {
    const link = await createLink(alice);
    await visit(link.slug, { referer: 'https://poison.example/' });
    await visit(link.slug, { referer: 'https://fine.example/' });
    await server.services.clicks.flush();
    await visit(link.slug);
    await server.services.clicks.flush();
    await expectCounted(alice, link.id, 2);
    expect(server.services.clicks.dropped).toMatchObject({ refusedClicks: 1 });
  });
});

/** A TCP relay to PostgreSQL that a test can shut (connections refused, open ones cut) and open again on the same port. */
class DatabaseRelay {
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  port = 0;

  constructor(databaseUrl: string) {
    const url = new URL(databaseUrl);
    this.#target = { host: url.hostname, port: Number(url.port) };
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#target);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async shut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    const closed = once(server, 'close');
    server.close();
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }
}

describe('while the database is unreachable', () => {
  let relay: DatabaseRelay;
  let relayedOrm: Orm;

  beforeAll(async () => {
    relay = new DatabaseRelay(server.databaseUrl);
    await relay.open();
    const url = new URL(server.databaseUrl);
    url.port = String(relay.port);
    relayedOrm = await createOrm({ databaseUrl: url.href, poolSize: 2 });
  });
  afterAll(async () => {
    await relay.shut();
    await relayedOrm.close();
  });

  test('no click is dropped; once it is back, every buffered click is written exactly once', async () => {
    const link = await createLink(alice);
    const log: string[] = [];
    const recorder = new ClickRecorder(relayedOrm, { log: (message) => log.push(message) });
    for (let i = 0; i < 3; i++) recorder.record(event(link.id, { clientIp: `198.51.100.${i}` }));
    await recorder.flush();
    await expectCounted(alice, link.id, 3);

    await relay.shut();
    for (let i = 0; i < 4; i++) recorder.record(event(link.id, { clientIp: `198.51.100.${i}`, referrerHost: 'later.example' }));
    await expect(recorder.flush()).rejects.toThrow();
    await expect(recorder.flush()).rejects.toThrow();
    expect(recorder.pending).toBe(4);
    expect(recorder.dropped).toEqual({ refusedGroups: 0, refusedClicks: 0, overflowClicks: 0 });
    expect(log.some((line) => /could not write 4 clicks, kept for the next attempt/.test(line))).toBe(true);
    await expectCounted(alice, link.id, 3);

    await relay.open();
    await recorder.flush();
    expect(recorder.pending).toBe(0);
    await expectCounted(alice, link.id, 7);
    expect(recorder.dropped).toEqual({ refusedGroups: 0, refusedClicks: 0, overflowClicks: 0 });
  });

  test('clicks recorded before the first flush could reach the database wait for it, and are written once it is back', async () => {
    const link = await createLink(alice);
    const log: string[] = [];
    const recorder = new ClickRecorder(relayedOrm, { log: (message) => log.push(message) });
    await relay.shut();
    try {
      // No salt could be loaded yet: the visits wait unhashed.
      for (let i = 0; i < 3; i++) recorder.record(event(link.id, { clientIp: `198.51.100.${i}` }));
      await expect(recorder.flush()).rejects.toThrow();
      expect(recorder.pending).toBe(3);
      expect(log).toContainEqual(expect.stringMatching(/^could not write 3 clicks, kept for the next attempt: /));
    } finally {
      await relay.open();
    }
    await recorder.flush();
    await expectCounted(alice, link.id, 3);
    expect(log.at(-1)).toBe('clicks are written again, after 1 failed attempt');
  });

  test('stopping while it is unreachable fails and says how many clicks are lost', async () => {
    const link = await createLink(alice);
    const log: string[] = [];
    const recorder = new ClickRecorder(relayedOrm, { log: (message) => log.push(message) });
    await recorder.flush(); // loads today's salt
    await relay.shut();
    try {
      for (let i = 0; i < 2; i++) recorder.record(event(link.id, { clientIp: `198.51.100.${i}` }));
      await expect(recorder.stop()).rejects.toThrow();
      expect(log.at(-1)).toBe('stopping with 2 clicks that could not be written: they are lost');
    } finally {
      await relay.open();
    }
  });

  test('above its bound the buffer drops new clicks, counts them and says so once per flush, not once per click', async () => {
    const link = await createLink(alice);
    const log: string[] = [];
    const recorder = new ClickRecorder(relayedOrm, { maxBuffered: 3, log: (message) => log.push(message) });
    await recorder.flush(); // loads today's salt
    await relay.shut();
    try {
      for (let i = 0; i < 10; i++) recorder.record(event(link.id, { clientIp: `198.51.100.${i}` }));
      expect(recorder.pending).toBe(3);
      expect(recorder.dropped.overflowClicks).toBe(7);
      await expect(recorder.flush()).rejects.toThrow();
      expect(log.filter((line) => line.includes('buffer is full'))).toEqual([expect.stringContaining('dropped 7 clicks')]);
    } finally {
      await relay.open();
    }
    await recorder.flush();
    await expectCounted(alice, link.id, 3);
  });
});

describe('the server process', () => {
  test('logs the clicks its recorder drops, and still exits cleanly with every other click written', { timeout: 90_000 }, async () => {
    const databaseUrl = await createTestDatabase();
    const orm = await createOrm({ databaseUrl, poolSize: 2 });
    onTestFinished(() => orm.close());
    await orm.em
      .fork()
      .getConnection()
      .execute(`alter table click add constraint refuses_poison check (referrer_host is distinct from 'poison.example')`);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', CLICK_FLUSH_MS: '60000' };
    const created = await runCli(['account', 'create', '--name', 'Logs', '--plan', 'starter', '--json'], env);
    const key = (JSON.parse(created.stdout) as { api_key: string }).api_key;

    const process = startServerProcess(env);
    onTestFinished(() => {
      if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    });
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'the server');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const link = (await (
      await fetch(`${base}/api/v1/links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'x', destination_url: 'https://example.com/l' }),
      })
    ).json()) as { id: string; slug: string };
    const go = (referer: string) => fetch(`${base}/${link.slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER, referer } });
    expect((await go('https://poison.example/')).status).toBe(302);
    expect((await go('https://fine.example/')).status).toBe(302);

    process.child.kill('SIGTERM');
    const [code] = (await once(process.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(process.output()).toMatch(/dropped 1 click \(1 click group\) the database refused/);
    const [row] = (await orm.em.fork().getConnection().execute('select click_count::int as n from link where id = ?', [link.id])) as {
      n: number;
    }[];
    expect(row?.n).toBe(1);
  });
});
