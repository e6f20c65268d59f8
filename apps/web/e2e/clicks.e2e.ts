import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { startDestinations } from './destinations.ts';
import { startTestServer } from './test-server.ts';

/** Headless Chromium names itself HeadlessChrome, which the server rightly counts as a bot. */
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: TestServer;
let browser: DashboardBrowser;
let destinations: Awaited<ReturnType<typeof startDestinations>>;
let account: TestAccount;
let context: BrowserContext;
let watch: PageWatch;
let page: Page;
let launch: { id: string; slug: string };
let quiet: { id: string; slug: string };
let tagId: string;

beforeAll(async () => {
  [server, browser, destinations] = await Promise.all([
    startTestServer({ countryHeader: 'cf-ipcountry' }),
    launchDashboardBrowser(),
    startDestinations(),
  ]);
  account = await createAccount(server);
  const tag = (await account.call('POST', '/tags', { name: 'Campaign', color: 'cyan' })).body;
  tagId = tag.id;
  launch = (
    await account.call('POST', '/links', {
      title: 'Spring launch',
      destination_url: destinations.url('shop', '/spring'),
      slug: 'spring',
      tag_ids: [tag.id],
    })
  ).body;
  quiet = (
    await account.call('POST', '/links', { title: 'Quiet page', destination_url: destinations.url('docs', '/quiet'), slug: 'quiet' })
  ).body;

  // Visitors follow the short link in real browsers, through the server's real redirect: three on a
  // desktop in Germany coming from a newsletter, two on a phone in Japan with no referrer (the
  // country as a trusted proxy in front would name it).
  for (const [userAgent, referer, country, times] of [
    [DESKTOP, 'https://news.example.com/issue-12', 'DE', 3],
    [PHONE, undefined, 'JP', 2],
  ] as const) {
    const visitor = await browser.browser.newContext({ userAgent, extraHTTPHeaders: { 'cf-ipcountry': country } });
    const tab = await visitor.newPage();
    for (let i = 0; i < times; i++) {
      const response = await tab.goto(`${server.origin}/spring`, referer ? { referer } : {});
      expect(response?.url()).toBe(destinations.url('shop', '/spring'));
      expect(await tab.title()).toBe('Arrived at /spring');
    }
    await visitor.close();
  }
  // (Chromium also asks each destination for its favicon.)
  expect(destinations.visits.filter((visit) => visit.endsWith('/spring'))).toHaveLength(5);
  await server.services.clicks.flush();

  ({ context, watch } = await browser.newContext());
  page = await context.newPage();
  await signInWith(page, server.origin, account.key);
});
afterAll(async () => {
  await browser?.close();
  await destinations?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(context, `clicks-${task.name}`));
});

/** What the statistics view shows: totals, one breakdown's rows, the table alternative's rows. */
const shown = {
  total: () => page.getByTestId('total-clicks').textContent(),
  visitors: () => page.getByTestId('total-visitors').textContent(),
  breakdown: (name: string) =>
    page
      .getByTestId(`breakdown-${name}`)
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.textContent)),
  table: () =>
    page
      .getByTestId('series-table')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''))),
};

/** The query of the next statistics request the page sends (tRPC sends it as the `input` parameter). */
async function nextStatsQuery(procedure: 'stats.link' | 'stats.tag' | 'stats.account', action: () => Promise<unknown>) {
  const [request] = await Promise.all([page.waitForRequest((request) => request.url().includes(`/trpc/${procedure}?`)), action()]);
  const { id: _id, ...query } = JSON.parse(new URL(request.url()).searchParams.get('input') ?? '{}');
  return new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
}

