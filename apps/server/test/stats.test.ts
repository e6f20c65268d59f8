import { type ClickEvent, ClickRecorder, type VisitorAgent } from '@shortlinks/api/redirects';
import { createClient } from '@shortlinks/client';
import { createOrm } from '@shortlinks/db';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, createTestDatabase, getLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const DESKTOP_CHROME: VisitorAgent = { device: 'desktop', browser: 'Chrome', os: 'Windows' };
const PHONE_SAFARI: VisitorAgent = { device: 'mobile', browser: 'Safari', os: 'iOS' };

const at = (day: number, hour: number, minute = 0, second = 0) => Date.UTC(2026, 9, day, hour, minute, second);

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ countryHeader: 'cf-ipcountry' });
  alice = await createAccount(server);
  bob = await createAccount(server);
});
afterAll(() => server.close());

/** A click recorded as the redirect records it, at a chosen time; `visitor` stands for an IP address. */
function click(linkId: string, when: number, visitor: string, extra: Partial<ClickEvent> = {}) {
  server.services.clicks.record({
    linkId,
    at: when,
    referrerHost: null,
    agent: DESKTOP_CHROME,
    country: null,
    clientIp: visitor,
    userAgent: BROWSER,
    ...extra,
  });
}

const query = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;

describe('clicks through the redirect', () => {
  test('GET /links/{id}/stats: device, browser, OS, referrer host and country of real visits; bots not counted', async () => {
    const link = await createLink(alice, { slug: 'stats-web' });
    const visit = (headers: Record<string, string>) => fetch(`${server.origin}/stats-web`, { redirect: 'manual', headers });
    for (let i = 0; i < 3; i++) await visit({ 'user-agent': PHONE, referer: 'https://News.Example.org/item?id=7', 'cf-ipcountry': 'DE' });
    for (let i = 0; i < 2; i++) await visit({ 'user-agent': BROWSER, 'cf-ipcountry': 'XX' });
    await visit({ 'user-agent': GOOGLEBOT, 'cf-ipcountry': 'US' });
    await server.services.clicks.flush();

    const response = await alice.call('GET', `/links/${link.id}/stats`);
    expect(response.status).toBe(200);
    const stats = response.body;
    // Two visitors: one IP (loopback) with two User-Agents.
    expect(stats.totals).toEqual({ clicks: 5, unique_visitors: 2 });
    expect((await getLink(alice, link.id)).click_count).toBe(5);
    expect(stats.interval).toBe('day');
    expect(stats.tz).toBe('UTC');
    // Default: the 30 days before now, rounded out to whole UTC days.
    expect(stats.series).toHaveLength(31);
    expect(stats.series.at(-1)).toMatchObject({ clicks: 5, unique_visitors: 2 });
    expect(stats.breakdowns).toMatchObject({
      referrers: [
        { value: 'news.example.org', clicks: 3 },
        { value: null, clicks: 2 },
      ],
      devices: [
        { value: 'mobile', clicks: 3 },
        { value: 'desktop', clicks: 2 },
      ],
      browsers: [
        { value: 'Safari', clicks: 3 },
        { value: 'Chrome', clicks: 2 },
      ],
      operating_systems: [
        { value: 'iOS', clicks: 3 },
        { value: 'Windows', clicks: 2 },
      ],
      countries: [
        { value: 'DE', clicks: 3 },
        { value: null, clicks: 2 },
      ],
    });
    expect(stats).not.toHaveProperty('top_links');
  });

  test('raw click events keep a daily visitor hash, never the IP address', async () => {
    const rows = await server.orm.em.fork().getConnection().execute(`select * from click where visitor is not null`);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('127.0.0.1');
  });
});

