import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { clickButton, type FirefoxExtension, fillField, launchFirefoxExtension, screenshotAllTabs, textOf } from './firefox.ts';
import { startTestPages } from './pages.ts';
import { startTestServer } from './test-server.ts';

/**
 * The Firefox build in Debian's Firefox ESR: connecting, the popup, the keyboard shortcut and the
 * context menu (copying from Firefox's background page), and the manage page. The rest of the
 * behaviour is the same code and is covered in Chromium by the other files.
 */
let server: TestServer;
let firefox: FirefoxExtension;
let pages: Awaited<ReturnType<typeof startTestPages>>;
let account: TestAccount;

beforeAll(async () => {
  [server, firefox, pages] = await Promise.all([startTestServer(), launchFirefoxExtension(), startTestPages()]);
  account = await createAccount(server);
});
afterAll(async () => {
  await firefox?.close();
  await pages?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAllTabs(firefox.browser, task.name));
});

const links = async () =>
  (await account.call('GET', '/links?per_page=100')).body.links as { destination_url: string; short_url: string; title: string }[];

/** Opens a web page as the current tab of the browser window. */
async function openWebPage(url: string): Promise<Page> {
  const page = await firefox.browser.newPage();
  await page.goto(url);
  await page.bringToFront();
  return page;
}

test('options: Save checks the connection and keeps only what works: an unreachable server, then a refused key, then saved', async () => {
  const options = await firefox.openExtensionPage('options.html');
  const report = () => textOf(options, '[data-testid="connection-report"]');

  await fillField(options, 'Server address', 'http://127.0.0.1:9');
  await fillField(options, 'API key', account.key);
  await clickButton(options, 'Save');
  await expect.poll(report).toContain('Not saved. Could not reach http://127.0.0.1:9');

  await fillField(options, 'Server address', server.origin);
  await fillField(options, 'API key', 'slk_not_a_real_key');
  await clickButton(options, 'Save');
  await expect.poll(report).toContain('Not saved. The server refused the API key (401');

  await fillField(options, 'API key', account.key);
  await clickButton(options, 'Save');
  await expect.poll(report).toMatch(/^Saved\. Connected to 127\.0\.0\.1:\d+\.0 of 1,000 links0 of 25 tags$/);
  await options.close();
});

describe('shortening (connected in the first scenario)', () => {
  test('the popup shows the current tab, and Shorten makes its link, copies the short URL and shows its QR code', async () => {
    const url = pages.url('blog', '/post/1');
    const page = await openWebPage(url);
    const popup = await firefox.openPopupWindow();
    // Opening the popup creates nothing; Shorten does.
    await popup.waitForSelector('::-p-text(Shorten)');
    expect(await links()).toEqual([]);
    await clickButton(popup, 'Shorten');
    const shortUrl = await textOf(popup, '[data-testid="short-url"]');
    expect(shortUrl).toMatch(/^https:\/\/sho\.rt\/[A-Za-z0-9_-]{6}$/);
    await expect.poll(() => popup.evaluate(() => document.body.textContent ?? '')).toContain('Copied to the clipboard');
    expect(await firefox.readClipboard(pages.loopback)).toBe(shortUrl);
    await popup.waitForSelector('[data-testid="qr-code"]');
    expect(await links()).toEqual([expect.objectContaining({ destination_url: url, short_url: shortUrl, title: 'Page /post/1' })]);
    await popup.close();
    await page.close();
  });

  test('the keyboard shortcut shortens the current tab, copies the short URL and shows a ✓ badge', async () => {
    const url = pages.url('news', '/story');
    const page = await openWebPage(url);
    await firefox.pressShortcut({ key: 'S', modifiers: 'alt,shift' });
    await expect.poll(async () => (await links()).map((link) => link.destination_url)).toContain(url);
    await expect.poll(() => firefox.badge()).toBe('✓');
    const link = (await links()).find((item) => item.destination_url === url);
    expect(link?.title).toBe('Page /story');
    expect(await firefox.readClipboard(pages.loopback)).toBe(link?.short_url);
    await page.close();
  });

  test('"Shorten link" in the context menu of a link shortens the link’s target, not the page, and copies it', async () => {
    const page = await openWebPage(pages.url('news', '/front'));
    const target = await page.$eval('#out', (anchor) => (anchor as HTMLAnchorElement).href);
    await firefox.chooseFromContextMenu(page, '#out', 'Shorten link');
    await expect.poll(async () => (await links()).map((link) => link.destination_url)).toContain(target);
    expect((await links()).map((link) => link.destination_url)).not.toContain(page.url());
    const link = (await links()).find((item) => item.destination_url === target);
    expect(await firefox.readClipboard(pages.loopback)).toBe(link?.short_url);
    await page.close();
  });

  test('the manage page lists the links, newest first', async () => {
    const manage = await firefox.openExtensionPage('tabs/manage.html');
    await manage.waitForSelector('[data-testid="link-row"]');
    const shown = await manage.$$eval('[data-testid="link-row"]', (rows) => rows.map((row) => row.textContent ?? ''));
    // The API lists newest first too; each row names its short link.
    const newestFirst = (await links()).map((link) => link.short_url.replace(/^https:\/\//, ''));
    expect(newestFirst).toHaveLength(3);
    expect(shown.map((row) => newestFirst.find((shortUrl) => row.includes(shortUrl)))).toEqual(newestFirst);
    await manage.close();
  });
});

test('no extension page or background logged an error in any scenario', async () => {
  expect(await firefox.extensionErrors()).toEqual([]);
});
