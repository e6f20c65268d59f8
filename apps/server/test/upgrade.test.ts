import { createHash } from 'node:crypto';
import { createOrm, migrate } from '@shortlinks/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createEmptyDatabase } from './harness.ts';
import { freePort, isReady, runCli, startServerProcess, waitFor } from './processes.ts';

/*
 * Upgrading: a database at the previous release's schema, with data in it, under today's server.
 *
 * The previous release is 0.1.0 (CHANGELOG.md, "0.1.0 — 2026-11-22"; the repository has no tags).
 * It is the tree just before commit 58c8b64, which opened the changelog's Unreleased section; its
 * migrations end with Migration20261122110000_click_statistics (`git show
 * 58c8b64^:packages/db/src/migrations/index.ts`). Its data is written here as 0.1.0 wrote it, in
 * SQL against that schema, since today's services write today's columns.
 */
const RELEASE_0_1_0_MIGRATIONS = [
  'Migration20261122000000_initial',
  'Migration20261122010000_clicks',
  'Migration20261122020000_click_groups',
  'Migration20261122100000_denylist',
  'Migration20261122100100_api_key_prefix',
  'Migration20261122110000_click_statistics',
];

const TIMEOUT = 120_000;
const DAY = 86_400_000;
const KEY = `slk_${'R'.repeat(43)}`;
const ACCOUNT = 'acc_Release010Acme01';
const LINK = 'lnk_Release010Price1';

