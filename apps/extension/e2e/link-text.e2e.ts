import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, openPopupWindow, screenshotAll } from './browser.ts';
import { type ScenarioWorld, startScenarioWorld } from './world.ts';

/** How the extension sets a link's text: the popup's short URL, and the manage page's titles beside their tags. */

let world: ScenarioWorld;

beforeAll(async () => {
  world = await startScenarioWorld();
  await configure(world.browser, world.server.origin, world.account.key);
});
afterAll(() => world?.close());
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(world.browser.context, `link-text-${task.name}`));
});

/** The characters a rendered text ends its lines after (every line but the last), read from the layout. */
function lineEnds(element: Locator): Promise<string[]> {
  return element.evaluate((node) => {
    const ends: string[] = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    let previous: { top: number; char: string } | undefined;
    for (let text = walker.nextNode() as Text | null; text; text = walker.nextNode() as Text | null) {
      for (let i = 0; i < text.data.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        if (previous && box.top > previous.top + 2) ends.push(previous.char);
        previous = { top: box.top, char: text.data[i] ?? '' };
      }
    }
    return ends;
  });
}

describe('the popup’s short URL', () => {
  test('breaks only after a "/", never inside the slug, and keeps the whole URL in its title', async () => {
    const slug = 'spring-launch-announcement-2026';
    const url = world.pages.url('blog', '/long-slug');
    await world.account.call('POST', '/links', { title: 'Long slug', destination_url: url, slug });
    const page = await world.browser.context.newPage();
    await page.goto(url);
    await page.bringToFront();
    const popup = await openPopupWindow(world.browser);
    const shortUrl = popup.getByTestId('short-url');
    await expect.poll(() => shortUrl.textContent()).toBe(`https://sho.rt/${slug}`);
    expect(await shortUrl.getAttribute('title')).toBe(`https://sho.rt/${slug}`);
    const ends = await lineEnds(shortUrl);
    expect(ends.every((char) => char === '/')).toBe(true);
    // The slug is one line, whole or cut with an ellipsis, never split.
    expect(await shortUrl.locator('.short-url-slug').evaluate((node) => node.getClientRects().length)).toBe(1);
    expect(await lineEnds(shortUrl.locator('.short-url-slug'))).toEqual([]);
    await popup.close();
    await page.close();
  });
});

describe('the manage page', () => {
  test('a link’s title is set no smaller than the tags beside it', async () => {
    await world.account.call('POST', '/links', {
      title: 'Conference talk slides',
      destination_url: world.pages.url('slides', '/talk'),
      tag_names: ['Social'],
    });
    const manage = await world.browser.context.newPage();
    await manage.goto(world.browser.url('tabs/manage.html'));
    const row = manage.getByTestId('link-row').filter({ hasText: 'Conference talk slides' });
    await row.waitFor();
    const sizeOf = (locator: Locator) =>
      locator.evaluate((node) => {
        const style = getComputedStyle(node);
        return { fontSize: Number.parseFloat(style.fontSize), fontWeight: Number(style.fontWeight) };
      });
    const title = await sizeOf(row.locator('.link-title'));
    const tag = await sizeOf(row.locator('.tag-chip').first());
    // Chromium sets an extension page's body to 75% (10.5 px): the title, sized by the page, was smaller than the 12 px tags.
    expect(title.fontSize).toBeGreaterThan(tag.fontSize);
    expect(title.fontWeight).toBeGreaterThanOrEqual(600);
    await manage.close();
  });
});
