import path from 'node:path';
import { ensureDashboardBuilt } from '@shortlinks/server/dashboard-build';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type ExtensionBrowser, openPopupWindow, screenshotAll } from './browser.ts';
import { type ScenarioWorld, startScenarioWorld } from './world.ts';

/*
 * Connect (issue #26, docs/accounts.md "Connect"): the options' Connect opens the dashboard, the
 * signed-in person approves, and the extension receives a key with just the scopes it needs, then
 * shortens with it; declined, it receives none. No key in any URL.
 */

const EMAIL = 'owner@connect.example';
/** `pnpm --filter @shortlinks/extension screenshots` also takes docs/extension-connect-*.png here. */
const screenshots = process.env.UPDATE_SCREENSHOTS === '1';
const docs = path.resolve(import.meta.dirname, '../../../docs');
const PASSWORD = 'correct horse battery staple 42';

let world: ScenarioWorld;
let browser: ExtensionBrowser;

beforeAll(async () => {
  const build = await ensureDashboardBuilt();
  if (build.state === 'failed') throw new Error(`the web dashboard did not build: ${build.problem}`);
  world = await startScenarioWorld();
  browser = world.browser;
  const user = await world.server.services.users.create(EMAIL, PASSWORD);
  await world.server.services.members.add(world.account.account.id, user.id, 'owner');
}, 300_000);
afterAll(() => world?.close());
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(browser.context, `connect-${task.name}`));
});

const storedSettings = () =>
  browser.worker.evaluate(() =>
    chrome.storage.local.get('settings').then((stored) => (stored.settings as { apiKey: string } | undefined) ?? null),
  );

/** The options page with the server's address typed, Connect clicked: the dashboard tab it opened. */
async function clickConnect(): Promise<{ options: Page; dashboard: Page }> {
  const options = await browser.context.newPage();
  await options.goto(browser.url('options.html'));
  await options.getByLabel('Server address').fill(world.server.origin);
  const opened = browser.context.waitForEvent('page', { predicate: (page) => page.url().includes('/app/connect') });
  await options.getByRole('button', { name: 'Connect' }).click();
  const dashboard = await opened;
  await dashboard.waitForLoadState();
  const url = new URL(dashboard.url());
  expect(url.pathname).toBe('/app/connect');
  expect(url.searchParams.get('client')).toBe('extension');
  expect(url.searchParams.get('challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(dashboard.url()).not.toContain('slk_');
  return { options, dashboard };
}

describe('Connect', () => {
  test('sign in, approve: the extension keeps the key it received and shortens with it', async () => {
    const { options, dashboard } = await clickConnect();
    await options.getByRole('status').filter({ hasText: 'Waiting for your approval' }).waitFor();
    if (screenshots) {
      await options.setViewportSize({ width: 900, height: 360 });
      await options.screenshot({ path: path.join(docs, 'extension-connect-waiting.png') });
    }
    // Not signed in yet: the sign-in form, then back to the request.
    await dashboard.getByLabel('Email').fill(EMAIL);
    await dashboard.getByLabel('Password').fill(PASSWORD);
    await dashboard.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dashboard.getByRole('heading', { name: 'Connect the browser extension' }).waitFor();
    await expect.poll(() => dashboard.getByTestId('connect-scopes').textContent()).toContain('links.write');
    if (screenshots) {
      await dashboard.setViewportSize({ width: 1200, height: 400 });
      await dashboard.screenshot({ path: path.join(docs, 'extension-connect-approve.png') });
    }
    await dashboard.getByRole('button', { name: 'Approve' }).click();
    await dashboard.getByRole('status').filter({ hasText: 'Approved' }).waitFor();

    await options.getByRole('status').filter({ hasText: 'Saved. Connected' }).waitFor({ timeout: 15_000 });
    const settings = await storedSettings();
    expect(settings?.apiKey).toMatch(/^slk_/);
    expect(await options.getByLabel('API key').inputValue()).toBe(settings?.apiKey);
    const keys = (await world.account.call('GET', '/keys')).body.keys as { name: string; scopes: string[] }[];
    expect(keys.find((key) => key.name === 'Browser extension')?.scopes).toEqual([
      'links.write',
      'tags.write',
      'analytics.read',
      'domains.read',
    ]);

    // The popup shortens the current tab with the received key.
    const page = await browser.context.newPage();
    await page.goto(world.pages.url('article.example.com', '/connected'));
    await page.bringToFront();
    const popup = await openPopupWindow(browser);
    await popup.getByRole('button', { name: 'Shorten' }).click();
    await popup.getByTestId('short-url').waitFor();
    const links = (await world.account.call('GET', '/links?per_page=100')).body.links as { destination_url: string }[];
    expect(links.map((link) => link.destination_url)).toContain(world.pages.url('article.example.com', '/connected'));
    await Promise.all([popup.close(), page.close(), options.close(), dashboard.close()]);
  });

  test('decline: the extension receives no key, and keeps what it had', async () => {
    const before = await storedSettings();
    const { options, dashboard } = await clickConnect();
    // Signed in already in this browser: the request at once.
    await dashboard.getByRole('button', { name: 'Decline' }).click();
    await dashboard.getByRole('status').filter({ hasText: 'Declined' }).waitFor();
    await options.getByRole('alert').filter({ hasText: 'declined' }).waitFor({ timeout: 15_000 });
    expect(await storedSettings()).toEqual(before);
    await Promise.all([options.close(), dashboard.close()]);
  });
});