describe('clicks of visits through real redirects', () => {
  test('the list shows each link’s clicks as the API counts them', async () => {
    const listed = (await account.call('GET', '/links')).body.links as { slug: string; click_count: number }[];
    expect(listed.find((link) => link.slug === 'spring')?.click_count).toBe(5);
    for (const { slug, click_count } of listed) {
      await expect.poll(() => page.locator(`[data-slug="${slug}"] .clicks strong`).textContent()).toBe(String(click_count));
    }
  });

  test('a link’s statistics: the chart, its table and the breakdowns show what the API counts', async () => {
    const query = await nextStatsQuery('stats.link', () => page.getByRole('link', { name: 'Statistics of Spring launch' }).click());
    expect(page.url()).toBe(`${server.origin}/app/links/${launch.id}`);
    const expected = (await account.call('GET', `/links/${launch.id}/stats?${query}`)).body;
    expect(expected.totals).toEqual({ clicks: 5, unique_visitors: 2 });
    await expect.poll(shown.total).toBe('5');
    expect(await shown.visitors()).toBe('2');
    await expect.poll(() => page.title()).toBe('Spring launch · Statistics · Shortlinks');

    expect(expected.breakdowns.devices).toEqual([
      { value: 'desktop', clicks: 3 },
      { value: 'mobile', clicks: 2 },
    ]);
    expect(await shown.breakdown('devices')).toEqual(['Desktop3 clicks', 'Mobile2 clicks']);
    expect(expected.breakdowns.referrers).toEqual([
      { value: 'news.example.com', clicks: 3 },
      { value: null, clicks: 2 },
    ]);
    expect(await shown.breakdown('referrers')).toEqual(['news.example.com3 clicks', 'Direct / none2 clicks']);
    // Countries by name, in the reader's language (the browser's: English here).
    expect(expected.breakdowns.countries).toEqual([
      { value: 'DE', clicks: 3 },
      { value: 'JP', clicks: 2 },
    ]);
    expect(await shown.breakdown('countries')).toEqual(['Germany3 clicks', 'Japan2 clicks']);
    const asShown = ({ value, clicks }: { value: string; clicks: number }) => `${value}${clicks} ${clicks === 1 ? 'click' : 'clicks'}`;
    expect(expected.breakdowns.browsers.length).toBeGreaterThan(0);
    expect(await shown.breakdown('browsers')).toEqual(expected.breakdowns.browsers.map(asShown));
    expect(expected.breakdowns.operating_systems).toEqual([
      { value: 'Linux', clicks: 3 },
      { value: 'iOS', clicks: 2 },
    ]);
    expect(await shown.breakdown('operating_systems')).toEqual(expected.breakdowns.operating_systems.map(asShown));

    // Drawn with the analytics styles (a bundler that drops a side-effect-free barrel's CSS import would lose them).
    expect(
      await page
        .locator('.analytics')
        .first()
        .evaluate((element) => getComputedStyle(element).display),
    ).toBe('flex');

    // The chart is drawn (uPlot's canvas), and pointing at today's point reads out its bucket.
    expect(await page.getByTestId('clicks-chart').locator('canvas').count()).toBe(1);
    const plot = await page.getByTestId('clicks-chart').locator('.u-over').boundingBox();
    if (!plot) throw new Error('the chart has no plotting area');
    await page.mouse.move(plot.x + plot.width - 2, plot.y + plot.height / 2);
    await expect.poll(() => page.getByTestId('chart-readout').textContent()).toMatch(/: 5 clicks, 2 unique visitors$/);
    await page.mouse.move(0, 0);

    // The table alternative: one row per bucket of the API's series, with the same numbers.
    await page.getByRole('button', { name: 'Show as table' }).click();
    const table = await shown.table();
    expect(table).toHaveLength(expected.series.length);
    expect(table.map((cells) => cells.slice(1))).toEqual(
      expected.series.map((bucket: { clicks: number; unique_visitors: number }) => [String(bucket.clicks), String(bucket.unique_visitors)]),
    );
  });

  test('the account overview counts every link, and its top links open their statistics', async () => {
    const query = await nextStatsQuery('stats.account', () =>
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click(),
    );
    const expected = (await account.call('GET', `/stats?${query}`)).body;
    expect(expected.totals.clicks).toBe(5);
    await expect.poll(shown.total).toBe('5');
    expect(await shown.breakdown('top-links')).toEqual(['Spring launchsho.rt/spring5 clicks']);
    await page.getByRole('button', { name: /^Spring launch/ }).click();
    await expect.poll(() => page.url()).toBe(`${server.origin}/app/links/${launch.id}`);
    await expect.poll(shown.total).toBe('5');
    await page.goBack();
    await expect.poll(() => page.url()).toBe(`${server.origin}/app/overview`);
  });

  test('a tag’s statistics count the links that carry it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    const query = await nextStatsQuery('stats.tag', () => page.getByRole('link', { name: 'Statistics of Campaign' }).click());
    const expected = (await account.call('GET', `/tags/${tagId}/stats?${query}`)).body;
    expect(expected.totals.clicks).toBe(5);
    await expect.poll(shown.total).toBe('5');
    expect(await shown.breakdown('top-links')).toEqual(['Spring launchsho.rt/spring5 clicks']);
  });

  test('a link nobody visited says so', async () => {
    await page.goto(`${server.origin}/app/links/${quiet.id}`);
    await expect.poll(() => page.getByText('No clicks in this range.', { exact: false }).count()).toBe(1);
    expect((await account.call('GET', `/links/${quiet.id}/stats`)).body.totals.clicks).toBe(0);
  });
});

test('the dashboard asked only its own server for anything, with no CSP violation or error', () => {
  expect(watch.errors).toEqual([]);
  expect(watch.violations).toEqual([]);
  expect(watch.requests.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'))).toEqual([]);
});
