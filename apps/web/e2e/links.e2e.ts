import {
  createAccount,
  filterAndSearchTwoPagesOfLinks,
  linkRows,
  seedTwoPagesOfLinks,
  slugsShown,
  type TestAccount,
  type TestServer,
} from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { startTestServer } from './test-server.ts';

let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;
let context: BrowserContext;
let watch: PageWatch;
let page: Page;
const tags: Record<string, { id: string }> = {};

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  account = await createAccount(server);
  Object.assign(tags, await seedTwoPagesOfLinks(account));
  ({ context, watch } = await browser.newContext());
  page = await context.newPage();
  await signInWith(page, server.origin, account.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(context, `links-${task.name}`));
});

const rows = () => linkRows(page);
const shownSlugs = () => slugsShown(page);
const linkBySlug = async (slug: string) =>
  (await account.call('GET', '/links?per_page=100')).body.links.find((item: { slug: string }) => item.slug === slug);

describe('the links view', () => {
  test('is the home view: newest first, 20 a page, with the plan usage in the header', async () => {
    expect(await page.title()).toBe('Links · Shortlinks');
    await expect.poll(() => rows().count()).toBe(20);
    expect((await shownSlugs()).slice(0, 3)).toEqual(['offsite', 'pancakes', 'q3']);
    expect(await page.getByTestId('usage-links').textContent()).toMatch(/^22 of 1,000 links/);
    expect(await page.getByTestId('usage-tags').textContent()).toContain('2 of 25 tags');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => rows().count()).toBe(2);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => rows().count()).toBe(20);
  });

  test('filters by tag and searches by title, address or slug', async () => {
    await filterAndSearchTwoPagesOfLinks(page);
  });

  test('creates a link with its own slug and tags, new and existing', async () => {
    await page.getByRole('button', { name: 'New link' }).click();
    const form = page.getByRole('form', { name: 'New link' });
    await form.getByLabel('Destination').fill('https://example.org/spring-launch');
    await form.getByLabel('Title').fill('Spring launch');
    await form.getByLabel('Slug').fill('spring');
    // An existing tag, picked from the suggestions as typed; then a new one, created with Enter.
    await form.getByLabel('Tags').fill('wor');
    await form.getByRole('option', { name: 'Work' }).click();
    await form.getByLabel('Tags').fill('Launch');
    await form.getByLabel('Tags').press('Enter');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('.banner.created').textContent()).toContain('https://sho.rt/spring');
    await expect.poll(shownSlugs).toContain('spring');
    expect((await shownSlugs())[0]).toBe('spring');
    const stored = await linkBySlug('spring');
    expect(stored).toMatchObject({ title: 'Spring launch', destination_url: 'https://example.org/spring-launch' });
    expect(stored.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['Launch', 'Work']);
    // The header's usage follows.
    await expect.poll(() => page.getByTestId('usage-links').textContent()).toMatch(/^23 of/);
  });

  test('a new link without a title is named after its destination; a taken slug is refused at its field', async () => {
    await page.getByRole('button', { name: 'New link' }).click();
    const form = page.getByRole('form', { name: 'New link' });
    await form.getByLabel('Destination').fill('https://example.org/taken');
    await form.getByLabel('Slug').fill('q3');
    await form.getByRole('button', { name: 'Create link' }).click();
    const slugError = form.locator('.field.invalid').getByRole('alert');
    await expect.poll(() => slugError.textContent()).toBe('This slug is already taken. Choose another one.');
    expect(await form.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    expect((await account.call('GET', '/links?per_page=1')).body.total).toBe(23);
    await form.getByLabel('Slug').fill('');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(async () => (await account.call('GET', '/links?per_page=1')).body.links[0]?.title).toBe('example.org/taken');
  });

  test('edits a link with the shared link form', async () => {
    const row = page.locator('[data-slug="q3"]');
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Title').fill('Q3 report (final)');
    await row.getByRole('button', { name: 'Remove tag Work' }).click();
    await row.getByLabel('Tags').fill('Finance');
    await row.getByLabel('Tags').press('Enter');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.link-title').textContent()).toBe('Q3 report (final)');
    const link = await linkBySlug('q3');
    expect(link.title).toBe('Q3 report (final)');
    expect(link.tags.map((tag: { name: string }) => tag.name)).toEqual(['Finance']);
  });

  test('deletes a link only after confirmation', async () => {
    const row = page.locator('[data-slug="pancakes"]');
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    expect(await linkBySlug('pancakes')).toBeDefined();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Delete link' }).click();
    await expect.poll(() => page.locator('[data-slug="pancakes"]').count()).toBe(0);
    expect(await linkBySlug('pancakes')).toBeUndefined();
  });
});

