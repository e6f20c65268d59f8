import type { IncomingMessage } from 'node:http';
import type { TestAccount, TestServer } from '@shortlinks/testing';
import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, type ExtensionBrowser, openPopupWindow, readClipboard, screenshotAll, TOOLBAR_POPUP } from './browser.ts';
import { type ScenarioWorld, startScenarioWorld, visitLink } from './world.ts';

let world: ScenarioWorld;
let server: TestServer;
let browser: ExtensionBrowser;
let pages: ScenarioWorld['pages'];
let account: TestAccount;

beforeAll(async () => {
  world = await startScenarioWorld();
  ({ server, browser, pages, account } = world);
});
afterAll(() => world?.close());
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(browser.context, `popup-${task.name}`));
});

interface ListedLink {
  id: string;
  slug: string;
  short_url: string;
  destination_url: string;
  title: string;
  comments?: string;
  expires_at?: number;
  click_count: number;
  tags: { id: string; name: string }[];
}
const allLinks = async (): Promise<ListedLink[]> => (await account.call('GET', '/links?per_page=100')).body.links;
const linkTotal = async (): Promise<number> => (await account.call('GET', '/links')).body.total;
const storedSettings = () => browser.worker.evaluate(() => chrome.storage.local.get('settings').then((stored) => stored.settings ?? null));

/** Opens a web page as the current tab, then the popup on it (at the toolbar popup's size). */
async function openPopupOn(url: string): Promise<{ page: Page; popup: Page }> {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.bringToFront();
  return { page, popup: await openPopupWindow(browser) };
}

/** Reopens the popup on a tab already open. */
async function reopenPopupOn(page: Page): Promise<Page> {
  await page.bringToFront();
  return openPopupWindow(browser);
}

/** Shortens from the popup's home as a person does: Shorten has the focus, so Enter. */
async function shortenWithEnter(popup: Page): Promise<string> {
  await popup.getByRole('button', { name: 'Shorten' }).waitFor();
  await expect.poll(() => popup.evaluate(() => document.activeElement?.textContent)).toBe('Shorten');
  await popup.keyboard.press('Enter');
  const shortUrl = popup.getByTestId('short-url');
  await shortUrl.waitFor();
  return (await shortUrl.textContent()) ?? '';
}

/** Opens the popup on a new tab at `url` and shortens it. */
async function shortenInPopup(url: string) {
  const { page, popup } = await openPopupOn(url);
  return { page, popup, shortUrl: await shortenWithEnter(popup) };
}

/** Whether the element lies wholly inside the toolbar popup's viewport. */
async function inView(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= TOOLBAR_POPUP.height;
}

