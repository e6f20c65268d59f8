import { createAccount, linkRows, seedTwoPagesOfLinks, slugsShown, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { VIEWPORTS, type ViewportName } from './layout.ts';
import { startTestServer } from './test-server.ts';

/**
 * The list remembers where you are (issue #32): search, tag filter, sort and page are in the address,
 * so a reload, Back and a bookmark keep them; a tag (a chip in a row, a tag's link count) filters the
 * list; a tag is renamed by leaving its field or with Save, and says Saved; one link is "1 link".
 * Each at a laptop's and a phone's size, on a server of its own (seedTwoPagesOfLinks takes slugs,
 * which are the server's).
 */
let browser: DashboardBrowser;
const servers: TestServer[] = [];
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

beforeAll(async () => {
  browser = await launchDashboardBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

describe.each(['desktop', 'phone'] as const)('at %s size', (size: ViewportName) => {
  let server: TestServer;
  let account: TestAccount;
  let tags: Record<'Work' | 'Home', { id: string }>;
  let context: BrowserContext;
  let page: Page;
  const addressOf = () => {
    const url = new URL(page.url());
    return `${url.pathname}${url.search}`;
  };

  beforeAll(async () => {
    server = await startTestServer();
    servers.push(server);
    account = await createAccount(server, { name: `Lists ${size}` });
    tags = await seedTwoPagesOfLinks(account);
    const opening = await browser.newContext({ viewport: VIEWPORTS[size] });
    opened.push(opening);
    context = opening.context;
    page = await context.newPage();
    await signInWith(page, server.origin, account.key);
    await linkRows(page).first().waitFor();
  });
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => screenshotAll(context, `list-${size}-${task.name}`));
  });

  test('sort and page are in the address; a reload keeps them', async () => {
    await page.getByLabel('Sort links').selectOption({ label: 'Title A–Z' });
    await expect.poll(addressOf).toBe('/app/?sort=title-az');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(addressOf).toBe('/app/?sort=title-az&page=2');
    // Filler 1, 10…19, 2…9, Pancake recipe on page 1; then these two.
    await expect.poll(() => slugsShown(page)).toEqual(['q3', 'offsite']);
    await page.reload();
    await expect.poll(() => slugsShown(page)).toEqual(['q3', 'offsite']);
    expect(await page.getByLabel('Sort links').inputValue()).toBe('title-az');
    expect(await page.locator('.pager').textContent()).toContain('Page 2 of 2');
  });

  test('a search typed is one step of history: Back goes to the list before it, Forward to the search', async () => {
    await page.getByLabel('Search links').pressSequentially('filler 1', { delay: 20 });
    await expect.poll(addressOf).toBe('/app/?search=filler+1&sort=title-az');
    await expect.poll(async () => (await slugsShown(page)).length).toBe(11);
    await page.goBack();
    await expect.poll(addressOf).toBe('/app/?sort=title-az&page=2');
    await expect.poll(() => slugsShown(page)).toEqual(['q3', 'offsite']);
    expect(await page.getByLabel('Search links').inputValue()).toBe('');
    await page.goBack();
    await expect.poll(addressOf).toBe('/app/?sort=title-az');
    await expect.poll(async () => (await slugsShown(page)).length).toBe(20);
    await page.goForward();
    await page.goForward();
    await expect.poll(() => page.getByLabel('Search links').inputValue()).toBe('filler 1');
    await expect.poll(async () => (await slugsShown(page)).length).toBe(11);
  });

  test('a bookmarked address opens the same list in a new tab', async () => {
    const bookmark = `${server.origin}/app/?search=o&tag=${tags.Work.id}&sort=title-za`;
    const tab = await context.newPage();
    await tab.goto(bookmark);
    await expect.poll(() => slugsShown(tab)).toEqual(['offsite', 'q3']);
    expect(await tab.getByLabel('Search links').inputValue()).toBe('o');
    expect(await tab.getByLabel('Filter by tag').inputValue()).toBe(tags.Work.id);
    expect(await tab.getByLabel('Sort links').inputValue()).toBe('title-za');
    await tab.close();
  });

  test('a tag chip in a row filters the list by that tag, keeping the order; Back undoes it', async () => {
    await page.goto(`${server.origin}/app/?sort=title-az`);
    await linkRows(page).first().waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('[data-slug="offsite"]').getByRole('link', { name: 'Links tagged Home' }).click();
    await expect.poll(addressOf).toBe(`/app/?tag=${tags.Home.id}&sort=title-az`);
    await expect.poll(() => slugsShown(page)).toEqual(['pancakes', 'offsite']);
    expect(await page.getByLabel('Filter by tag').inputValue()).toBe(tags.Home.id);
    await page.goBack();
    await expect.poll(() => slugsShown(page)).toEqual(['q3', 'offsite']);
  });

  test('a tag’s link count on the Tags page opens its links, in the page', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    await page.getByTestId('tag-row-Work').waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('link', { name: '2 links tagged Work' }).click();
    await expect.poll(addressOf).toBe(`/app/?tag=${tags.Work.id}`);
    await expect.poll(() => slugsShown(page)).toEqual(['offsite', 'q3']);
    expect(await page.title()).toBe('Links · Shortlinks');
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test('a tag is renamed by leaving its field, or with Save, and says Saved', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    const nameOf = async (id: string) => (await account.call('GET', '/tags')).body.tags.find((tag: { id: string }) => tag.id === id)?.name;
    // Typed, then the field left with Tab: saved.
    await page.getByLabel('Name of Home').fill('Household');
    await page.getByLabel('Name of Home').press('Tab');
    await expect.poll(() => page.getByTestId('tag-row-Household').getByRole('status').textContent()).toBe('Saved');
    expect(await nameOf(tags.Home.id)).toBe('Household');
    // Typed, then Save clicked: saved once.
    const renames: string[] = [];
    const count = (request: { url(): string }) => request.url().includes('tags.update') && renames.push(request.url());
    page.on('request', count);
    await page.getByLabel('Name of Work').fill('Office');
    await page.getByTestId('tag-row-Work').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('tag-row-Office').getByRole('status').textContent()).toBe('Saved');
    expect(await nameOf(tags.Work.id)).toBe('Office');
    page.off('request', count);
    expect(renames).toHaveLength(1);
    // And with Enter, as before.
    await page.getByLabel('Name of Office').fill('Work');
    await page.getByLabel('Name of Office').press('Enter');
    await expect.poll(() => nameOf(tags.Work.id)).toBe('Work');
    await expect.poll(() => page.getByTestId('tag-row-Work').getByRole('status').textContent()).toBe('Saved');
  });
});

