import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { startTestServer } from './test-server.ts';

const KEY_ITEM = 'shortlinks.apiKey';

let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;
/** Every line the server logged, at debug level (request headers included, Authorization redacted). */
const logLines: string[] = [];
const contexts: { context: BrowserContext; watch: PageWatch }[] = [];
let current: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startTestServer({ logLevel: 'debug', logStream: { write: (line) => logLines.push(line) } }),
    launchDashboardBrowser(),
  ]);
  account = await createAccount(server);
  await account.call('POST', '/links', { title: 'First link', destination_url: 'https://example.org/first', slug: 'first' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(current, `sign-in-${task.name}`));
});

/** A fresh browser profile (no storage), watched. */
async function freshProfile() {
  const opened = await browser.newContext();
  contexts.push(opened);
  current = opened.context;
  return opened;
}

const stored = (page: Page) =>
  page.evaluate((item) => ({ session: sessionStorage.getItem(item), local: localStorage.getItem(item) }), KEY_ITEM);

describe('signing in', () => {
  test('the dashboard asks for a key first, and titles the page for it', async () => {
    const { context } = await freshProfile();
    const page = await context.newPage();
    const response = await page.goto(`${server.origin}/app`);
    expect(response?.status()).toBe(200);
    // After a moment asking the open dashboard tabs (none here) for the session's key.
    await page.getByLabel('API key').waitFor();
    expect(await page.title()).toBe('Sign in · Shortlinks');
    expect(await page.getByLabel('API key').getAttribute('type')).toBe('password');
  });

  test('a wrong key is refused at the field, nothing is kept, and the key is in no URL', async () => {
    const { context, watch } = await freshProfile();
    const page = await context.newPage();
    await page.goto(`${server.origin}/app`);
    await page.getByLabel('API key').fill('slk_wrong_key_123');
    await page.getByLabel('API key').press('Enter');
    const alert = page.locator('.field.invalid').getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe('The server did not accept this key. Check that you copied all of it, or ask for a new one.');
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(await stored(page)).toEqual({ session: null, local: null });
    expect(page.url()).toBe(`${server.origin}/app`);
    expect(watch.requests.filter((url) => url.includes('slk_wrong_key_123'))).toEqual([]);
  });

  test('by default the key lasts for the browser session: reloads and new tabs keep it while a dashboard tab is open', async () => {
    const { context } = await freshProfile();
    const page = await context.newPage();
    await signInWith(page, server.origin, account.key);
    await page.getByTestId('link-row').first().waitFor();
    expect(await stored(page)).toEqual({ session: account.key, local: null });
    expect(page.url()).toBe(`${server.origin}/app`);
    await page.reload();
    await page.getByTestId('link-row').first().waitFor();

    // A new tab is signed in by the open one (nothing on the device: localStorage stays empty).
    const other = await context.newPage();
    await other.goto(`${server.origin}/app/overview`);
    await other.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await stored(other)).toEqual({ session: account.key, local: null });

    // Every dashboard tab closed: nothing holds the key, the next tab asks for it.
    await page.close();
    await other.close();
    const later = await context.newPage();
    await later.goto(`${server.origin}/app`);
    await later.getByLabel('API key').waitFor();
    expect(await stored(later)).toEqual({ session: null, local: null });
  });

  test('signing out in one tab signs out every open tab', async () => {
    const { context } = await freshProfile();
    const first = await context.newPage();
    await signInWith(first, server.origin, account.key);
    await first.getByTestId('link-row').first().waitFor();
    const second = await context.newPage();
    await second.goto(`${server.origin}/app/tags`);
    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.getByLabel('API key').waitFor();
    await first.getByLabel('API key').waitFor();
    expect(await first.getByRole('status').textContent()).toContain('signed out in another tab');
    expect(await stored(first)).toEqual({ session: null, local: null });
  });

  test('a page outside the dashboard (the API reference at /docs) is never handed the key; the reference works under its CSP', async () => {
    const { context, watch } = await freshProfile();
    const dashboard = await context.newPage();
    await signInWith(dashboard, server.origin, account.key);
    await dashboard.getByTestId('link-row').first().waitFor();

    const docs = await context.newPage();
    await docs.goto(`${server.origin}/docs/`);
    await docs.getByRole('heading', { name: 'Shortlinks API' }).first().waitFor();
    // What a script on /docs could do: ask on the channel the dashboard used, and look for its secret.
    const heard = await docs.evaluate(async () => {
      const messages: unknown[] = [];
      const channel = new BroadcastChannel('shortlinks.dashboard.session');
      channel.onmessage = ({ data }) => messages.push(data);
      channel.postMessage({ kind: 'ask' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      channel.close();
      return { messages, cookie: document.cookie };
    });
    expect(heard).toEqual({ messages: [], cookie: '' });
    // The reference page's one refusal: zod, inside Scalar's bundle, probes once whether eval is
    // allowed (`Function('')`) and works without it. Nothing else was refused or failed; the last
    // scenario checks this profile's requests stayed on the server.
    expect(watch.violations).toEqual(['CSP violation: script-src blocked eval']);
    watch.violations.length = 0;
    expect(watch.errors).toEqual([]);

    // A dashboard tab opened now is still handed the key.
    const other = await context.newPage();
    await other.goto(`${server.origin}/app/tags`);
    await other.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  test('"Remember on this device" keeps it for new tabs too; signing out removes it everywhere', async () => {
    const { context } = await freshProfile();
    const page = await context.newPage();
    await signInWith(page, server.origin, account.key, { remember: true });
    expect(await stored(page)).toEqual({ session: null, local: account.key });
    const other = await context.newPage();
    await other.goto(`${server.origin}/app/overview`);
    await other.getByRole('heading', { name: 'Overview' }).waitFor();
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.getByLabel('API key').waitFor();
    expect(await other.getByRole('status').textContent()).toContain('signed out');
    expect(await stored(other)).toEqual({ session: null, local: null });
    await page.reload();
    await page.getByLabel('API key').waitFor();
  });

  test('a key revoked while the dashboard is open brings back the sign-in, saying why', async () => {
    const second = await server.services.apiKeys.create(account.account.id);
    const { context } = await freshProfile();
    const page = await context.newPage();
    await signInWith(page, server.origin, second.secret);
    await page.getByTestId('link-row').first().waitFor();
    await server.services.apiKeys.revoke(second.key.id);
    await page.getByLabel('Search links').fill('first');
    await page.getByLabel('API key').waitFor();
    expect(await page.getByRole('status').textContent()).toBe('The server no longer accepts your API key. Sign in again.');
    expect(await stored(page)).toEqual({ session: null, local: null });
  });

  test('an unreachable server is told apart from a wrong key', async () => {
    const { context } = await freshProfile();
    const page = await context.newPage();
    await page.goto(`${server.origin}/app`);
    await page.route('**/trpc/**', (route) => route.abort('connectionrefused'));
    await page.getByLabel('API key').fill(account.key);
    await page.getByRole('button', { name: 'Sign in with the key' }).click();
    await expect.poll(() => page.locator('.banner.error').textContent()).toMatch(/could not be reached/);
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('false');
  });
});

describe('what the key never touches, and what the page never does', () => {
  test('no URL any page asked for, and no line the server logged, holds a key', () => {
    const secrets = [account.key, 'slk_wrong_key_123'];
    const requests = contexts.flatMap(({ watch }) => watch.requests);
    expect(requests.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(requests.filter((url) => url.includes(secret))).toEqual([]);
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    }
    // The requests were logged, with their headers, and the key's header redacted.
    expect(logLines.some((line) => line.includes('/trpc/links.list') && line.includes('"authorization":"[redacted]"'))).toBe(true);
  });

  test('every request went to the dashboard’s own server; no CSP violation, no error', () => {
    const watches = contexts.map(({ watch }) => watch);
    const foreign = watches
      .flatMap((watch) => watch.requests)
      .filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'));
    expect(foreign).toEqual([]);
    expect(watches.flatMap((watch) => watch.violations)).toEqual([]);
    expect(watches.flatMap((watch) => watch.errors)).toEqual([]);
  });
});