describe('options', () => {
  test('Save checks the connection first: what does not work is not saved and says why, each message replacing the last', async () => {
    const options = await browser.context.newPage();
    await options.goto(browser.url('options.html'));
    const report = options.getByTestId('connection-report');
    const save = options.getByRole('button', { name: 'Save' });

    await options.getByLabel('Server address').fill('http://127.0.0.1:9');
    await options.getByLabel('API key').fill(account.key);
    await save.click();
    await expect
      .poll(() => report.textContent())
      .toBe('Not saved. Could not reach http://127.0.0.1:9. Check the address and that the server is running.Save anyway');

    await options.getByLabel('Server address').fill(server.origin);
    expect(await report.textContent()).toBe('');
    await options.getByLabel('API key').fill('slk_not_a_real_key');
    await save.click();
    await expect.poll(() => report.textContent()).toContain('Not saved. The server refused the API key (401');
    expect(await report.locator('.banner').count()).toBe(1);

    // A web server that is not Shortlinks (it sends the extension no CORS headers) is not reported as unreachable.
    const notShortlinks = new URL(pages.url('blog', '/')).origin;
    await options.getByLabel('Server address').fill(notShortlinks);
    await options.getByLabel('API key').fill(account.key);
    await save.click();
    await expect
      .poll(() => report.textContent())
      .toBe(`Not saved. A server answered at ${notShortlinks}, but not as a Shortlinks server. Check the address.`);
    expect(await storedSettings()).toBeNull();

    // A field's own problem replaces the last report too.
    await save.click();
    await options.getByLabel('Server address').fill('https://links.example.com/some/path');
    await save.click();
    await expect.poll(() => options.getByRole('alert').textContent()).toContain('without a path');
    expect(await report.textContent()).toBe('');

    await options.getByLabel('Server address').fill(`${server.origin}/api/v1`);
    await save.click();
    await expect.poll(() => report.textContent()).toMatch(/^Saved\. Connected to 127\.0\.0\.1:\d+\.0 of 1,000 links0 of 25 tags$/);
    expect(await storedSettings()).toEqual({ serverUrl: server.origin, apiKey: account.key });
    expect(await options.getByLabel('Server address').inputValue()).toBe(server.origin);

    // The popup uses what was saved at once.
    const { page, popup } = await openPopupOn(pages.url('blog', '/options-saved'));
    await popup.getByRole('button', { name: 'Shorten' }).waitFor();
    expect(await popup.getByText('Connect the extension').count()).toBe(0);
    await popup.close();
    await page.close();
    await options.close();
  });

  test('an unreachable server may be saved anyway, on purpose', async () => {
    const options = await browser.context.newPage();
    await options.goto(browser.url('options.html'));
    await options.getByLabel('Server address').fill('http://127.0.0.1:9');
    await options.getByRole('button', { name: 'Save' }).click();
    await options.getByRole('button', { name: 'Save anyway' }).click();
    await expect.poll(() => options.getByTestId('connection-report').textContent()).toContain('Saved without a connection.');
    expect(await storedSettings()).toEqual({ serverUrl: 'http://127.0.0.1:9', apiKey: account.key });
    await options.close();
  });
});

