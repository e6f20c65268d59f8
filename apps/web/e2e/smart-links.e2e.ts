import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, screenshotAll, signInWith } from './browser.ts';
import { startDestinations } from './destinations.ts';
import { startTestServer } from './test-server.ts';

/**
 * Issue #30 in the dashboard: a link made with a password and a click limit in New link, followed
 * in a visitor's real browser (the form, a wrong and the right password, the cookie, the limit),
 * then both removed in Edit.
 */

/** Headless Chromium names itself HeadlessChrome, which the server rightly counts as a bot. */
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let server: TestServer;
let browser: DashboardBrowser;
let destinations: Awaited<ReturnType<typeof startDestinations>>;
let account: TestAccount;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser, destinations] = await Promise.all([startTestServer(), launchDashboardBrowser(), startDestinations()]);
  account = await createAccount(server);
  ({ context } = await browser.newContext());
  page = await context.newPage();
  await signInWith(page, server.origin, account.key);
});
afterAll(async () => {
  await browser?.close();
  await destinations?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(context, `smart-links-${task.name}`));
});

const linkBySlug = async (slug: string) =>
  (await account.call('GET', '/links?per_page=100')).body.links.find((item: { slug: string }) => item.slug === slug);

describe('smart links in the dashboard', () => {
  test('New link sets a password and a click limit; a visitor gives the password and the limit holds', async () => {
    await page.getByRole('button', { name: 'New link' }).click();
    const form = page.getByRole('form', { name: 'New link' });
    await form.getByLabel('Destination').fill(destinations.url('shop', '/secret'));
    await form.getByLabel('Slug').fill('locked');
    await form.getByText('Password and click limit').click();
    await form.getByLabel('Password', { exact: true }).fill('open-sesame');
    await form.getByLabel('Click limit').fill('2');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => linkBySlug('locked')).toMatchObject({ password_protected: true, max_clicks: 2 });

    const visitor = await browser.browser.newContext({ userAgent: DESKTOP });
    const tab = await visitor.newPage();
    const first = await tab.goto(`${server.origin}/locked`);
    expect(first?.status()).toBe(200);
    expect(await tab.title()).toBe('Password required');
    await tab.getByLabel('Password').fill('not-the-one');
    await tab.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => tab.getByRole('alert').textContent()).toContain('not right');
    await tab.getByLabel('Password').fill('open-sesame');
    await tab.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => tab.title()).toBe('Arrived at /secret');
    // The cookie lets the same visitor through: the second and last click the limit allows.
    await tab.goto(`${server.origin}/locked`);
    expect(await tab.title()).toBe('Arrived at /secret');
    const third = await tab.goto(`${server.origin}/locked`);
    expect(third?.status()).toBe(410);
    expect(await tab.title()).toBe('Link expired');
    await visitor.close();
  });

  test('Edit removes the password and the click limit', async () => {
    const row = page.getByTestId('link-row').filter({ hasText: 'locked' }).first();
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Remove the password').check();
    await row.getByLabel('Click limit').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const link = await linkBySlug('locked');
        return [link.password_protected, link.max_clicks];
      })
      .toEqual([undefined, undefined]);
  });
});
