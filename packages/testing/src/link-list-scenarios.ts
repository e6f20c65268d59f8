import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The link list (`@shortlinks/ui`'s LinksView) as a person uses it, in whichever face shows it:
 * the extension's manage page and the web dashboard run these against `seedTwoPagesOfLinks`.
 */

export const linkRows = (page: Page) => page.getByTestId('link-row');

/** The slugs of the rows shown, top to bottom. */
export const slugsShown = (page: Page) => linkRows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-slug')));

/** Filters by a tag, then searches by title (any case), by address and for nothing, and clears. */
export async function filterAndSearchTwoPagesOfLinks(page: Page): Promise<void> {
  await page.getByLabel('Filter by tag').selectOption({ label: 'Work (2)' });
  await expect.poll(() => slugsShown(page)).toEqual(['offsite', 'q3']);
  await page.getByLabel('Filter by tag').selectOption({ label: 'All tags' });
  await page.getByLabel('Search links').fill('PANCAKE');
  await expect.poll(() => slugsShown(page)).toEqual(['pancakes']);
  await page.getByLabel('Search links').fill('example.org/filler/1');
  // filler/1 and filler/10 … filler/19
  await expect.poll(async () => (await slugsShown(page)).length).toBe(11);
  await page.getByLabel('Search links').fill('nothing like this');
  await expect.poll(() => page.getByText('No links match.').count()).toBe(1);
  await page.getByLabel('Search links').fill('');
  await expect.poll(() => linkRows(page).count()).toBe(20);
}
