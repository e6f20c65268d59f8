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

  await page.goto(`${server.origin}/app/overview`);
  await page.getByTestId('breakdown-top-links').waitFor();
  await page.getByTestId('clicks-chart').locator('canvas').waitFor();
  await shoot(page, 'overview', true);

  const phone = await browser.newContext({ viewport: { width: 390, height: 780 } });
  const small = await phone.context.newPage();
  await signInWith(small, server.origin, account.key);
  await small.getByTestId('link-row').first().waitFor();
  await shoot(small, 'phone');

  await shootLinkPages();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').waitFor();
  await shoot(page, 'sign-in');
});

/**
 * A link's page and the forms (issue #32), at the sizes they were tried at: 1280 × 900 and a
 * phone's 390 × 844.
 */
async function shootLinkPages() {
  const { context } = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInWith(page, server.origin, account.key);
  await page.goto(`${server.origin}/app/links/${spring}`);
  await page.getByTestId('clicks-chart').locator('canvas').waitFor();
  await page.getByRole('img', { name: /^QR code of / }).waitFor();
  await shoot(page, 'link', true);

  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit link' });
  await edit.getByLabel('Destination').fill('blog.acme.example.com/2026/spring-launch-final');
  await edit.getByLabel('Destination').press('Tab');
  await edit.getByLabel('Title').blur();
  await shoot(page, 'link-edit');

  await page.goto(`${server.origin}/app`);
  await page.getByRole('button', { name: 'New link' }).click();
  const form = page.getByRole('form', { name: 'New link' });
  await form.getByLabel('Destination').fill('acme.example.com/summer');
  await form.getByLabel('Destination').press('Tab');
  await form.getByLabel('Title').fill('Summer sale');
  await form.getByLabel('Slug').fill('summer');
  await form.getByText('UTM parameters').click();
  await form.getByLabel('utm_source').fill('newsletter');
  await form.getByLabel('utm_medium').fill('email');
  await form.getByLabel('utm_campaign').fill('summer-sale');
  await form.getByText('Expiry').click();
  await form.getByLabel('Expires at').fill('2027-09-01T00:00');
  await form.getByLabel('Then redirect to').fill('https://acme.example.com/sales');
  await form.getByLabel('Comments').focus();
  await shoot(page, 'new-link', true);
  await context.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const small = await phone.context.newPage();
  await signInWith(small, server.origin, account.key);
  await small.goto(`${server.origin}/app/links/${spring}`);
  await small.getByRole('img', { name: /^QR code of / }).waitFor();
  await small.getByTestId('clicks-chart').locator('canvas').waitFor();
  await shoot(small, 'phone-link');
  await phone.context.close();
}