let databaseUrl: string;
let base: string;
let server: ReturnType<typeof startServerProcess> | undefined;
const call = (method: string, route: string, body?: unknown) =>
  fetch(`${base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** GET on the API as the 0.1.0 account, its JSON body. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
const read = async (route: string): Promise<any> => (await call('GET', route)).json();

/** A 0.1.0 database: its migrations, then an account, a key, a tag, live, expired and deleted links, clicks and a denylist entry. */
async function releaseDatabase(url: string): Promise<void> {
  const orm = await createOrm({ databaseUrl: url, poolSize: 2 });
  try {
    // Clicks recorded before the statistics migration are rolled up by it, as 0.1.0's own upgrade did.
    await orm.migrator.up({ to: 'Migration20261122100100_api_key_prefix' });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const hash = createHash('sha256').update(KEY).digest('hex');
      const twoDaysAgo = new Date(Date.now() - 2 * DAY);
      await client.query(`insert into account (id, name, plan) values ($1, 'Acme 0.1', 'team')`, [ACCOUNT]);
      await client.query(`insert into api_key (id, account_id, prefix, secret_hash) values ('key_Release010Key01', $1, $2, $3)`, [
        ACCOUNT,
        KEY.slice(0, 12),
        hash,
      ]);
      await client.query(`insert into tag (id, account_id, name, color) values ('tag_Release010Launch', $1, 'Launch', 'indigo')`, [
        ACCOUNT,
      ]);
      await client.query(
        `insert into link (id, account_id, slug, destination_url, title, external_id, comments, click_count, expires_at, expiration_url, deleted_at) values
           ($2, $1, 'old-pricing', 'https://acme.example.com/pricing?utm_source=news', 'Pricing page', 'crm-9', 'written by 0.1.0', 3, null, null, null),
           ('lnk_Release010Sale01', $1, 'old-sale', 'https://acme.example.com/sale', 'Sale', null, null, 0, $3, 'https://acme.example.com/sale-over', null),
           ('lnk_Release010Gone01', $1, 'old-gone', 'https://acme.example.com/gone', 'Gone', null, null, 0, null, null, $3)`,
        [ACCOUNT, LINK, twoDaysAgo],
      );
      await client.query(`insert into link_tag (link_id, tag_id) values ($1, 'tag_Release010Launch')`, [LINK]);
      await client.query(
        `insert into click (link_id, occurred_at, referrer_host, agent_class, clicks) values ($1, $2, 'news.ycombinator.com', 'desktop', 2), ($1, $3, null, 'mobile', 1)`,
        [LINK, twoDaysAgo, new Date(Date.now() - DAY)],
      );
      await client.query(`insert into denylist_entry (kind, value) values ('domain', 'evil.example')`);
    } finally {
      await client.end();
    }
    await orm.migrator.up({ to: RELEASE_0_1_0_MIGRATIONS.at(-1) });
    expect((await orm.migrator.getExecuted()).map((migration) => migration.name)).toEqual(RELEASE_0_1_0_MIGRATIONS);
  } finally {
    await orm.close();
  }
}

beforeAll(async () => {
  databaseUrl = await createEmptyDatabase();
  await releaseDatabase(databaseUrl);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServerProcess({
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    SHORT_DOMAIN: base,
    CLICK_FLUSH_MS: '100',
  });
  await waitFor(() => isReady(base), 60_000, `the server on the 0.1.0 database (${server.output()})`);
}, TIMEOUT);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server?.child.once('exit', resolve));
  }
});

describe('people arrive on an old database (Migration20261127260000_people)', () => {
  test("0.1.0's account becomes a workspace: its key keeps every right, and the start prints a link for its first owner", {
    timeout: TIMEOUT,
  }, async () => {
    // A key made before people existed has no maker and acts as the workspace's owner. Its workspace has no people yet.
    const owners = await fetch(`${base}/trpc/members.list?input=%7B%7D`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(owners.status).toBe(200);
    expect(((await owners.json()) as { result: { data: unknown } }).result.data).toEqual([]);
    // Nobody can sign in yet, so the start offered a one-time link making the owner of "Acme 0.1".
    await waitFor(() => /\/app\/setup#slp_/.test(server?.output() ?? ''), 10_000, 'the first owner link');
    expect(server?.output()).toMatch(/Create the owner of "Acme 0\.1"/);
  });
});

describe('upgrading from 0.1.0', () => {
  test("the server's start applies every newer migration, and the old data is served as before", { timeout: TIMEOUT }, async () => {
    const orm = await createOrm({ databaseUrl, poolSize: 1 });
    try {
      const executed = (await orm.migrator.getExecuted()).map((migration) => migration.name);
      expect(executed.slice(0, RELEASE_0_1_0_MIGRATIONS.length)).toEqual(RELEASE_0_1_0_MIGRATIONS);
      expect(executed.length).toBeGreaterThan(RELEASE_0_1_0_MIGRATIONS.length);
      expect(await orm.migrator.getPending()).toEqual([]);
    } finally {
      await orm.close();
    }

    const pricing = await fetch(`${base}/old-pricing`, { redirect: 'manual', headers: { 'user-agent': 'curl/8.0' } });
    expect([pricing.status, pricing.headers.get('location')]).toEqual([302, 'https://acme.example.com/pricing?utm_source=news']);
    const sale = await fetch(`${base}/old-sale`, { redirect: 'manual' });
    expect([sale.status, sale.headers.get('location')]).toEqual([302, 'https://acme.example.com/sale-over']);
    expect((await fetch(`${base}/old-gone`, { redirect: 'manual' })).status).toBe(404);

    const link = await read(`/links/${LINK}`);
    expect(link).toMatchObject({
      id: LINK,
      slug: 'old-pricing',
      title: 'Pricing page',
      external_id: 'crm-9',
      comments: 'written by 0.1.0',
      tags: [{ id: 'tag_Release010Launch', name: 'Launch', color: 'indigo' }],
    });
    expect(link.click_count).toBeGreaterThanOrEqual(3);
    // The clicks 0.1.0 recorded are in the statistics (rolled up by its own migration).
    const stats = await read(`/links/${LINK}/stats`);
    expect(stats.totals.clicks).toBeGreaterThanOrEqual(3);
    expect(stats.breakdowns.referrers).toEqual(
      expect.arrayContaining([expect.objectContaining({ value: 'news.ycombinator.com', clicks: 2 })]),
    );
  });

  test('features added since 0.1.0 work on the old data: search, sort, bulk create, export, rate limits per account', {
    timeout: TIMEOUT,
  }, async () => {
    // The search table was filled from the existing links by its migration.
    const found = await read('/links?search=pricing');
    expect(found.links.map((link: { id: string }) => link.id)).toEqual([LINK]);
    const byTitle = await read('/links?sort=title&order=asc');
    expect(byTitle.links.map((link: { slug: string }) => link.slug)).toEqual(['old-pricing', 'old-sale']);

    const bulk = await call('POST', '/links/bulk', {
      links: [
        { title: 'New one', destination_url: 'https://acme.example.com/new-1', tag_names: ['Launch'] },
        { title: 'New two', destination_url: 'https://acme.example.com/new-2' },
      ],
    });
    expect(bulk.status).toBe(201);
    const tagged = await read('/links?tag_ids=tag_Release010Launch');
    expect(tagged.links).toHaveLength(2);

    const exported = await (await call('GET', '/links/export?format=jsonl')).text();
    expect(exported.trim().split('\n')).toHaveLength(4);

    // A visit is counted on top of 0.1.0's clicks, through today's recorder.
    const before = (await read(`/links/${LINK}`)).click_count;
    await fetch(`${base}/old-pricing`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });
    await waitFor(async () => (await read(`/links/${LINK}`)).click_count === before + 1, 10_000, 'the new click');

    // The account's own rate limit (a column added since), set by the operator on the old account.
    const limited = await runCli(['account', 'update', ACCOUNT, '--rate-limit', '2'], { DATABASE_URL: databaseUrl });
    expect(limited.code).toBe(0);
    await waitFor(
      async () => {
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await call('GET', '/tags')).status);
        return statuses.includes(429);
      },
      10_000,
      'the account rate limit',
    );
  });
});

describe('servers starting at once on a new database', () => {
  test('take turns through the schema lock: one applies the migrations, the others find them applied', { timeout: TIMEOUT }, async () => {
    const url = await createEmptyDatabase();
    const orms = await Promise.all([1, 2, 3].map(() => createOrm({ databaseUrl: url, poolSize: 2 })));
    try {
      const applied = await Promise.all(orms.map((orm) => migrate(orm)));
      const all = (await orms[0]?.migrator.getExecuted())?.length;
      expect(all).toBeGreaterThan(RELEASE_0_1_0_MIGRATIONS.length);
      expect(applied.map((names) => names.length).sort()).toEqual([0, 0, all]);
    } finally {
      await Promise.all(orms.map((orm) => orm.close()));
    }
  });
});