test('one link is “1 link”: the header, the list and the Tags page', async () => {
  const server = servers[0] as TestServer;
  const single = await createAccount(server, { name: 'Single', plan: 'unlimited' });
  const tag = (await single.call('POST', '/tags', { name: 'Solo' })).body;
  await single.call('POST', '/links', { title: 'Only one', destination_url: 'https://example.org/one', tag_ids: [tag.id] });
  const opening = await browser.newContext({ viewport: VIEWPORTS.phone });
  opened.push(opening);
  const page = await opening.context.newPage();
  await signInWith(page, server.origin, single.key);
  await expect.poll(() => page.getByTestId('usage-links').textContent()).toBe('1 link · no limit');
  expect(await page.getByTestId('usage-tags').textContent()).toBe('1 tag · no limit');
  await expect.poll(() => page.locator('.links-view .toolbar [role="status"]').textContent()).toBe('1 link');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
  await page.getByRole('link', { name: '1 link tagged Solo' }).waitFor();
});

test('no page threw, logged an error, broke its CSP or asked another origin for anything', () => {
  const origins = servers.map((server) => `${server.origin}/`);
  for (const { watch } of opened) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
    expect(watch.requests.filter((url) => !origins.some((origin) => url.startsWith(origin)) && !url.startsWith('data:'))).toEqual([]);
  }
});
