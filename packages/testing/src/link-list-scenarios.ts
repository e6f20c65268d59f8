import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The link list (`@shortlinks/ui`'s LinksView) as a person uses it, in whichever face shows it:
 * the extension's manage page and the web dashboard run these against `seedTwoPagesOfLinks`.
 */

export const linkRows = (page: Page) => page.getByTestId('link-row');

/** The slugs of the rows shown, top to bottom. */
export const slugsShown = (page: Page) => linkRows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-slug')));

/**
 * Filters by a tag, then searches by title (any case), by address and for nothing, combines the
 * search with the filter and an order, and clears. The server searches (GET /links `search`): the
 * list asks for it, once the typing stops.
 */
export async function filterAndSearchTwoPagesOfLinks(page: Page): Promise<void> {
  const searched: string[] = [];
  const listen = (request: { url(): string }) => {
    const url = decodeURIComponent(request.url());
    if (url.includes('links.list') && url.includes('"search"')) searched.push(url);
  };
  page.on('request', listen);
  await page.getByLabel('Filter by tag').selectOption({ label: 'Work (2)' });
  await expect.poll(() => slugsShown(page)).toEqual(['offsite', 'q3']);
  await page.getByLabel('Search links').fill('OFFSITE');
  await expect.poll(() => slugsShown(page)).toEqual(['offsite']);
  await page.getByLabel('Filter by tag').selectOption({ label: 'All tags' });
  await page.getByLabel('Search links').fill('PANCAKE');
  await expect.poll(() => slugsShown(page)).toEqual(['pancakes']);
  await page.getByLabel('Search links').fill('example.org/filler/1');
  // filler/1 and filler/10 … filler/19
  await expect.poll(async () => (await slugsShown(page)).length).toBe(11);
  await page.getByLabel('Sort links').selectOption({ label: 'Title Z–A' });
  await expect.poll(async () => (await linkRows(page).first().textContent()) ?? '').toContain('Filler 19');
  await page.getByLabel('Search links').fill('nothing like this');
  await expect.poll(() => page.getByText('No links match.').count()).toBe(1);
  await page.getByLabel('Search links').fill('');
  await expect.poll(() => slugsShown(page).then((slugs) => slugs.slice(0, 3))).toEqual(['offsite', 'q3', 'pancakes']);
  await page.getByLabel('Sort links').selectOption({ label: 'Newest first' });
  await expect.poll(() => slugsShown(page).then((slugs) => slugs.slice(0, 3))).toEqual(['offsite', 'pancakes', 'q3']);
  await expect.poll(() => linkRows(page).count()).toBe(20);
  page.off('request', listen);
  expect(searched.some((url) => url.includes('"search":"example.org/filler/1"'))).toBe(true);
}
