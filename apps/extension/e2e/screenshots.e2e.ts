import path from 'node:path';
import { createAccount, seedAcmeAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { afterAll, beforeAll, test } from 'vitest';
import { configure, type ExtensionBrowser, launchExtensionBrowser, openPopupWindow, TOOLBAR_POPUP } from './browser.ts';
import { startTestPages } from './pages.ts';
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
  const acme = await seedAcmeAccount(server, account);
  springId = acme.springLinkId;
  const launch = acme.launchTagId;
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
