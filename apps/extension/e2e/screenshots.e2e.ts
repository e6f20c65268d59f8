import path from 'node:path';
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { afterAll, beforeAll, test } from 'vitest';
import { configure, type ExtensionBrowser, launchExtensionBrowser, openPopupWindow, TOOLBAR_POPUP } from './browser.ts';
import { startTestPages } from './pages.ts';
import { recordSampleClicks, type SampleLink } from './sample-clicks.ts';
import { startTestServer } from './test-server.ts';

/**
 * The screenshots in docs/ (`pnpm --filter @shortlinks/extension screenshots`), taken in the real
 * browser with realistic data. Skipped in the normal end-to-end run.
 */
const enabled = process.env.UPDATE_SCREENSHOTS === '1';
const docs = path.resolve(import.meta.dirname, '../../../docs');

let server: TestServer;
let browser: ExtensionBrowser;
let pages: Awaited<ReturnType<typeof startTestPages>>;
let account: TestAccount;
let springId = '';

beforeAll(async () => {
  if (!enabled) return;
  [server, browser, pages] = await Promise.all([
    startTestServer(),
    launchExtensionBrowser({ timezoneId: 'Europe/Berlin' }),
    startTestPages(),
  ]);
  account = await createAccount(server);
  await configure(browser, server.origin, account.key);
  const tag = async (name: string, color: string) => (await account.call('POST', '/tags', { name, color })).body.id as string;
  const launch = await tag('Launch', 'indigo');
  const social = await tag('Social', 'fuchsia');
  const docsTag = await tag('Docs', 'cyan');
  await tag('Internal', 'slate');
  const links = [
    ['Pricing page', 'https://acme.example.com/pricing', [launch], 'pricing', 38],
    ['Spring launch announcement', 'https://blog.acme.example.com/2026/spring-launch', [launch, social], 'spring', 64],
    ['API quick start', 'https://docs.acme.example.com/quick-start', [docsTag], 'quick-start', 27],
    ['Conference talk slides', 'https://slides.example.org/acme-keynote', [social], undefined, 6],
    ['Changelog', 'https://acme.example.com/changelog', [docsTag], 'changelog', 3],
  ] as const;
  const sample: SampleLink[] = [];
  for (const [title, destination_url, tag_ids, slug, perDay] of links) {
    const created = await account.call('POST', '/links', { title, destination_url, tag_ids, ...(slug ? { slug } : {}) });
    // The launch: a spike nine days ago on the announcement, a smaller one on the pricing page.
    const spike = slug === 'spring' ? { daysAgo: 9, times: 4 } : slug === 'pricing' ? { daysAgo: 9, times: 2.5 } : undefined;
    sample.push({ id: created.body.id, perDay, ...(spike ? { spike } : {}) });
    if (slug === 'spring') springId = created.body.id;
  }
  await recordSampleClicks(server, sample);
  // A sale that has just ended, to show how an expired link looks.
  const saleEnds = Date.now() + 1_500;
  await account.call('POST', '/links', {
    title: 'Winter sale',
    destination_url: 'https://acme.example.com/sale',
    tag_ids: [launch],
    slug: 'winter-sale',
    expires_at: saleEnds,
    expiration_url: 'https://acme.example.com/',
  });
  await new Promise((resolve) => setTimeout(resolve, saleEnds - Date.now() + 100));
});
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await server?.close();
});

test.skipIf(!enabled)('popup and manage page screenshots', { timeout: 120_000 }, async () => {
  const page = await browser.context.newPage();
  await page.goto(pages.url('blog', '/2026/how-we-ship'));
  await page.bringToFront();
  const popup = await openPopupWindow(browser);
  // The popup opens on the page: nothing is created before Shorten.
  await popup.getByRole('button', { name: 'Shorten' }).waitFor();
  await popup.screenshot({ path: path.join(docs, 'extension-popup-home.png') });
  await popup.keyboard.press('Enter');
  await popup.getByTestId('qr-code').waitFor();
  await popup.getByLabel('Title').fill('How we ship: a week in the life');
  await popup.getByLabel('Tags').fill('lau');
  await popup.getByLabel('Tags').press('Enter');
  await popup.getByLabel('Tags').fill('Blog');
  await popup.getByLabel('Tags').press('Enter');
  await popup.locator('h1').click();
  // As tall as Chromium lets a toolbar popup be: the form scrolls, Save stays at the bottom.
  await popup.setViewportSize({ width: TOOLBAR_POPUP.width, height: 600 });
  await popup.screenshot({ path: path.join(docs, 'extension-popup.png') });
  // Taken back, so the manage page shows the sample links only.
  await popup.getByRole('button', { name: 'Undo' }).click();
  await popup.getByRole('button', { name: 'Shorten' }).waitFor();
  await popup.close();

  const manage = await browser.context.newPage();
  await manage.setViewportSize({ width: 1100, height: 820 });
  await manage.goto(browser.url('tabs/manage.html'));
  await manage.getByTestId('link-row').first().waitFor();
  await manage.screenshot({ path: path.join(docs, 'extension-manage.png') });
  await manage.getByRole('tab', { name: 'Tags' }).click();
  await manage.getByTestId('tag-row-Launch').waitFor();
  await manage.screenshot({ path: path.join(docs, 'extension-tags.png') });

  // A link's statistics, with the pointer on the launch day's point of the chart.
  await manage.goto(browser.url(`tabs/manage.html#/links/${springId}`));
  await manage.getByTestId('breakdown-referrers').waitFor();
  const chart = manage.getByTestId('clicks-chart').locator('.u-over');
  const box = await chart.boundingBox();
  if (box) await manage.mouse.move(box.x + (box.width * 20) / 29, box.y + box.height / 2);
  await manage.screenshot({ path: path.join(docs, 'extension-link-statistics.png'), fullPage: true });

  await manage.mouse.move(0, 0);
  await manage.getByRole('tab', { name: 'Overview' }).click();
  await manage.getByTestId('breakdown-top-links').waitFor();
  await manage.screenshot({ path: path.join(docs, 'extension-overview.png'), fullPage: true });
});
