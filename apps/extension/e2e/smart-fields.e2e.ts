import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, openPopupWindow, screenshotAll } from './browser.ts';
import { type ScenarioWorld, startScenarioWorld } from './world.ts';

/**
 * Issue #30 in the extension: the popup's form sets a link's password, click limit and social
 * preview (the shared LinkForm), the saved link shows them through the API, and the popup's QR
 * code downloads as SVG.
 */

let world: ScenarioWorld;

beforeAll(async () => {
  world = await startScenarioWorld();
  await configure(world.browser, world.server.origin, world.account.key);
});
afterAll(() => world?.close());
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(world.browser.context, `smart-fields-${task.name}`));
});

const linkWithShortUrl = async (shortUrl: string) =>
  (await world.account.call('GET', '/links?per_page=100')).body.links.find((link: { short_url: string }) => link.short_url === shortUrl);

/** Opens a web page as the current tab, shortens it from the popup (Enter on Shorten) and gives the popup and the short URL. */
async function shortenFromPopup(url: string): Promise<{ page: Page; popup: Page; shortUrl: string }> {
  const page = await world.browser.context.newPage();
  await page.goto(url);
  await page.bringToFront();
  const popup = await openPopupWindow(world.browser);
  await popup.getByRole('button', { name: 'Shorten' }).waitFor();
  await expect.poll(() => popup.evaluate(() => document.activeElement?.textContent)).toBe('Shorten');
  await popup.keyboard.press('Enter');
  const shortUrl = popup.getByTestId('short-url');
  await shortUrl.waitFor();
  return { page, popup, shortUrl: (await shortUrl.textContent()) ?? '' };
}

describe('smart fields in the popup', () => {
  test('a password, a click limit and a preview set in the popup are saved on the link; the QR code downloads as SVG', async () => {
    const { page, popup, shortUrl } = await shortenFromPopup(world.pages.url('shop', '/launch'));
    const form = popup.getByRole('form', { name: 'Edit link' });

    await form.getByText('Password and click limit').click();
    await form.getByLabel('Password', { exact: true }).fill('open-sesame');
    await form.getByLabel('Click limit').fill('25');
    await form.getByText('Social preview').click();
    await form.getByLabel('Preview headline').fill('Spring <launch> & more');
    await form.getByLabel('Preview description').fill('Everything new this spring');
    await form.getByLabel('Preview image').fill('https://images.example.com/spring.png');
    await form.getByRole('button', { name: 'Save' }).click();

    await expect
      .poll(() => linkWithShortUrl(shortUrl))
      .toMatchObject({
        password_protected: true,
        max_clicks: 25,
        preview: {
          title: 'Spring <launch> & more',
          description: 'Everything new this spring',
          image_url: 'https://images.example.com/spring.png',
        },
      });
    const link = await linkWithShortUrl(shortUrl);
    expect(link).not.toHaveProperty('password');

    // The saved link is protected: a visitor gets the password form, not the page.
    const visit = await fetch(shortUrl.replace('https://sho.rt', world.server.origin), {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' },
    });
    expect(visit.status).toBe(200);
    expect(await visit.text()).toContain('name="password"');

    // The QR code's SVG download: an SVG document, named after the link.
    await popup.getByTestId('qr-code').waitFor();
    const [download] = await Promise.all([popup.waitForEvent('download'), popup.getByRole('link', { name: 'SVG', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^qr-.+\.svg$/);
    const svg = (await readFile((await download.path()) ?? '')).toString('utf8');
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Drawn by the browser and read back: the short URL with qr=1, so a scan is counted as one.
    const size = 300;
    const pixels = await popup.evaluate(
      async ({ source, size }) => {
        const image = new Image();
        image.src = `data:image/svg+xml;base64,${btoa(source)}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = size;
        canvas.height = size;
        const context = canvas.getContext('2d');
        if (!context) return [];
        context.drawImage(image, 0, 0, size, size);
        return Array.from(context.getImageData(0, 0, size, size).data);
      },
      { source: svg, size },
    );
    expect(jsQR(new Uint8ClampedArray(pixels), size, size)?.data).toBe(`${shortUrl}?qr=1`);

    await popup.close();
    await page.close();
  });
});
