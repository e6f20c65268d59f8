import path from 'node:path';
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { recordSampleClicks, type SampleLink } from '../../extension/e2e/sample-clicks.ts';
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
    const created = (await account.call('POST', '/links', { title, destination_url, tag_ids, ...(slug ? { slug } : {}) })).body;
    // The launch: a spike nine days ago on the announcement, a smaller one on the pricing page.
    const spike = slug === 'spring' ? { daysAgo: 9, times: 4 } : slug === 'pricing' ? { daysAgo: 9, times: 2.5 } : undefined;
    sample.push({ id: created.id, perDay, ...(spike ? { spike } : {}) });
    if (slug === 'spring') spring = created.id;
  }
  await recordSampleClicks(server, sample);
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
