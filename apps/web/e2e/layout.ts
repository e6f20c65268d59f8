import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** The two sizes the dashboard is tried at (issue #32): a laptop's window and a phone's screen. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/**
 * The boxes of a row's text that overlap: every visible element of `row` holding text of its own
 * (a title, a chip, the short URL, Copy, the destination, the clicks, "Created …", a button) or a
 * tick box, measured as the browser drew it, compared pairwise (an element and its own descendant
 * aside). Touching edges are not an overlap.
 */
export async function overlappingTextBoxes(row: Locator): Promise<string[]> {
  return row.evaluate((root) => {
    const name = (element: Element) => {
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${text || element.getAttribute('aria-label') || ''}"`;
    };
    const carriesText = (element: Element) =>
      element instanceof HTMLInputElement ||
      [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
    const boxes = [...root.querySelectorAll('*')]
      .filter(carriesText)
      .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden')
      .filter((element) => !element.closest('.visually-hidden'))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const overlaps: string[] = [];
    for (const [at, a] of boxes.entries()) {
      for (const b of boxes.slice(at + 1)) {
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const width = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const height = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (width > 0.5 && height > 0.5) overlaps.push(`${name(a.element)} overlaps ${name(b.element)}`);
      }
    }
    return overlaps;
  });
}

/** How far the page scrolls sideways: 0 when nothing is wider than the window. */
export const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const scrolling = document.scrollingElement ?? document.documentElement;
    return scrolling.scrollWidth - scrolling.clientWidth;
  });

const docs = path.resolve(import.meta.dirname, '../../../docs');
const results = path.resolve(import.meta.dirname, '../e2e-results');

/**
 * A picture of what a scenario checked: into docs/ (`dashboard-<name>.png`) when the run is asked to
 * update them (UPDATE_SCREENSHOTS=1), otherwise into the git-ignored e2e-results/ to look at.
 */
export async function picture(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  const folder = process.env.UPDATE_SCREENSHOTS === '1' ? docs : results;
  mkdirSync(folder, { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(folder, `dashboard-${name}.png`), fullPage });
}