describe('statistics of a known set of clicks (October 2026)', () => {
  let a: { id: string; external_id: string };
  let b: { id: string };
  let untagged: { id: string };
  let deleted: { id: string };
  let tag: { id: string };

  beforeAll(async () => {
    tag = (await bob.call('POST', '/tags', { name: 'Campaign' })).body;
    a = await createLink(bob, { title: 'Alpha', slug: 'alpha', tag_ids: [tag.id], external_id: 'crm-a' });
    b = await createLink(bob, { title: 'Beta', slug: 'beta', tag_ids: [tag.id] });
    untagged = await createLink(bob, { title: 'Gamma', slug: 'gamma' });
    deleted = await createLink(bob, { title: 'Delta', slug: 'delta', tag_ids: [tag.id] });

    const fr = { country: 'FR', referrerHost: 'news.example.org' };
    click(a.id, at(1, 10, 15), 'v1', fr);
    click(a.id, at(1, 10, 15, 30), 'v1', fr);
    click(a.id, at(1, 23, 40), 'v2', { country: 'US', agent: PHONE_SAFARI, userAgent: PHONE });
    click(a.id, at(2, 0, 10), 'v1', fr); // a new UTC day: v1 counts again
    click(a.id, at(2, 18, 45), 'v3', { country: 'US' });
    click(b.id, at(1, 12), 'v1', { country: 'US' });
    click(b.id, at(3, 5), 'v4', { country: 'US', agent: PHONE_SAFARI, userAgent: PHONE });
    click(untagged.id, at(1, 9), 'v5');
    click(deleted.id, at(1, 9), 'v6', { country: 'DE' });
    await server.services.clicks.flush();
    expect((await bob.call('DELETE', `/links/${deleted.id}`)).status).toBe(204);
  });

  test('a link: daily series with empty days as 0, totals, uniques once per UTC day', async () => {
    const response = await bob.call('GET', `/links/${a.id}/stats${query({ start: at(1, 0), end: at(4, 0) })}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      start: at(1, 0),
      end: at(4, 0),
      interval: 'day',
      tz: 'UTC',
      totals: { clicks: 5, unique_visitors: 4 },
      series: [
        { start: at(1, 0), clicks: 3, unique_visitors: 2 },
        { start: at(2, 0), clicks: 2, unique_visitors: 2 },
        { start: at(3, 0), clicks: 0, unique_visitors: 0 },
      ],
    });
    expect(response.body.breakdowns).toEqual({
      start: at(1, 0),
      end: at(4, 0),
      referrers: [
        { value: 'news.example.org', clicks: 3 },
        { value: null, clicks: 2 },
      ],
      devices: [
        { value: 'desktop', clicks: 4 },
        { value: 'mobile', clicks: 1 },
      ],
      browsers: [
        { value: 'Chrome', clicks: 4 },
        { value: 'Safari', clicks: 1 },
      ],
      operating_systems: [
        { value: 'Windows', clicks: 4 },
        { value: 'iOS', clicks: 1 },
      ],
      countries: [
        { value: 'FR', clicks: 3 },
        { value: 'US', clicks: 2 },
      ],
      // Recorded without an address the IP database knows, and not from a QR code (geo-statistics.test.ts, qr-codes.test.ts).
      cities: [{ value: null, country: null, clicks: 5 }],
      triggers: [{ value: 'link', clicks: 5 }],
    });
  });

  test('the same link by ext_ id; hourly buckets; the range is rounded out to whole buckets', async () => {
    const response = await bob.call('GET', `/links/ext_crm-a/stats${query({ start: at(1, 10, 30), end: at(1, 12, 1), interval: 'hour' })}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      start: at(1, 10),
      end: at(1, 13),
      interval: 'hour',
      totals: { clicks: 2, unique_visitors: 1 },
      series: [
        { start: at(1, 10), clicks: 2, unique_visitors: 1 },
        { start: at(1, 11), clicks: 0, unique_visitors: 0 },
        { start: at(1, 12), clicks: 0, unique_visitors: 0 },
      ],
    });
    // Breakdowns count the whole UTC day.
    expect(response.body.breakdowns).toMatchObject({
      start: at(1, 0),
      end: at(2, 0),
      devices: [
        { value: 'desktop', clicks: 2 },
        { value: 'mobile', clicks: 1 },
      ],
    });
  });

  test('tz: day buckets start at local midnight (America/New_York, UTC−4 in October)', async () => {
    const response = await bob.call('GET', `/links/${a.id}/stats${query({ start: at(1, 4), end: at(3, 4), tz: 'America/New_York' })}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      start: at(1, 4),
      end: at(3, 4),
      tz: 'America/New_York',
      // Oct 1 local: 10:15Z ×2, 23:40Z, 00:10Z (Oct 2 UTC: v1's second UTC day). Oct 2 local: 18:45Z.
      series: [
        { start: at(1, 4), clicks: 4, unique_visitors: 3 },
        { start: at(2, 4), clicks: 1, unique_visitors: 1 },
      ],
      totals: { clicks: 5, unique_visitors: 4 },
    });
  });

  test('tz with a half-hour offset (Asia/Kolkata): a day holds the hours that start within it', async () => {
    const response = await bob.call(
      'GET',
      `/links/${a.id}/stats${query({ start: at(1, 18, 30), end: at(2, 18, 30), tz: 'asia/kolkata' })}`,
    );
    expect(response.status).toBe(200);
    // Oct 2 local is 18:30Z Oct 1 – 18:30Z Oct 2; its hours are 19:00Z Oct 1 – 19:00Z Oct 2, so the
    // click at 18:45Z Oct 2 (00:15 Oct 3 local) is in it, and 23:40Z and 00:10Z too.
    expect(response.body).toMatchObject({
      tz: 'Asia/Kolkata',
      start: at(1, 18, 30),
      end: at(2, 18, 30),
      series: [{ start: at(1, 18, 30), clicks: 3, unique_visitors: 3 }],
    });
  });

  test('a tag: only the live links carrying it; top links', async () => {
    const response = await bob.call('GET', `/tags/${tag.id}/stats${query({ start: at(1, 0), end: at(4, 0) })}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      totals: { clicks: 7, unique_visitors: 6 },
      series: [
        { start: at(1, 0), clicks: 4, unique_visitors: 3 },
        { start: at(2, 0), clicks: 2, unique_visitors: 2 },
        { start: at(3, 0), clicks: 1, unique_visitors: 1 },
      ],
      top_links: [
        { id: a.id, slug: 'alpha', short_url: 'https://sho.rt/alpha', title: 'Alpha', clicks: 5 },
        { id: b.id, slug: 'beta', short_url: 'https://sho.rt/beta', title: 'Beta', clicks: 2 },
      ],
    });
    expect(response.body.breakdowns.countries).toEqual([
      { value: 'US', clicks: 4 },
      { value: 'FR', clicks: 3 },
    ]);
  });

  test('the account: every click, deleted links included; top links are live ones; top limits each list', async () => {
    const response = await bob.call('GET', `/stats${query({ start: at(1, 0), end: at(4, 0), top: 2 })}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      totals: { clicks: 9, unique_visitors: 8 },
      series: [
        { start: at(1, 0), clicks: 6, unique_visitors: 5 },
        { start: at(2, 0), clicks: 2, unique_visitors: 2 },
        { start: at(3, 0), clicks: 1, unique_visitors: 1 },
      ],
      top_links: [
        { id: a.id, clicks: 5 },
        { id: b.id, clicks: 2 },
      ],
    });
    expect(response.body.breakdowns.countries).toEqual([
      { value: 'US', clicks: 4 },
      { value: 'FR', clicks: 3 },
    ]);
    expect(response.body.breakdowns.devices).toEqual([
      { value: 'desktop', clicks: 7 },
      { value: 'mobile', clicks: 2 },
    ]);
    // Over whole weeks (Monday 28 September to Sunday 11 October, and Monday the 12th) the same top links.
    const weeks = await bob.call('GET', `/stats${query({ start: Date.UTC(2026, 8, 28), end: at(13, 0), top: 3 })}`);
    expect(weeks.body.totals.clicks).toBe(9);
    expect(weeks.body.top_links.map((link: { id: string; clicks: number }) => [link.id, link.clicks])).toEqual([
      [a.id, 5],
      [b.id, 2],
      [untagged.id, 1],
    ]);
  });

  test('click_count of every link equals the sum of its rollups', async () => {
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute(`
        select link.id, link.click_count::int as click_count,
          (select coalesce(sum(clicks), 0)::int from click_hourly where link_id = link.id) as hourly,
          (select coalesce(sum(clicks), 0)::int from click_daily_dimension where link_id = link.id and dimension = 'device') as daily
        from link`);
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect(row, row.id).toMatchObject({ hourly: row.click_count, daily: row.click_count });
  });

  test('the typed client reads the same statistics over tRPC', async () => {
    const client = createClient({ baseUrl: server.origin, apiKey: bob.key });
    const stats = await client.stats.link(a.id, { start: at(1, 0), end: at(4, 0) });
    expect(stats.totals).toEqual({ clicks: 5, unique_visitors: 4 });
    const tagStats = await client.stats.tag(tag.id, { start: at(1, 0), end: at(4, 0), interval: 'day', tz: 'UTC' });
    expect(tagStats.top_links.map((link) => link.id)).toEqual([a.id, b.id]);
    expect((await client.stats.account({ start: at(1, 0), end: at(2, 0) })).totals.clicks).toBe(6);
  });

  test("another account's link or tag is 404, and a deleted link too", async () => {
    expect(await alice.call('GET', `/links/${a.id}/stats`)).toMatchObject({ status: 404, body: { code: 'LINK_NOT_FOUND' } });
    expect(await alice.call('GET', `/tags/${tag.id}/stats`)).toMatchObject({ status: 404, body: { code: 'TAG_NOT_FOUND' } });
    expect(await bob.call('GET', `/links/${deleted.id}/stats`)).toMatchObject({ status: 404, body: { code: 'LINK_NOT_FOUND' } });
    // Alice's own account statistics hold none of Bob's clicks.
    expect((await alice.call('GET', `/stats${query({ start: at(1, 0), end: at(4, 0) })}`)).body.totals).toEqual({
      clicks: 0,
      unique_visitors: 0,
    });
  });

  test('a tag follows its links: tagging, untagging and late clicks show at once (closed days are cached)', async () => {
    const tagStats = async () => (await bob.call('GET', `/tags/${tag.id}/stats${query({ start: at(1, 0), end: at(4, 0) })}`)).body;
    expect((await tagStats()).totals.clicks).toBe(7);
    // Gamma joins the tag: its past click counts for the tag.
    expect((await bob.call('PATCH', `/links/${untagged.id}`, { tag_ids: [tag.id] })).status).toBe(200);
    expect((await tagStats()).totals.clicks).toBe(8);
    expect((await tagStats()).top_links.map((link: { id: string }) => link.id)).toEqual([a.id, b.id, untagged.id]);
    // And leaves it again.
    expect((await bob.call('PATCH', `/links/${untagged.id}`, { tag_ids: [] })).status).toBe(200);
    expect((await tagStats()).totals.clicks).toBe(7);
    // A click on a long-closed day (flushed late, as after a database outage) is counted too.
    click(b.id, at(2, 12), 'v9', { country: 'US' });
    await server.services.clicks.flush();
    const after = await tagStats();
    expect(after.totals).toEqual({ clicks: 8, unique_visitors: 7 });
    expect(after.series[1]).toEqual({ start: at(2, 0), clicks: 3, unique_visitors: 3 });
    expect(after.breakdowns.countries).toEqual([
      { value: 'US', clicks: 5 },
      { value: 'FR', clicks: 3 },
    ]);
  });
});

describe('tag breakdowns over closed days and today', () => {
  test('one value seen on a cached closed day and today is one entry; ties are ranked by value', async () => {
    const merged = (await bob.call('POST', '/tags', { name: 'Merged' })).body;
    const first = await createLink(bob, { title: 'First', tag_ids: [merged.id] });
    const second = await createLink(bob, { title: 'Second', tag_ids: [merged.id] });
    const now = Date.now();
    const twoDaysAgo = now - 2 * 86_400_000;
    click(first.id, twoDaysAgo, 'm1', { country: 'US', referrerHost: 'b.example' });
    click(second.id, now, 'm2', { country: 'US', referrerHost: 'a.example' });
    click(first.id, now, 'm3', { country: 'FR', referrerHost: 'c.example' });
    click(second.id, now, 'm4', { country: 'DE', referrerHost: null });
    await server.services.clicks.flush();

    const stats = async () => (await bob.call('GET', `/tags/${merged.id}/stats${query({ start: now - 3 * 86_400_000 })}`)).body;
    // Twice: the first request fills the cached sums of the closed days, the second reads them.
    for (const body of [await stats(), await stats()]) {
      expect(body.totals.clicks).toBe(4);
      expect(body.breakdowns.countries).toEqual([
        { value: 'US', clicks: 2 },
        { value: 'DE', clicks: 1 },
        { value: 'FR', clicks: 1 },
      ]);
      expect(body.breakdowns.referrers.map((entry: { value: string | null }) => entry.value)).toEqual([
        null,
        'a.example',
        'b.example',
        'c.example',
      ]);
    }
  });
});

describe('range validation', () => {
  const now = Date.now();
  test.each([
    ['start equal to end', { start: now, end: now }, 'end'],
    ['start after end', { start: now, end: now - 1 }, 'end'],
    ['start in the future without end', { start: now + 86_400_000 }, 'end'],
    ['an hourly range over 31 days', { start: now - 32 * 86_400_000, interval: 'hour' }, 'start'],
    ['a daily range over 400 days', { start: now - 401 * 86_400_000 }, 'start'],
    ['an unknown interval', { interval: 'week' }, 'interval'],
    ['start that is not a number', { start: 'yesterday' }, 'start'],
    ['an unknown time zone', { tz: 'Mars/Olympus_Mons' }, 'tz'],
    ['an offset instead of a zone', { tz: '+05:30' }, 'tz'],
    ['top over 100', { top: 101 }, 'top'],
    ['an unknown parameter', { from: now }, 'from'],
  ] as const)('%s: 422 VALIDATION_ERROR naming %j', async (_name, params, field) => {
    for (const path of ['/stats', `/links/lnk_nothing/stats`, '/tags/tag_nothing/stats']) {
      const response = await alice.call('GET', `${path}${query(params)}`);
      expect(response.status, path).toBe(422);
      expect(response.body, path).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
  });

  test('empty query values count as not sent: the defaults apply', async () => {
    const response = await alice.call('GET', '/stats?start=&end=&tz=&interval=&top=');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ interval: 'day', tz: 'UTC' });
    expect(response.body.series).toHaveLength(31);
  });

  test('without credentials: 401', async () => {
    const response = await fetch(`${server.api}/stats`);
    expect(response.status).toBe(401);
  });
});

describe('retention', () => {
  test('raw events past CLICK_RETENTION_DAYS are deleted, their rollups and click_count stay; old salts go', async () => {
    const link = await createLink(alice, { slug: 'old-clicks' });
    const recorder = new ClickRecorder(server.orm, { retentionDays: 5 });
    const tenDaysAgo = Date.now() - 10 * 86_400_000;
    for (const visitor of ['r1', 'r2', 'r3']) {
      recorder.record({
        linkId: link.id,
        at: tenDaysAgo,
        referrerHost: null,
        agent: DESKTOP_CHROME,
        country: null,
        clientIp: visitor,
        userAgent: BROWSER,
      });
    }
    recorder.record({
      linkId: link.id,
      at: Date.now(),
      referrerHost: null,
      agent: DESKTOP_CHROME,
      country: null,
      clientIp: 'r1',
      userAgent: BROWSER,
    });
    await recorder.stop(); // writes, then does the housekeeping

    const db = server.orm.em.fork().getConnection();
    expect(await db.execute('select sum(clicks)::int as n from click where link_id = ?', [link.id])).toEqual([{ n: 1 }]);
    expect(
      await db.execute('select sum(clicks)::int as n, sum(visitors)::int as v from click_hourly where link_id = ?', [link.id]),
    ).toEqual([{ n: 4, v: 4 }]);
    expect((await getLink(alice, link.id)).click_count).toBe(4);
    // Only today's and yesterday's salts (and tomorrow's, made ahead) are kept.
    const [salts] = await db.execute(`select min(day)::text as oldest, count(*)::int as days from visitor_salt`);
    expect(String(salts?.oldest) >= new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)).toBe(true);
    expect(salts?.days).toBeLessThanOrEqual(3);
  });
});

describe('the statistics migration', () => {
  test('rolls up clicks recorded before it, so click_count equals the rollups from the start', async () => {
    const orm = await createOrm({ databaseUrl: await createTestDatabase(), poolSize: 2 });
    try {
      await orm.migrator.down({ to: 'Migration20261122020000_click_groups' });
      const db = orm.em.fork().getConnection();
      await db.execute(`
        insert into account (id, name, plan) values ('acc_m', 'M', 'starter');
        insert into link (id, account_id, slug, destination_url, title, click_count) values ('lnk_m', 'acc_m', 'm', 'https://example.com', 'M', 5);
        insert into click (link_id, occurred_at, referrer_host, agent_class, clicks) values
          ('lnk_m', '2026-10-01 10:15:00+00', 'news.example.org', 'desktop', 3),
          ('lnk_m', '2026-10-02 08:00:00+00', null, 'mobile', 2);`);
      await orm.migrator.up();
      expect(
        await db.execute(`select (extract(epoch from hour) * 1000)::int8::text as hour, clicks, visitors from click_hourly order by 1`),
      ).toEqual([
        { hour: String(at(1, 10)), clicks: 3, visitors: 0 },
        { hour: String(at(2, 8)), clicks: 2, visitors: 0 },
      ]);
      expect(await db.execute(`select sum(clicks)::int as n from account_click_hourly`)).toEqual([{ n: 5 }]);
      expect(
        await db.execute(`select value, sum(clicks)::int as n from click_daily_dimension where dimension = 'device' group by 1 order by 1`),
      ).toEqual([
        { value: 'desktop', n: 3 },
        { value: 'mobile', n: 2 },
      ]);
      expect(await db.execute(`select link_id, clicks from account_click_weekly_link`)).toEqual([{ link_id: 'lnk_m', clicks: 5 }]);
    } finally {
      await orm.close();
    }
  });
});