describe('the tags view', () => {
  test('creates, renames, recolours and deletes tags, with link counts; each tag leads to its statistics', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    expect(page.url()).toBe(`${server.origin}/app/tags`);
    expect(await page.title()).toBe('Tags · Shortlinks');
    await expect.poll(() => page.getByTestId('tag-row-Work').locator('td').nth(3).textContent()).toBe('2');
    await page.getByLabel('New tag', { exact: true }).fill('Travel');
    await page.getByRole('group', { name: 'Colour of the new tag' }).getByLabel('fuchsia').check();
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByTestId('tag-row-Travel').waitFor();

    const home = page.getByTestId('tag-row-Home');
    await home.getByLabel('Name of Home').fill('Household');
    await home.getByRole('button', { name: 'Rename' }).click();
    await page.getByTestId('tag-row-Household').getByLabel('slate').click();
    await expect
      .poll(async () => (await account.call('GET', '/tags')).body.tags.find((t: { id: string }) => t.id === tags.Home!.id))
      .toMatchObject({ name: 'Household', color: 'slate', link_count: 1 });

    await page.getByRole('button', { name: 'Delete Travel' }).click();
    await page.getByRole('button', { name: 'Delete tag' }).click();
    await expect.poll(() => page.getByTestId('tag-row-Travel').count()).toBe(0);
    const names = (await account.call('GET', '/tags')).body.tags.map((t: { name: string }) => t.name);
    expect(names.sort()).toEqual(['Finance', 'Household', 'Launch', 'Work']);

    // The tag manager's Statistics is a plain link, followed in the page: no reload, the key stays.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('link', { name: 'Statistics of Work' }).click();
    await expect.poll(() => page.url()).toBe(`${server.origin}/app/tags/${tags.Work!.id}`);
    await expect.poll(() => page.title()).toBe('Work · Statistics · Shortlinks');
    await expect.poll(() => page.getByText('The links that carry this tag now: 2 links', { exact: false }).count()).toBe(1);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });
});

describe('navigation', () => {
  test('every view has its own address and title; back and forward work; a deep link opens directly', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Overview' }).click();
    expect(page.url()).toBe(`${server.origin}/app/overview`);
    expect(await page.title()).toBe('Overview · Shortlinks');
    expect(await nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Links' }).click();
    const offsite = await linkBySlug('offsite');
    await page.getByRole('link', { name: 'Statistics of Team offsite' }).click();
    await expect.poll(() => page.url()).toBe(`${server.origin}/app/links/${offsite.id}`);
    await expect.poll(() => page.title()).toBe('Team offsite · Statistics · Shortlinks');
    // The Links entry stays current below it.
    expect(await nav.getByRole('link', { name: 'Links' }).getAttribute('aria-current')).toBe('page');
    await page.goBack();
    await rows().first().waitFor();
    expect(await page.title()).toBe('Links · Shortlinks');
    await page.goForward();
    await page.getByRole('heading', { name: 'Team offsite', exact: true }).waitFor();

    // Typed or bookmarked: the server answers the page, the dashboard the view.
    await page.goto(`${server.origin}/app/links/${offsite.id}`);
    await page.getByRole('heading', { name: 'Team offsite', exact: true }).waitFor();
    await page.goto(`${server.origin}/app/links/lnk_doesnotexist`);
    await page.getByRole('heading', { name: 'Link not found' }).waitFor();
    await page.goto(`${server.origin}/app/no/such/view`);
    await page.getByRole('heading', { name: 'Nothing here' }).waitFor();
    expect(await page.title()).toBe('Not found · Shortlinks');
  });

  test('works from the keyboard alone, with the focus visible', async () => {
    await page.goto(`${server.origin}/app`);
    await rows().first().waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab'); // the brand
    await page.keyboard.press('Tab'); // Links
    await page.keyboard.press('Tab'); // Tags
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return { text: element.textContent, outline: getComputedStyle(element).outlineStyle };
    });
    expect(focused).toEqual({ text: 'Tags', outline: 'solid' });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toBe(`${server.origin}/app/tags`);
  });

  test('fits a phone’s width: nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    try {
      const offsite = await linkBySlug('offsite');
      for (const view of ['/app', '/app/tags', '/app/overview', `/app/links/${offsite.id}`]) {
        await page.goto(`${server.origin}${view}`);
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        if (view === '/app') await rows().first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(375);
      }
    } finally {
      await page.setViewportSize({ width: 1200, height: 820 });
    }
  });
});

test('no page of the dashboard threw, logged an error, broke its CSP or asked another origin for anything', () => {
  expect(watch.errors).toEqual([]);
  expect(watch.violations).toEqual([]);
  expect(watch.requests.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'))).toEqual([]);
});
