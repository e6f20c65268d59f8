import type { TestAccount, TestServer } from '@shortlinks/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, type ExtensionBrowser, openPopupWindow, readClipboard, screenshotAll } from './browser.ts';
import { type ScenarioWorld, startScenarioWorld } from './world.ts';

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

/** Opens a web page as the current tab, then the popup on it. */
async function shortenInPopup(url: string) {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.bringToFront();
  const popup = await openPopupWindow(browser);
  const shortUrl = popup.getByTestId('short-url');
  await shortUrl.waitFor();
  return { page, popup, shortUrl: (await shortUrl.textContent()) ?? '' };
}

describe('options', () => {
  test('Test connection reports an unreachable server, then a refused key, then success with the plan usage', async () => {
    const options = await browser.context.newPage();
    await options.goto(browser.url('options.html'));
    const report = options.getByTestId('connection-report');

    await options.getByLabel('Server address').fill('http://127.0.0.1:9');
    await options.getByLabel('API key').fill(account.key);
    await options.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => report.textContent()).toContain('Could not reach http://127.0.0.1:9');

    await options.getByLabel('Server address').fill(server.origin);
    await options.getByLabel('API key').fill('slk_not_a_real_key');
    await options.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => report.textContent()).toContain('refused the API key (401');

    await options.getByLabel('API key').fill(account.key);
    await options.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => report.textContent()).toMatch(/Connected\. 0 of \S+ links and 0 of 25 tags in use/);
    await options.close();
  });

  test('a server address with a path is refused at its field', async () => {
    const options = await browser.context.newPage();
    await options.goto(browser.url('options.html'));
    await options.getByLabel('Server address').fill('https://links.example.com/some/path');
    await options.getByLabel('API key').fill(account.key);
    await options.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => options.getByRole('alert').textContent()).toContain('without a path');
    await options.close();
  });
});

