import { createAccount, linkRows, slugsShown, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { picture, VIEWPORTS, type ViewportName } from './layout.ts';
import { startTestServer } from './test-server.ts';

/**
 * Bulk actions (issue #32): rows ticked, or every link the filter matches, are tagged, untagged or
 * deleted through POST/PATCH/DELETE /links/bulk after a question that says how many; past one call's
 * 100 links the work is sent 100 at a time with its progress; a partial answer (207) says what was
 * done and lists each link it could not be done to. At a laptop's and a phone's size.
 */
let server: TestServer;
let browser: DashboardBrowser;
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Links made 100 a call (POST /links/bulk), as an import would. */
async function makeLinks(account: TestAccount, bodies: Record<string, unknown>[]) {
  for (let at = 0; at < bodies.length; at += 100) {
    const answer = await account.call('POST', '/links/bulk', { links: bodies.slice(at, at + 100) });
    expect(answer.status).toBe(201);
  }
}

describe.each(['desktop', 'phone'] as const)('at %s size', (size: ViewportName) => {
  let account: TestAccount;
  let tagIds: Record<string, string>;
  let context: BrowserContext;
  let page: Page;
  const links = async (query: string) => (await account.call('GET', `/links?per_page=100&${query}`)).body;
  const tagsOf = async (title: string) =>
    (await links(`search=${encodeURIComponent(title)}`)).links
      .find((link: { title: string }) => link.title === title)
      ?.tags.map((tag: { name: string }) => tag.name);
  const tick = (title: string) => page.getByRole('checkbox', { name: `Select ${title}`, exact: true }).check();
  const search = async (text: string, expected: number) => {
    await page.getByLabel('Search links').fill(text);
    await expect.poll(() => linkRows(page).count()).toBe(expected);
  };
  const report = () => page.locator('.bulk-report');

  beforeAll(async () => {
    account = await createAccount(server, { name: `Bulk ${size}`, plan: 'team' });
    tagIds = {};
    for (const name of ['Work', 'Home', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8']) {
      tagIds[name] = (await account.call('POST', '/tags', { name })).body.id;
    }
    await makeLinks(
      account,
      Array.from({ length: 230 }, (_, i) => ({ title: `Batch ${i + 1}`, destination_url: `https://example.org/${size}/batch/${i + 1}` })),
    );
    await makeLinks(account, [
      { title: 'Pick 1', destination_url: `https://example.org/${size}/pick/1`, tag_ids: [tagIds.Home] },
      { title: 'Pick 2', destination_url: `https://example.org/${size}/pick/2` },
      { title: 'Pick 3', destination_url: `https://example.org/${size}/pick/3` },
      { title: 'Pick 4', destination_url: `https://example.org/${size}/pick/4` },
      { title: 'Crowded full', destination_url: `https://example.org/${size}/crowded/full`, tag_ids: Object.values(tagIds) },
      { title: 'Crowded roomy', destination_url: `https://example.org/${size}/crowded/roomy` },
    ]);
    const opening = await browser.newContext({ viewport: VIEWPORTS[size] });
    opened.push(opening);
    context = opening.context;
    page = await context.newPage();
    await signInWith(page, server.origin, account.key);
    await linkRows(page).first().waitFor();
  });
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => screenshotAll(context, `bulk-${size}-${task.name}`));
  });

  test('ticked rows are given a tag, and lose it, after a question that says how many', async () => {
    await search('Pick', 4);
    await tick('Pick 1');
    await tick('Pick 2');
    await tick('Pick 3');
    await expect.poll(() => page.locator('.bulk-count').textContent()).toBe('3 selected');
    await page.getByRole('button', { name: 'Add tag' }).click();
    const question = page.getByRole('group', { name: 'Add a tag' });
    await page.getByLabel('Tag to add').selectOption({ label: 'Work' });
    expect(await question.locator('.confirmation-question').textContent()).toMatch(/^Add .* to 3 links\?$/);
    await picture(page, size === 'phone' ? 'phone-bulk' : 'bulk', { fullPage: size === 'phone' });
    await question.getByRole('button', { name: 'Add tag' }).click();
    await expect.poll(() => report().textContent()).toContain('Added Work to 3 links.');
    expect(await tagsOf('Pick 1')).toEqual(['Home', 'Work']);
    expect(await tagsOf('Pick 2')).toEqual(['Work']);
    expect(await tagsOf('Pick 4')).toEqual([]);
    // Done: nothing ticked any more, and the rows show their new tags.
    expect(await page.locator('.bulk-count').count()).toBe(0);
    await expect
      .poll(() => page.locator('[data-testid="link-row"]', { hasText: 'Pick 2' }).locator('.tag-chip').allTextContents())
      .toEqual(['Work']);

    await page.getByLabel('Select page').check();
    await page.getByRole('button', { name: 'Remove tag' }).click();
    await page.getByLabel('Tag to remove').selectOption({ label: 'Work' });
    expect(await page.locator('.bulk-question .confirmation-question').textContent()).toMatch(/^Remove .* from 4 links\?$/);
    await page.getByRole('group', { name: 'Remove a tag' }).getByRole('button', { name: 'Remove tag' }).click();
    await expect.poll(() => report().textContent()).toContain('Removed Work from 3 links (1 did not have it).');
    expect(await tagsOf('Pick 1')).toEqual(['Home']);
    expect(await tagsOf('Pick 3')).toEqual([]);
  });

  test('ticked rows are deleted after a question that says how many; Keep keeps them', async () => {
    const before = (await links('')).total;
    await search('Pick', 4);
    await tick('Pick 3');
    await tick('Pick 4');
    await page.getByRole('button', { name: 'Delete', exact: true }).first().click();
    const question = page.getByRole('group', { name: 'Delete 2 links' });
    expect(await question.textContent()).toContain('Delete 2 links? They stop working at once, and this cannot be undone.');
    await question.getByRole('button', { name: 'Keep' }).click();
    expect((await links('')).total).toBe(before);
    await page.locator('.bulk-verbs').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('group', { name: 'Delete 2 links' }).getByRole('button', { name: 'Delete 2 links' }).click();
    await expect.poll(() => report().textContent()).toContain('Deleted 2 links.');
    await expect.poll(() => slugsShown(page).then((slugs) => slugs.length)).toBe(2);
    expect((await links('')).total).toBe(before - 2);
    await expect.poll(() => page.getByTestId('usage-links').textContent()).toMatch(new RegExp(`^${before - 2} of`));
  });

  test('all 230 links matching the search: tagged and then deleted 100 a call, with progress', async () => {
    await search('Batch', 20);
    await page.getByLabel('Select page').check();
    await expect.poll(() => page.locator('.bulk-count').textContent()).toBe('20 selected');
    await page.getByRole('button', { name: 'Select all 230 links matching' }).click();
    await expect.poll(() => page.locator('.bulk-count').textContent()).toBe('All 230 links matching selected');

    // Each bulk call held back a little, so the progress between calls can be read.
    const calls: string[] = [];
    await page.route(/\/trpc\/links\.bulk(Update|Delete)/, async (route) => {
      calls.push(new URL(route.request().url()).pathname);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByLabel('Tag to add').selectOption({ label: 'Home' });
    expect(await page.locator('.bulk-question .confirmation-question').textContent()).toMatch(/^Add .* to 230 links\?$/);
    await page.getByRole('group', { name: 'Add a tag' }).getByRole('button', { name: 'Add tag' }).click();
    await expect
      .poll(() => page.locator('.bulk-progress').textContent(), { interval: 50, timeout: 15_000 })
      .toBe('Working… 100 of 230 links done');
    await expect.poll(() => report().textContent(), { timeout: 15_000 }).toContain('Added Home to 230 links.');
    expect(calls).toEqual(['/trpc/links.bulkUpdate', '/trpc/links.bulkUpdate', '/trpc/links.bulkUpdate']);
    expect((await links(`search=Batch&tag_ids=${tagIds.Home}`)).total).toBe(230);

    calls.length = 0;
    await page.getByLabel('Select page').check();
    await page.getByRole('button', { name: 'Select all 230 links matching' }).click();
    await page.locator('.bulk-verbs').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('group', { name: 'Delete 230 links' }).getByRole('button', { name: 'Delete 230 links' }).click();
    await expect.poll(() => report().textContent(), { timeout: 15_000 }).toContain('Deleted 230 links.');
    expect(calls).toEqual(['/trpc/links.bulkDelete', '/trpc/links.bulkDelete', '/trpc/links.bulkDelete']);
    expect((await links('search=Batch')).total).toBe(0);
    await expect.poll(() => page.getByText('No links match.').count()).toBe(1);
    await page.unroute(/\/trpc\/links\.bulk(Update|Delete)/);
  });

  test('a link the action cannot be done to is named, with why; the others are done', async () => {
    // "Crowded full" carries 10 tags, the most a link may: an 11th is refused for it alone.
    await account.call('POST', '/tags', { name: 'Extra' });
    await page.reload();
    await search('Crowded', 2);
    await page.getByLabel('Select page').check();
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByLabel('Tag to add').selectOption({ label: 'Extra' });
    await page.getByRole('group', { name: 'Add a tag' }).getByRole('button', { name: 'Add tag' }).click();
    await expect.poll(() => report().textContent()).toContain('Added Extra to 1 link; 1 could not be changed:');
    const failures = await report().locator('li').allTextContents();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^Crowded full \(https:\/\/sho\.rt\/\w+\): .*10/);
    expect(await tagsOf('Crowded roomy')).toEqual(['Extra']);
    expect(await tagsOf('Crowded full')).toHaveLength(10);
    if (size === 'desktop') await picture(page, 'bulk-report');
  });

  test('a partial answer (207): a link deleted meanwhile elsewhere is named, the others are deleted', async () => {
    await search('Pick', 2);
    await tick('Pick 1');
    await tick('Pick 2');
    const pick2 = (await links('search=Pick+2')).links[0];
    expect((await account.call('DELETE', `/links/${pick2.id}`)).status).toBe(204);
    await page.locator('.bulk-verbs').getByRole('button', { name: 'Delete' }).click();
    const answered = page.waitForResponse(/\/trpc\/links\.bulkDelete/);
    await page.getByRole('group', { name: 'Delete 2 links' }).getByRole('button', { name: 'Delete 2 links' }).click();
    expect((await answered).status()).toBe(207);
    await expect.poll(() => report().textContent()).toContain('Deleted 1 link; 1 could not be deleted:');
    expect(await report().locator('li').allTextContents()).toEqual([expect.stringMatching(/^Pick 2 \(https:\/\/sho\.rt\/\w+\): /)]);
    expect((await links('search=Pick')).total).toBe(0);
  });
});

test('no page threw, logged an error, broke its CSP or asked another origin for anything', () => {
  for (const { watch } of opened) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
    expect(watch.requests.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'))).toEqual([]);
  }
});
