import type { TestAccount, TestServer } from '@shortlinks/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, type ExtensionBrowser, readClipboard, screenshotAll } from './browser.ts';
import { type ScenarioWorld, startScenarioWorld } from './world.ts';

let world: ScenarioWorld;
let server: TestServer;
let browser: ExtensionBrowser;
let pages: ScenarioWorld['pages'];
let account: TestAccount;

beforeAll(async () => {
  world = await startScenarioWorld();
  ({ server, browser, pages, account } = world);
  await configure(browser, server.origin, account.key);
});
afterAll(() => world?.close());
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(browser.context, `shortcut-${task.name}`));
});

/**
 * Chromium's input events from Playwright reach the page, not the browser's shortcut handling, and
 * a context menu is native UI; so the scenarios fire the extension's own listeners with the
 * arguments Chromium gives them (the events' `dispatch`), in the real service worker.
 */
const badge = () => browser.worker.evaluate(() => chrome.action.getBadgeText({}));
const destinations = async () =>
  (await account.call('GET', '/links?per_page=100')).body.links.map((link: { destination_url: string }) => link.destination_url);

describe('without the popup', () => {
  test('the keyboard shortcut shortens the current tab, copies the short URL and shows a ✓ badge', async () => {
    const url = pages.url('news', '/story');
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.bringToFront();
    await browser.worker.evaluate(async () => {
      const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      (chrome.commands.onCommand as unknown as { dispatch(command: string, tab?: chrome.tabs.Tab): void }).dispatch(
        'shorten-current-tab',
        tab,
      );
    });
    await expect.poll(destinations).toEqual([url]);
    await expect.poll(badge).toBe('✓');
    const { body } = await account.call('GET', '/links');
    expect(await readClipboard(browser, pages.loopback)).toBe(body.links[0].short_url);
    await page.close();
  });

  test('"Shorten link" on a link shortens the link’s target, not the page', async () => {
    const page = await browser.context.newPage();
    await page.goto(pages.url('news', '/front'));
    const target = await page.locator('#out').getAttribute('href');
    await browser.worker.evaluate(
      async ({ pageUrl, linkUrl }) => {
        const [tab] = await chrome.tabs.query({ url: pageUrl });
        const onClicked = chrome.contextMenus.onClicked as unknown as { dispatch(info: object, tab?: chrome.tabs.Tab): void };
        onClicked.dispatch({ menuItemId: 'shorten-link', pageUrl, linkUrl, editable: false }, tab);
      },
      { pageUrl: page.url(), linkUrl: target },
    );
    await expect.poll(destinations).toContain(target);
    expect(await destinations()).not.toContain(page.url());
    await page.close();
  });

  test('"Shorten link" on a browser page shows a ! badge and sends nothing', async () => {
    const before = (await account.call('GET', '/links')).body.total;
    await browser.worker.evaluate(() => {
      const onClicked = chrome.contextMenus.onClicked as unknown as { dispatch(info: object, tab?: chrome.tabs.Tab): void };
      onClicked.dispatch({ menuItemId: 'shorten-link', pageUrl: 'chrome://settings/', editable: false });
    });
    await expect.poll(badge).toBe('!');
    expect((await account.call('GET', '/links')).body.total).toBe(before);
  });
});

test('no extension page threw or logged an error in any scenario', () => {
  expect(browser.pageErrors).toEqual([]);
});
