import path from 'node:path';
import { createAccount, seedAcmeAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, signInWith } from './browser.ts';
import { startTestServer } from './test-server.ts';

/**
 * The dashboard's screenshots in docs/ (`pnpm --filter @shortlinks/web screenshots`), taken in the
 * real browser with realistic data: a month of the same sample clicks as the extension's screenshots.
 * Skipped in the normal end-to-end run.
 */
const enabled = process.env.UPDATE_SCREENSHOTS === '1';
const docs = path.resolve(import.meta.dirname, '../../../docs');

let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;
let spring: string;

beforeAll(async () => {
  if (!enabled) return;
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  account = await createAccount(server, { name: 'Acme', plan: 'team' });
  spring = (await seedAcmeAccount(server, account)).springLinkId;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function shoot(page: Page, name: string, fullPage = false) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(docs, `dashboard-${name}.png`), fullPage });
}

test.skipIf(!enabled)('dashboard screenshots', { timeout: 120_000 }, async () => {
  const { context } = await browser.newContext({ viewport: { width: 1180, height: 900 } });
  const page = await context.newPage();
  await signInWith(page, server.origin, account.key);
  await page.getByTestId('link-row').first().waitFor();
  // The header's plan usage arrives with the account, after the list may have.
  await page.getByTestId('usage-links').waitFor();
  await shoot(page, 'links');

  await page.goto(`${server.origin}/app/links/${spring}`);
  await page.getByTestId('clicks-chart').locator('canvas').waitFor();
  await shoot(page, 'link', true);

  await page.goto(`${server.origin}/app/overview`);
  await page.getByTestId('breakdown-top-links').waitFor();
  await page.getByTestId('clicks-chart').locator('canvas').waitFor();
  await shoot(page, 'overview', true);

  const phone = await browser.newContext({ viewport: { width: 390, height: 780 } });
  const small = await phone.context.newPage();
  await signInWith(small, server.origin, account.key);
  await small.getByTestId('link-row').first().waitFor();
  await shoot(small, 'phone');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').waitFor();
  await shoot(page, 'sign-in');
});