describe('popup', () => {
  beforeAll(() => configure(browser, `${server.origin}/api/v1`, account.key));

  test('opens on the page without creating anything; Manage and Options are one click away', async () => {
    const before = await linkTotal();
    const { page, popup } = await openPopupOn(pages.url('blog', '/just-looking'));
    await popup.getByRole('button', { name: 'Shorten' }).waitFor();
    expect(await popup.getByTestId('destination').textContent()).toBe(pages.url('blog', '/just-looking'));
    expect(await popup.getByRole('link', { name: 'Manage' }).getAttribute('href')).toBe(browser.url('tabs/manage.html'));
    const [options] = await Promise.all([
      browser.context.waitForEvent('page', { predicate: (opened) => opened.url().endsWith('/options.html') }),
      popup.getByRole('button', { name: 'Options' }).click(),
    ]);
    await options.close();
    expect(await linkTotal()).toBe(before);
    await popup.close();
    await page.close();
  });

  test('Shorten (focused: Enter) makes the link, copies it and shows its QR code', async () => {
    const url = pages.url('blog', '/post/1');
    const { page, popup, shortUrl } = await shortenInPopup(url);
    expect(shortUrl).toMatch(/^https:\/\/sho\.rt\/[A-Za-z0-9_-]{6}$/);
    expect(await popup.locator('.page-link-state').textContent()).toBe('New short link');
    await expect.poll(() => popup.getByRole('status').filter({ hasText: 'Copied' }).count()).toBe(1);
    expect(await readClipboard(browser, pages.loopback)).toBe(shortUrl);
    await popup.getByTestId('qr-code').waitFor();
    const png = popup.getByRole('link', { name: 'PNG' });
    expect(await png.getAttribute('download')).toMatch(/^qr-.+\.png$/);
    // The download is the API's code: the short URL with qr=1, so a scan of it is counted as one.
    const image = PNG.sync.read(Buffer.from((await png.getAttribute('href'))?.replace(/^data:image\/png;base64,/, '') ?? '', 'base64'));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`${shortUrl}?qr=1`);
    // The page's link has the focus now: Enter copies it again.
    expect(await popup.evaluate(() => document.activeElement?.textContent)).toBe('Copy');

    const found = (await allLinks()).filter((link) => link.destination_url === url);
    expect(found).toEqual([expect.objectContaining({ short_url: shortUrl, title: 'Page /post/1' })]);
    await popup.close();
    await page.close();
  });

  test('Undo deletes the link just made, and the popup is back on the page', async () => {
    const before = await linkTotal();
    const { page, popup, shortUrl } = await shortenInPopup(pages.url('blog', '/by-mistake'));
    expect(await linkTotal()).toBe(before + 1);
    await popup.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => popup.getByRole('status').filter({ hasText: 'Undone' }).textContent()).toBe(`Undone: ${shortUrl} was deleted.`);
    expect(await linkTotal()).toBe(before);
    expect((await fetch(shortUrl.replace('https://sho.rt', server.origin), { redirect: 'manual' })).status).toBe(404);
    // Back on the page: Shorten again has the focus, and makes a new link.
    const again = await shortenWithEnter(popup);
    expect(again).not.toBe(shortUrl);
    expect(await linkTotal()).toBe(before + 1);
    await popup.close();
    await page.close();
  });

  test('an address carrying a session token is flagged, and the link is made without it unless asked', async () => {
    const url = pages.url('mail', '/thread?id=42&session=s3cr3t&sig=abc');
    const { page, popup } = await openPopupOn(url);
    await expect.poll(() => popup.locator('.banner.warning').textContent()).toContain('carries “session” and “sig”');
    expect(await popup.getByTestId('destination').textContent()).toBe(pages.url('mail', '/thread?id=42'));
    await shortenWithEnter(popup);
    const made = (await allLinks()).filter((link) => link.destination_url.includes('/thread'));
    expect(made.map((link) => link.destination_url)).toEqual([pages.url('mail', '/thread?id=42')]);
    await popup.close();
    // The same tab again: that link is this page's link; nothing new, token or not.
    const again = await reopenPopupOn(page);
    await again.getByTestId('short-url').waitFor();
    expect(await again.getByTestId('short-url').textContent()).toBe(made[0]?.short_url);
    await again.close();

    const kept = await openPopupOn(pages.url('mail', '/thread?id=43&token=t0k3n'));
    await kept.popup.getByLabel('Leave it out of the short link').uncheck();
    expect(await kept.popup.getByTestId('destination').textContent()).toBe(pages.url('mail', '/thread?id=43&token=t0k3n'));
    await kept.popup.getByRole('button', { name: 'Shorten' }).click();
    await kept.popup.getByTestId('short-url').waitFor();
    expect((await allLinks()).map((link) => link.destination_url)).toContain(pages.url('mail', '/thread?id=43&token=t0k3n'));
    await kept.popup.close();
    await kept.page.close();
    await page.close();
  });

  test('the same page again shows its link at once, never a duplicate', async () => {
    const url = pages.url('blog', '/post/2');
    const first = await shortenInPopup(url);
    await first.popup.close();
    await first.page.close();
    const { page, popup } = await openPopupOn(url);
    await popup.getByTestId('short-url').waitFor();
    expect(await popup.getByTestId('short-url').textContent()).toBe(first.shortUrl);
    expect(await popup.locator('.page-link-state').textContent()).toBe('This page’s short link · 0 clicks');
    expect(await popup.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect((await allLinks()).filter((link) => link.destination_url === url)).toHaveLength(1);
    await popup.close();
    await page.close();
  });

  test('after the link’s UTM changed, or with a #fragment, the popup finds the same link, creates none, and copies it', async () => {
    const url = pages.url('blog', '/post/utm');
    const { page, popup, shortUrl } = await shortenInPopup(url);
    await popup.getByText('UTM parameters').click();
    await popup.getByLabel('utm_source').fill('newsletter');
    await popup.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => popup.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved');
    expect((await allLinks()).find((link) => link.short_url === shortUrl)?.destination_url).toBe(`${url}?utm_source=newsletter`);
    await popup.close();
    const total = await linkTotal();

    const expectSameLink = async () => {
      const again = await reopenPopupOn(page);
      await again.getByTestId('short-url').waitFor();
      expect(await again.getByTestId('short-url').textContent()).toBe(shortUrl);
      await expect.poll(() => again.getByRole('status').filter({ hasText: 'Copied' }).count()).toBe(1);
      await again.close();
      expect(await readClipboard(browser, pages.loopback)).toBe(shortUrl);
      expect(await linkTotal()).toBe(total);
    };
    await expectSameLink();
    await page.goto(`${url}#comments`);
    await expectSameLink();
    // A browser that does not remember the page (another device, a new profile) finds it among the newest links.
    await browser.worker.evaluate(() => chrome.storage.local.remove('pageLinks'));
    await expectSameLink();
    await page.close();
  });

  test('a title the person typed survives shortening the same page again', async () => {
    const url = pages.url('blog', '/post/title');
    const first = await shortenInPopup(url);
    await first.popup.getByLabel('Title').fill('My own title');
    await first.popup.getByRole('button', { name: 'Save' }).click();
    await first.popup.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await first.popup.close();
    await first.page.close();
    // Another browser's memory would not know the page: Shorten upserts, and the typed title is put back.
    await browser.worker.evaluate(() => chrome.storage.local.remove('pageLinks'));
    await account.call('POST', '/links', { title: 'Newer', destination_url: 'https://example.org/newer' });
    const { page, popup } = await openPopupOn(url);
    await popup.getByTestId('short-url').waitFor();
    expect(await popup.getByTestId('short-url').textContent()).toBe(first.shortUrl);
    expect(await popup.getByLabel('Title').inputValue()).toBe('My own title');
    expect((await allLinks()).find((link) => link.destination_url === url)?.title).toBe('My own title');
    await popup.close();
    await page.close();
  });

  test('a fresh link gets the chosen slug, tags (picked by typing, and new), UTM and comments', async () => {
    const tag = await account.call('POST', '/tags', { name: 'Reading', color: 'cyan' });
    await account.call('POST', '/tags', { name: 'Recipes', color: 'lime' });
    const url = pages.url('blog', '/post/3');
    const { page, popup, shortUrl } = await shortenInPopup(url);
    await popup.getByLabel('Title').fill('A good read');
    await popup.getByLabel('Slug').fill('good-read');
    await popup.getByLabel('Tags').fill('rea');
    await expect.poll(() => popup.getByRole('option').allTextContents()).toEqual(['Reading', 'Create rea']);
    await popup.getByLabel('Tags').press('Enter');
    await popup.getByLabel('Tags').fill('Later');
    await popup.getByLabel('Tags').press('Enter');
    await popup.getByText('UTM parameters').click();
    await popup.getByLabel('utm_source').fill('extension');
    await popup.getByLabel('Comments').fill('Found on a Sunday');
    await popup.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => popup.getByTestId('short-url').textContent()).toBe('https://sho.rt/good-read');
    expect(await popup.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved: the link is now sho.rt/good-read');
    expect(await readClipboard(browser, pages.loopback)).toBe('https://sho.rt/good-read');

    const links = await allLinks();
    const saved = links.find((item) => item.slug === 'good-read');
    expect(saved).toMatchObject({ title: 'A good read', destination_url: `${url}?utm_source=extension`, comments: 'Found on a Sunday' });
    expect(saved?.tags.map((t) => t.name)).toEqual(['Later', 'Reading']);
    expect(saved?.tags.find((t) => t.name === 'Reading')?.id).toBe(tag.body.id);
    // The link with the random slug made by Shorten is gone.
    expect(links.some((item) => item.short_url === shortUrl)).toBe(false);
    await popup.close();
    await page.close();
  });

  test('on a page shortened earlier, Change… moves the link to a new slug after a confirmation, keeping everything', async () => {
    const url = pages.url('blog', '/post/move');
    const expiresAt = Date.now() + 30 * 86_400_000;
    const original = (
      await account.call('POST', '/links', {
        title: 'Moving day',
        destination_url: url,
        utm: { campaign: 'spring' },
        tag_names: ['Reading'],
        comments: 'keep me',
        expires_at: expiresAt,
        expiration_url: 'https://example.org/over',
        slug: 'old-home',
      })
    ).body as ListedLink;
    await visitLink(server, 'old-home', 2);
    const { page, popup } = await openPopupOn(url);
    await popup.getByTestId('short-url').waitFor();
    expect(await popup.locator('.page-link-state').textContent()).toBe('This page’s short link · 2 clicks');
    expect(await popup.getByLabel('Slug').getAttribute('readonly')).not.toBeNull();

    await popup.getByRole('button', { name: 'Change…' }).click();
    await popup.getByLabel('Slug').fill('new-home');
    await popup.getByRole('button', { name: 'Save' }).click();
    const question = popup.getByRole('group', { name: 'Move link' });
    expect(await question.textContent()).toContain(
      'Move this link to sho.rt/new-home? sho.rt/old-home stops working at once; its 2 clicks stay in the account’s overview, not in the new link’s statistics.',
    );
    expect(await inView(question)).toBe(true);
    expect((await allLinks()).some((link) => link.slug === 'new-home')).toBe(false);
    await popup.getByRole('button', { name: 'Move link' }).click();
    await expect.poll(() => popup.getByTestId('short-url').textContent()).toBe('https://sho.rt/new-home');
    expect(await popup.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved: the link is now sho.rt/new-home');
    expect(await readClipboard(browser, pages.loopback)).toBe('https://sho.rt/new-home');

    const links = await allLinks();
    expect(links.some((link) => link.id === original.id)).toBe(false);
    const moved = links.find((link) => link.slug === 'new-home');
    expect(moved).toMatchObject({
      title: 'Moving day',
      destination_url: `${url}?utm_campaign=spring`,
      comments: 'keep me',
      expires_at: expiresAt,
      expiration_url: 'https://example.org/over',
      click_count: 0,
    });
    expect(moved?.tags.map((tag) => tag.name)).toEqual(['Reading']);
    expect((await fetch(`${server.origin}/old-home`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${server.origin}/new-home`, { redirect: 'manual' })).headers.get('location')).toBe(`${url}?utm_campaign=spring`);
    await popup.close();

    // Reopened, the popup shows the moved link, and nothing new was made.
    const total = await linkTotal();
    const again = await reopenPopupOn(page);
    await expect.poll(() => again.getByTestId('short-url').textContent()).toBe('https://sho.rt/new-home');
    expect(await linkTotal()).toBe(total);
    await again.close();
    await page.close();
  });

  test('a slug already in use is shown under the slug box, and nothing changes', async () => {
    await account.call('POST', '/links', { title: 'Taken', destination_url: 'https://example.org/taken', slug: 'taken-slug' });
    const before = await linkTotal();
    const { page, popup } = await shortenInPopup(pages.url('shop', '/item/9'));
    expect(await linkTotal()).toBe(before + 1);
    await popup.getByLabel('Slug').fill('taken-slug');
    await popup.getByRole('button', { name: 'Save' }).click();
    const slugError = popup.locator('.field.invalid', { has: popup.getByLabel('Slug') }).getByRole('alert');
    await expect.poll(() => slugError.textContent()).toBe('This slug is already taken. Choose another one.');
    expect(await popup.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    expect(await linkTotal()).toBe(before + 1);
    await popup.close();
    await page.close();
  });

  test('at the toolbar popup’s size, Save stays in view, and a refused save brings its field into view with the focus', async () => {
    const { page, popup } = await shortenInPopup(pages.url('shop', '/item/10'));
    await popup.getByText('UTM parameters').click();
    await popup.getByText('Expiry').click();
    // The form is taller than the popup: without the sticky footer, Save would be below the fold.
    expect(await popup.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(TOOLBAR_POPUP.height);
    const save = popup.getByRole('button', { name: 'Save' });
    expect(await inView(save)).toBe(true);

    await popup.getByLabel('Slug').fill('no spaces!');
    await save.click();
    const slugError = popup.locator('.field.invalid', { has: popup.getByLabel('Slug') }).getByRole('alert');
    await expect.poll(() => slugError.textContent()).toBe('The slug may contain only letters, digits, "-" and "_".');
    await expect.poll(() => popup.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('slug');
    expect(await inView(slugError)).toBe(true);
    expect(await inView(popup.getByLabel('Slug'))).toBe(true);
    expect(await inView(save)).toBe(true);

    // Scrolled to the bottom, an error at the top of the form is brought back into view whole.
    await popup.getByLabel('Slug').fill('');
    await popup.getByLabel('Title').fill('   ');
    await popup.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await inView(popup.getByLabel('Title'))).toBe(false);
    await save.click();
    const titleError = popup.locator('.field.invalid', { has: popup.getByLabel('Title') }).getByRole('alert');
    await expect.poll(() => titleError.textContent()).toBe('The title must not be empty.');
    await expect.poll(() => popup.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');
    await expect.poll(() => inView(titleError)).toBe(true);
    expect(await inView(popup.getByLabel('Title'))).toBe(true);
    await popup.close();
    await page.close();
  });

  test('the toolbar popup itself (chrome.action.openPopup) creates nothing when it opens', async () => {
    const before = await linkTotal();
    const page = await browser.context.newPage();
    await page.goto(pages.url('blog', '/toolbar'));
    await page.bringToFront();
    // The toolbar popup is not a page Playwright drives: the service worker sees it open, the server sees what it did.
    const asked: string[] = [];
    const record = (request: IncomingMessage) => asked.push(`${request.method} ${request.url}`);
    server.app.server.on('request', record);
    await browser.worker.evaluate(async (url) => {
      const [tab] = await chrome.tabs.query({ url });
      await chrome.action.openPopup(tab ? { windowId: tab.windowId } : {});
    }, page.url());
    await expect
      .poll(() =>
        browser.worker.evaluate(
          async () => (await chrome.runtime.getContexts({ contextTypes: ['POPUP' as chrome.runtime.ContextType] })).length,
        ),
      )
      .toBe(1);
    // It looks the page up (with the tags, for the form); the old popup shortened the tab right after.
    await expect.poll(() => asked.some((line) => line.includes('tags.list')), { timeout: 10_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.app.server.off('request', record);
    expect(asked.filter((line) => /links\.(create|upsert)|^POST \/api\/v1\/links/.test(line))).toEqual([]);
    expect(await linkTotal()).toBe(before);
    await page.close();
  });

  test('browser pages and local addresses get a message instead of a request', async () => {
    const before = await linkTotal();
    const page = await browser.context.newPage();
    await page.goto('chrome://version');
    await page.bringToFront();
    const popup = await openPopupWindow(browser);
    await expect.poll(() => popup.locator('.banner').textContent()).toContain('Browser pages cannot be shortened');
    await popup.close();
    await page.goto(`${server.origin}/healthz`);
    await page.bringToFront();
    const again = await openPopupWindow(browser);
    await expect.poll(() => again.locator('.banner').textContent()).toMatch(/already a short link|private or local/);
    await again.close();
    await page.close();
    expect(await linkTotal()).toBe(before);
  });
});

test('no extension page threw or logged an error in any scenario', () => {
  expect(browser.pageErrors).toEqual([]);
});
