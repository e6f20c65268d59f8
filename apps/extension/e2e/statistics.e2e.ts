import { createClient, type LinkStats, type ShortlinksClient, type StatsQuery } from '@shortlinks/client';
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, type ExtensionBrowser, launchExtensionBrowser, openPopupWindow, screenshotAll } from './browser.ts';
import { startTestPages } from './pages.ts';
import { startTestServer } from './test-server.ts';

/**
 * The statistics views in the real browser, in a zone with a half-hour offset (hour buckets are
 * UTC hours, so they start at hh:30 there): clicks made through real redirects are shown as the
 * API counts them, on the manage page (a link's, a tag's, the account's) and from the popup.
 */
const ZONE = 'Asia/Kolkata';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

let server: TestServer;
let browser: ExtensionBrowser;
let pages: Awaited<ReturnType<typeof startTestPages>>;
let account: TestAccount;
let client: ShortlinksClient;
let manage: Page;
/** The zone the browser reports (and so sends as `tz`). */
let browserZone = ZONE;
const ids: Record<'spring' | 'pricing' | 'quiet' | 'launch', string> = { spring: '', pricing: '', quiet: '', launch: '' };

/** A visit through the real redirect, as a browser makes it. */
async function visit(slug: string, userAgent: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': userAgent, ...headers } });
  expect(response.status).toBe(302);
}

beforeAll(async () => {
  [server, browser, pages] = await Promise.all([
    startTestServer({ countryHeader: 'cf-ipcountry' }),
    launchExtensionBrowser({ timezoneId: ZONE }),
    startTestPages(),
  ]);
  account = await createAccount(server);
  client = createClient({ baseUrl: server.origin, apiKey: account.key });
  ids.launch = (await client.tags.create({ name: 'Launch', color: 'indigo' })).id;
  ids.spring = (
    await client.links.create({
      title: 'Spring launch',
      destination_url: pages.url('shop', '/spring'),
      slug: 'spring',
      tag_ids: [ids.launch],
    })
  ).id;
  ids.pricing = (await client.links.create({ title: 'Pricing', destination_url: 'https://example.org/pricing', slug: 'pricing' })).id;
  ids.quiet = (await client.links.create({ title: 'Quiet page', destination_url: 'https://example.org/quiet', slug: 'quiet' })).id;

  for (let i = 0; i < 3; i++) await visit('spring', IPHONE, { referer: 'https://news.example.org/item?id=7', 'cf-ipcountry': 'DE' });
  for (let i = 0; i < 2; i++) await visit('spring', ANDROID, { referer: 'https://t.co/xyz', 'cf-ipcountry': 'FR' });
  await visit('spring', FIREFOX);
  for (let i = 0; i < 2; i++) await visit('pricing', FIREFOX, { referer: 'https://news.example.org/', 'cf-ipcountry': 'US' });
  await server.services.clicks.flush();

  await configure(browser, server.origin, account.key);
  manage = await browser.context.newPage();
  await manage.goto(browser.url('tabs/manage.html'));
});
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(browser.context, `statistics-${task.name}`));
});

/** The query of the next statistics request `page` sends (tRPC sends it as the `input` parameter). */
async function nextStatsQuery(page: Page, procedure: 'stats.link' | 'stats.tag' | 'stats.account', action: () => Promise<void>) {
  const [request] = await Promise.all([page.waitForRequest((request) => request.url().includes(`/trpc/${procedure}?`)), action()]);
  const input = JSON.parse(new URL(request.url()).searchParams.get('input') ?? '{}');
  const { id: _id, ...query } = input;
  return query as StatsQuery & { start: number; end: number; interval: 'hour' | 'day'; tz: string };
}

/** What the page shows: totals, one breakdown's rows, and the table alternative's rows. */
const shown = {
  total: (page: Page) => page.getByTestId('total-clicks').textContent(),
  visitors: (page: Page) => page.getByTestId('total-visitors').textContent(),
  breakdown: (page: Page, name: string) =>
    page
      .getByTestId(`breakdown-${name}`)
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.textContent)),
  table: (page: Page) =>
    page
      .getByTestId('series-table')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''))),
};

