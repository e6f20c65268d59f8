import { createAccount, inDays, linkRows, seedAcmeAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { overlappingTextBoxes, picture, sidewaysScroll, VIEWPORTS, type ViewportName } from './layout.ts';
import { startTestServer } from './test-server.ts';

/**
 * The links and tags views drawn at a laptop's and a phone's size (issue #32): no two text boxes of
 * a row overlap, every title shows, nothing scrolls sideways. The Acme account's links have one or
 * two tags ("Spring launch announcement" showed no title on a phone); two more are added with the
 * longest parts a row has: many tags, an expiry, a long title and a long destination.
 */
let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  account = await createAccount(server, { name: 'Acme', plan: 'team' });
  await seedAcmeAccount(server, account);
  const tags = (await account.call('GET', '/tags')).body.tags.map((tag: { id: string }) => tag.id);
  await account.call('POST', '/links', {
    title: 'Spring webinar: building a product launch checklist that your whole team will actually use',
    destination_url: 'https://events.example.com/webinars/2026/spring/product-launch-checklist?utm_source=newsletter',
    tag_ids: tags,
    slug: 'webinar-spring-launch-checklist',
    expires_at: inDays(30),
    expiration_url: 'https://events.example.com/webinars',
  });
  await account.call('POST', '/links', { title: 'Q', destination_url: 'https://acme.example.com/q' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => Promise.all(opened.map(({ context }) => screenshotAll(context, `phone-${task.name}`))).then(() => undefined));
});

async function signedIn(size: ViewportName): Promise<Page> {
  const opening = await browser.newContext({ viewport: VIEWPORTS[size] });
  opened.push(opening);
  const page = await opening.context.newPage();
  await signInWith(page, server.origin, account.key);
  await linkRows(page).first().waitFor();
  await page.getByTestId('usage-links').waitFor();
  return page;
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  test('no two text boxes of a link row overlap, every title shows whole or cut with room to read it, nothing scrolls sideways', async () => {
    const page = await signedIn(size);
    await expect.poll(() => linkRows(page).count()).toBe(7);
    const overlaps = await Promise.all((await linkRows(page).all()).map(overlappingTextBoxes));
    expect(overlaps.flat()).toEqual([]);
    for (const row of await linkRows(page).all()) {
      const slug = await row.getAttribute('data-slug');
      const title = await row.locator('.link-title').evaluate((element) => ({
        width: element.getBoundingClientRect().width,
        cut: element.scrollWidth > element.clientWidth + 1,
        text: element.textContent,
      }));
      expect(title.width, `title of ${slug}`).toBeGreaterThan(8);
      // On a phone a title wraps rather than being cut; on a wide screen a long one may end in "…",
      // with most of the row's width left to it.
      if (size === 'phone' || title.width < 300) expect(title.cut, `title of ${slug}`).toBe(false);
    }
    expect(await sidewaysScroll(page)).toBe(0);

    // The measure sees an overlap when there is one: the clicks and date moved over the short URL.
    const spring = page.locator('[data-slug="spring"]');
    await spring.locator('.link-meta').evaluate((meta: HTMLElement) => {
      const to = (meta.closest('li')?.querySelector('.link-short') ?? meta).getBoundingClientRect();
      const from = meta.getBoundingClientRect();
      meta.style.transform = `translate(${to.left - from.left}px, ${to.top - from.top}px)`;
    });
    expect((await overlappingTextBoxes(spring)).join('\n')).toMatch(/link-short|link-destination/);
    await spring.locator('.link-meta').evaluate((meta: HTMLElement) => {
      meta.style.transform = '';
    });

    // Ticked, with the bulk bar open, the rows and the bar still fit.
    await linkRows(page).first().getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Add tag' }).click();
    for (const row of await linkRows(page).all()) expect(await overlappingTextBoxes(row)).toEqual([]);
    expect(await overlappingTextBoxes(page.getByRole('group', { name: 'Bulk actions' }))).toEqual([]);
    expect(await sidewaysScroll(page)).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    if (size === 'phone') await picture(page, 'phone-links', { fullPage: true });
  });

  test('the Tags page does not scroll sideways, nor its table inside; a tag’s parts do not overlap', async () => {
    const page = await signedIn(size);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    await page.getByTestId('tag-row-Launch').waitFor();
    expect(await sidewaysScroll(page)).toBe(0);
    expect(await page.locator('.tag-panel').evaluate((panel) => panel.scrollWidth - panel.clientWidth)).toBe(0);
    for (const row of await page.locator('.tag-row').all()) expect(await overlappingTextBoxes(row)).toEqual([]);
    // A rename in progress shows Save beside the name, and still fits.
    await page.getByLabel('Name of Launch').fill('Launch 2026');
    expect(await overlappingTextBoxes(page.getByTestId('tag-row-Launch'))).toEqual([]);
    expect(await sidewaysScroll(page)).toBe(0);
    await page.getByLabel('Name of Launch').press('Escape');
    if (size === 'phone') {
      // The count says what it counts where the table's heading is not shown.
      expect(
        await page
          .getByTestId('tag-row-Launch')
          .locator('.tag-count')
          .evaluate((cell) => getComputedStyle(cell, '::after').content),
      ).toBe('" links"');
      await picture(page, 'phone-tags', { fullPage: true });
    }
  });
});

test('no page threw, logged an error or broke its CSP', () => {
  for (const { watch } of opened) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
  }
});
