import {
  createAccount,
  filterAndSearchTwoPagesOfLinks,
  linkRows,
  seedTwoPagesOfLinks,
  slugsShown,
  type TestAccount,
  type TestServer,
} from '@shortlinks/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, type ExtensionBrowser, launchExtensionBrowser, screenshotAll } from './browser.ts';
import { startTestServer } from './test-server.ts';
import { visitLink } from './world.ts';

let server: TestServer;
let browser: ExtensionBrowser;
let account: TestAccount;
let manage: Page;
const tags: Record<string, { id: string }> = {};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchExtensionBrowser()]);
  account = await createAccount(server);
  Object.assign(tags, await seedTwoPagesOfLinks(account));
  await visitLink(server, 'pancakes', 3);

  await configure(browser, server.origin, account.key);
  manage = await browser.context.newPage();
  await manage.goto(browser.url('tabs/manage.html'));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(browser.context, `manage-${task.name}`));
});

const rows = () => linkRows(manage);
const shownSlugs = () => slugsShown(manage);

describe('manage page', () => {
  test('lists the links newest first, 20 a page, with click counts and the plan usage', async () => {
    await expect.poll(() => rows().count()).toBe(20);
    expect((await shownSlugs()).slice(0, 3)).toEqual(['offsite', 'pancakes', 'q3']);
    expect(await manage.locator('[data-slug="pancakes"] .clicks strong').textContent()).toBe('3');
    expect(await manage.getByTestId('usage-tags').textContent()).toContain('2 of 25 tags');
    expect(await manage.getByTestId('usage-links').textContent()).toMatch(/^22/);
    await manage.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => rows().count()).toBe(2);
    expect(await shownSlugs()).toHaveLength(2);
    await manage.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => rows().count()).toBe(20);
  });

  test('Next brings page 2’s top into view with the focus, not the bottom of the page', async () => {
    await manage.setViewportSize({ width: 1100, height: 600 });
    await manage.getByRole('button', { name: 'Next' }).scrollIntoViewIfNeeded();
    await manage.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => rows().count()).toBe(2);
    await expect.poll(() => manage.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Links');
    const top = await manage.getByRole('region', { name: 'Links' }).boundingBox();
    expect(top?.y).toBeGreaterThanOrEqual(0);
    expect(top?.y).toBeLessThan(600 - 100);
    await manage.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => rows().count()).toBe(20);
    await manage.setViewportSize({ width: 1200, height: 800 });
  });

  test('rows are two lines tall, their short URL and destination are links, and the page keeps its width when it scrolls', async () => {
    const row = manage.locator('[data-slug="q3"]');
    expect((await row.boundingBox())?.height).toBeLessThanOrEqual(60);
    expect(await row.getByRole('link', { name: 'sho.rt/q3' }).getAttribute('href')).toBe('https://sho.rt/q3');
    expect(await row.getByRole('link', { name: 'https://example.org/q3' }).getAttribute('href')).toBe('https://example.org/q3');
    expect(await manage.evaluate(() => getComputedStyle(document.documentElement).scrollbarGutter)).toBe('stable');
  });

  test('filters by tag and searches by title, address or slug', async () => {
    await filterAndSearchTwoPagesOfLinks(manage);
  });

  test('edits a link with the same form as the popup', async () => {
    const row = manage.locator('[data-slug="q3"]');
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Title').fill('Q3 report (final)');
    await row.getByRole('button', { name: 'Remove tag Work' }).click();
    await row.getByLabel('Tags').fill('Finance');
    await row.getByLabel('Tags').press('Enter');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.link-title').textContent()).toBe('Q3 report (final)');
    const saved = await account.call('GET', '/links?per_page=100');
    const link = saved.body.links.find((item: { slug: string }) => item.slug === 'q3');
    expect(link.title).toBe('Q3 report (final)');
    expect(link.tags.map((tag: { name: string }) => tag.name)).toEqual(['Finance']);
  });

  test('an edit error is shown at its field and saves nothing', async () => {
    const row = manage.locator('[data-slug="offsite"]');
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Title').fill('   ');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.field.invalid').getByRole('alert').textContent()).toBe('The title must not be empty.');
    expect(await row.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    await row.getByRole('button', { name: 'Cancel' }).click();
    const stored = await account.call('GET', '/links?per_page=100');
    expect(stored.body.links.find((item: { slug: string }) => item.slug === 'offsite').title).toBe('Team offsite');
  });

  test('deletes a link only after confirmation', async () => {
    const row = manage.locator('[data-slug="pancakes"]');
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    expect((await account.call('GET', '/links?per_page=100')).body.total).toBe(22);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Delete link' }).click();
    await expect.poll(() => manage.locator('[data-slug="pancakes"]').count()).toBe(0);
    const after = await account.call('GET', '/links?per_page=100');
    expect(after.body.total).toBe(21);
    expect(after.body.links.some((item: { slug: string }) => item.slug === 'pancakes')).toBe(false);
  });

  test('the tag manager creates, renames, recolours and deletes tags, with link counts', async () => {
    // The tabs follow the keyboard pattern: arrow keys move between them.
    await manage.getByRole('tab', { name: 'Links' }).focus();
    await manage.keyboard.press('ArrowRight');
    expect(await manage.getByRole('tab', { name: 'Tags' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => manage.getByTestId('tag-row-Work').locator('td').nth(3).textContent()).toBe('1');
    await manage.getByLabel('New tag', { exact: true }).fill('Travel');
    await manage.getByRole('group', { name: 'Colour of the new tag' }).getByLabel('fuchsia').check();
    await manage.getByRole('button', { name: 'Add tag' }).click();
    await manage.getByTestId('tag-row-Travel').waitFor();

    await manage.getByLabel('New tag', { exact: true }).fill('travel');
    await manage.getByRole('button', { name: 'Add tag' }).click();
    await expect.poll(() => manage.getByText('Another tag already has this name (names ignore case).').count()).toBe(1);

    const home = manage.getByTestId('tag-row-Home');
    await home.getByLabel('Name of Home').fill('Household');
    await home.getByRole('button', { name: 'Rename' }).click();
    const household = manage.getByTestId('tag-row-Household');
    await household.getByLabel('slate').click();
    await expect
      .poll(async () => (await account.call('GET', '/tags')).body.tags.find((t: { id: string }) => t.id === tags.Home!.id))
      .toMatchObject({
        name: 'Household',
        color: 'slate',
        link_count: 1,
      });

    await manage.getByRole('button', { name: 'Delete Travel' }).click();
    await manage.getByRole('button', { name: 'Delete tag' }).click();
    await expect.poll(() => manage.getByTestId('tag-row-Travel').count()).toBe(0);
    const listed = (await account.call('GET', '/tags')).body.tags.map((t: { name: string }) => t.name);
    expect(listed.sort()).toEqual(['Finance', 'Household', 'Work']);
  });

  test('an expired link is marked Expired, with the date and time it expired', async () => {
    const expiresAt = Date.now() + 1_500;
    await account.call('POST', '/links', {
      title: 'Flash sale',
      destination_url: 'https://example.org/flash',
      slug: 'flash',
      expires_at: expiresAt,
    });
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 200));
    await manage.getByRole('tab', { name: 'Links' }).click();
    await manage.reload();
    const row = manage.locator('[data-slug="flash"]');
    await row.waitFor();
    expect(await row.locator('.badge').textContent()).toBe('Expired');
    const when = await manage.evaluate(
      (ms) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(ms),
      expiresAt,
    );
    expect(await row.locator('.expiry').textContent()).toBe(`Expired ${when}`);
    expect(await manage.locator('[data-slug="offsite"] .badge').count()).toBe(0);
  });
});

test('no extension page threw or logged an error in any scenario', () => {
  expect(browser.pageErrors).toEqual([]);
});
