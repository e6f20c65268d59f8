import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from '../../server/test/harness.ts';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { startDestinations } from './destinations.ts';

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

beforeAll(async () => {
  [server, browser, destinations] = await Promise.all([startTestServer(), launchDashboardBrowser(), startDestinations()]);
  account = await createAccount(server);
  const tag = (await account.call('POST', '/tags', { name: 'Campaign', color: 'cyan' })).body;
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
  // desktop coming from a newsletter, two on a phone with no referrer.
  for (const [userAgent, referer, times] of [
    [DESKTOP, 'https://news.example.com/issue-12', 3],
    [PHONE, undefined, 2],
  ] as const) {
    const visitor = await browser.browser.newContext({ userAgent });
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

describe('clicks of visits through real redirects', () => {
  test('the list shows each link’s clicks as the API counts them', async () => {
    const listed = (await account.call('GET', '/links')).body.links as { slug: string; click_count: number }[];
    expect(listed.find((link) => link.slug === 'spring')?.click_count).toBe(5);
    for (const { slug, click_count } of listed) {
      await expect.poll(() => page.locator(`[data-slug="${slug}"] .clicks strong`).textContent()).toBe(String(click_count));
    }
  });

  test('a link’s statistics page shows the same total as the API’s statistics', async () => {
    await page.getByRole('link', { name: 'Statistics of Spring launch' }).click();
    const stats = (await account.call('GET', `/links/${launch.id}/stats`)).body;
    expect(stats.totals.clicks).toBe(5);
    await expect.poll(() => page.getByTestId('link-total-clicks').textContent()).toBe(`${stats.totals.clicks}clicks in all`);
    // ANALYTICS: with LinkAnalytics wired in, check its chart's series and its breakdowns against
    // `stats` here: 5 clicks today; devices desktop 3 and mobile 2; referrer news.example.com 3, none 2.
  });

  test('a link nobody visited shows no clicks', async () => {
    await page.goto(`${server.origin}/app/links/${quiet.id}`);
    await expect.poll(() => page.getByTestId('link-total-clicks').textContent()).toBe('0clicks in all');
    expect((await account.call('GET', `/links/${quiet.id}/stats`)).body.totals.clicks).toBe(0);
  });
});

test('the dashboard asked only its own server for anything, with no CSP violation or error', () => {
  expect(watch.errors).toEqual([]);
  expect(watch.violations).toEqual([]);
  expect(watch.requests.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'))).toEqual([]);
});