describe('popup', () => {
  beforeAll(() => configure(browser, `${server.origin}/api/v1`, account.key));

  test('shortens the current tab (not itself), copies the short URL and shows its QR code', async () => {
    const url = pages.url('blog', '/post/1');
    const { page, popup, shortUrl } = await shortenInPopup(url);
    expect(shortUrl).toMatch(/^https:\/\/sho\.rt\/[A-Za-z0-9_-]{6}$/);
    await expect.poll(() => popup.getByRole('status').filter({ hasText: 'Copied' }).count()).toBe(1);
    expect(await readClipboard(browser, pages.loopback)).toBe(shortUrl);
    await popup.getByTestId('qr-code').waitFor();
    expect(await popup.getByRole('link', { name: 'PNG' }).getAttribute('download')).toMatch(/^qr-.+\.png$/);

    const listed = await account.call('GET', '/links');
    expect(listed.body.links).toHaveLength(1);
    expect(listed.body.links[0]).toMatchObject({ destination_url: url, short_url: shortUrl, title: 'Page /post/1' });
    await popup.close();
    await page.close();
  });

  test('the same page shortened again gives the same link, never a duplicate', async () => {
    const url = pages.url('blog', '/post/2');
    const first = await shortenInPopup(url);
    await first.popup.close();
    await first.page.close();
    const second = await shortenInPopup(url);
    expect(second.shortUrl).toBe(first.shortUrl);
    await expect.poll(() => second.popup.getByText('Already shortened').count()).toBe(1);
    const listed = await account.call('GET', '/links');
    expect(listed.body.links.filter((link: { destination_url: string }) => link.destination_url === url)).toHaveLength(1);
    await second.popup.close();
    await second.page.close();
  });

  test('a title the person typed survives shortening the same page again', async () => {
    const url = pages.url('blog', '/post/title');
    const first = await shortenInPopup(url);
    await first.popup.getByLabel('Title').fill('My own title');
    await first.popup.getByRole('button', { name: 'Save' }).click();
    await first.popup.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await first.popup.close();
    await first.page.close();
    const second = await shortenInPopup(url);
    expect(second.shortUrl).toBe(first.shortUrl);
    expect(await second.popup.getByLabel('Title').inputValue()).toBe('My own title');
    const listed = await account.call('GET', '/links?per_page=100');
    expect(listed.body.links.find((link: { destination_url: string }) => link.destination_url === url).title).toBe('My own title');
    await second.popup.close();
    await second.page.close();
  });

  test('a fresh link gets the chosen slug, tags (existing and new), UTM and comments', async () => {
    const tag = await account.call('POST', '/tags', { name: 'Reading', color: 'cyan' });
    const url = pages.url('blog', '/post/3');
    const { page, popup, shortUrl } = await shortenInPopup(url);
    await popup.getByLabel('Title').fill('A good read');
    await popup.getByLabel('Slug').fill('good-read');
    await popup.getByRole('button', { name: '+ Reading' }).click();
    await popup.getByLabel('Tags').fill('Later');
    await popup.getByLabel('Tags').press('Enter');
    await popup.getByText('UTM parameters').click();
    await popup.getByLabel('utm_source').fill('extension');
    await popup.getByLabel('Comments').fill('Found on a Sunday');
    await popup.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => popup.getByTestId('short-url').textContent()).toBe('https://sho.rt/good-read');

    const link = await account.call('GET', '/links');
    const saved = link.body.links.find((item: { slug: string }) => item.slug === 'good-read');
    expect(saved).toMatchObject({ title: 'A good read', destination_url: `${url}?utm_source=extension`, comments: 'Found on a Sunday' });
    expect(saved.tags.map((t: { name: string }) => t.name)).toEqual(['Later', 'Reading']);
    expect(saved.tags.find((t: { name: string }) => t.name === 'Reading').id).toBe(tag.body.id);
    // The link with the random slug made when the popup opened is gone.
    const old = await account.call('GET', `/links?per_page=100`);
    expect(old.body.links.some((item: { short_url: string }) => item.short_url === shortUrl)).toBe(false);
    await popup.close();
    await page.close();
  });

  test('a slug already in use is shown under the slug box, and nothing changes', async () => {
    await account.call('POST', '/links', { title: 'Taken', destination_url: 'https://example.org/taken', slug: 'taken-slug' });
    const before = await account.call('GET', '/links?per_page=100');
    const { page, popup } = await shortenInPopup(pages.url('shop', '/item/9'));
    const afterOpen = await account.call('GET', '/links?per_page=100');
    await popup.getByLabel('Slug').fill('taken-slug');
    await popup.getByRole('button', { name: 'Save' }).click();
    const slugError = popup.locator('.field.invalid', { has: popup.getByLabel('Slug') }).getByRole('alert');
    await expect.poll(() => slugError.textContent()).toBe('This slug is already taken. Choose another one.');
    expect(await popup.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    const after = await account.call('GET', '/links?per_page=100');
    expect(after.body.total).toBe(afterOpen.body.total);
    expect(afterOpen.body.total).toBe(before.body.total + 1);
    await popup.close();
    await page.close();
  });

  test('the toolbar popup itself (chrome.action.openPopup) shortens the active tab', async () => {
    const url = pages.url('blog', '/toolbar');
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.bringToFront();
    // The toolbar popup is not a page Playwright drives; what it did is seen on the server.
    await browser.worker.evaluate(() => chrome.action.openPopup());
    await expect
      .poll(async () =>
        (await account.call('GET', '/links?per_page=100')).body.links.map((link: { destination_url: string }) => link.destination_url),
      )
      .toContain(url);
    await page.close();
  });

  test('browser pages and local addresses get a message instead of a request', async () => {
    const before = await account.call('GET', '/links');
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
    expect((await account.call('GET', '/links')).body.total).toBe(before.body.total);
  });
});

test('no extension page threw or logged an error in any scenario', () => {
  expect(browser.pageErrors).toEqual([]);
});