/** The table's numbers as the series has them (the browser's locale here is en-US). */
const tableNumbers = (stats: LinkStats) =>
  stats.series.map((bucket) => [bucket.clicks.toLocaleString('en-US'), bucket.unique_visitors.toLocaleString('en-US')]);

describe('statistics', () => {
  test('a link’s statistics open from its row on the manage page, and show what the API counts', async () => {
    // Chromium's ICU still calls India's zone by its former name.
    browserZone = await manage.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(browserZone);
    const row = manage.locator('[data-slug="spring"]');
    const query = await nextStatsQuery(manage, 'stats.link', () => row.getByRole('link', { name: 'Statistics of Spring launch' }).click());
    expect(manage.url()).toBe(browser.url(`tabs/manage.html#/links/${ids.spring}`));
    // The default: 30 days by day, in the browser's zone.
    expect(query).toMatchObject({ interval: 'day', tz: browserZone });
    const expected = await client.stats.link(ids.spring, query);
    expect(expected.totals).toEqual({ clicks: 6, unique_visitors: 3 });

    await expect.poll(() => shown.total(manage)).toBe('6');
    expect(await shown.visitors(manage)).toBe('3');
    expect(await manage.getByRole('heading', { name: 'Spring launch' }).count()).toBe(1);
    expect(expected.breakdowns.countries).toEqual([
      { value: 'DE', clicks: 3 },
      { value: 'FR', clicks: 2 },
      { value: null, clicks: 1 },
    ]);
    expect(await shown.breakdown(manage, 'countries')).toEqual(['Germany3 clicks', 'France2 clicks', 'Unknown1 click']);
    expect(await shown.breakdown(manage, 'referrers')).toEqual(['news.example.org3 clicks', 't.co2 clicks', 'Direct / none1 click']);
    expect(await shown.breakdown(manage, 'devices')).toEqual(['Mobile5 clicks', 'Desktop1 click']);

    // The chart is drawn (uPlot's canvas), and pointing at the day of the visits reads out its
    // bucket: today's, unless the browser's day turned (midnight in its zone) since the visits.
    expect(await manage.getByTestId('clicks-chart').locator('canvas').count()).toBe(1);
    const plot = await manage.getByTestId('clicks-chart').locator('.u-over').boundingBox();
    if (!plot) throw new Error('the chart has no plotting area');
    const visited = expected.series.findLastIndex((bucket) => bucket.clicks > 0);
    expect(expected.series[visited]?.clicks).toBe(6);
    const last = expected.series.length - 1;
    // Days are evenly spaced across the plotting area, the last at its right edge.
    const x = visited === last ? plot.width - 2 : (plot.width * visited) / last;
    await manage.mouse.move(plot.x + x, plot.y + plot.height / 2);
    await expect.poll(() => manage.getByTestId('chart-readout').textContent()).toMatch(/: 6 clicks, 3 unique visitors$/);
    await manage.mouse.move(0, 0);

    // The table alternative: one row per bucket of the API's series, the same numbers.
    await manage.getByRole('button', { name: 'Show as table' }).click();
    await manage.getByTestId('series-table').waitFor({ state: 'visible' });
    const table = await shown.table(manage);
    expect(table.map((cells) => cells.slice(1))).toEqual(tableNumbers(expected));
    expect(table).toHaveLength(expected.series.length);
  });

  test('by the hour, buckets are UTC hours labelled in local time (hh:30 in India)', async () => {
    const query = await nextStatsQuery(manage, 'stats.link', () => manage.getByLabel('24 hours').check());
    expect(query).toMatchObject({ interval: 'hour', tz: browserZone });
    const expected = await client.stats.link(ids.spring, query);
    await expect.poll(async () => (await shown.table(manage)).length).toBe(expected.series.length);
    const table = await shown.table(manage);
    expect(table.map((cells) => cells.slice(1))).toEqual(tableNumbers(expected));
    expect(table.filter(([label]) => !/\b\d\d:30\b/.test(label ?? ''))).toEqual([]);
    const localTime = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' });
    const busiest = expected.series.findIndex((bucket) => bucket.clicks > 0);
    expect(table[busiest]?.[0]).toContain(localTime.format(expected.series[busiest]?.start));

    await manage.getByRole('link', { name: '← All links' }).click();
    await manage.locator('[data-slug="spring"]').waitFor();
    expect(manage.url()).toBe(browser.url('tabs/manage.html#/links'));
  });

  test('the account overview shows the account’s totals and top links, which open a link’s statistics', async () => {
    const query = await nextStatsQuery(manage, 'stats.account', () => manage.getByRole('tab', { name: 'Overview' }).click());
    expect(manage.url()).toBe(browser.url('tabs/manage.html#/overview'));
    const expected = await client.stats.account(query);
    expect(expected.totals.clicks).toBe(8);
    await expect.poll(() => shown.total(manage)).toBe('8');
    expect(await shown.visitors(manage)).toBe(String(expected.totals.unique_visitors));
    expect(await shown.breakdown(manage, 'top-links')).toEqual(['Spring launchsho.rt/spring6 clicks', 'Pricingsho.rt/pricing2 clicks']);
    expect(await shown.breakdown(manage, 'referrers')).toEqual(['news.example.org5 clicks', 't.co2 clicks', 'Direct / none1 click']);

    await manage.getByRole('button', { name: /^Spring launch/ }).click();
    await manage.waitForURL(browser.url(`tabs/manage.html#/links/${ids.spring}`));
    await expect.poll(() => shown.total(manage)).toBe('6');
    // Back returns to the overview.
    await manage.goBack();
    await expect.poll(() => manage.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
  });

  test('a tag’s statistics open from the tag manager', async () => {
    await manage.getByRole('tab', { name: 'Tags' }).click();
    const query = await nextStatsQuery(manage, 'stats.tag', () => manage.getByRole('link', { name: 'Statistics of Launch' }).click());
    const expected = await client.stats.tag(ids.launch, query);
    expect(expected.totals.clicks).toBe(6);
    await expect.poll(() => shown.total(manage)).toBe('6');
    expect(await shown.breakdown(manage, 'top-links')).toEqual(['Spring launchsho.rt/spring6 clicks']);
  });

  test('a link without clicks says so, and a custom range longer than 31 days asked by the hour is shown by day', async () => {
    await manage.goto(browser.url(`tabs/manage.html#/links/${ids.quiet}`));
    await expect.poll(() => manage.getByText('No clicks in this range.', { exact: false }).count()).toBe(1);
    await manage.getByLabel('24 hours').check();
    await manage.getByLabel('Custom').check();
    const today = new Date();
    const from = new Date(today.getTime() - 40 * 86_400_000).toLocaleDateString('en-CA', { timeZone: ZONE });
    await manage.getByLabel('From').fill(from);
    const query = await nextStatsQuery(manage, 'stats.link', () => manage.getByRole('button', { name: 'Apply' }).click());
    expect(query.interval).toBe('day');
    expect(new Date(query.start).toLocaleString('en-CA', { timeZone: ZONE, hour12: false })).toMatch(
      new RegExp(`^${from}, (00|24):00:00$`),
    );
    await expect.poll(() => manage.getByText('Shown by day: hours are available for ranges up to 31 days.').count()).toBe(1);
  });

  test('the popup’s Statistics opens the manage page at the link’s statistics', async () => {
    const page = await browser.context.newPage();
    await page.goto(pages.url('shop', '/spring'));
    await page.bringToFront();
    const popup = await openPopupWindow(browser);
    await popup.getByTestId('short-url').waitFor();
    expect(await popup.getByTestId('short-url').textContent()).toBe('https://sho.rt/spring');
    const [opened] = await Promise.all([browser.context.waitForEvent('page'), popup.getByRole('link', { name: 'Statistics' }).click()]);
    await opened.waitForLoadState('domcontentloaded');
    expect(opened.url()).toBe(browser.url(`tabs/manage.html#/links/${ids.spring}`));
    await expect.poll(() => shown.total(opened)).toBe('6');
    await popup.close();
    await page.close();
  });
});

test('no extension page threw or logged an error in any scenario', () => {
  expect(browser.pageErrors).toEqual([]);
});
