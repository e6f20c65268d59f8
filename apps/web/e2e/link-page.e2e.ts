import { readFile } from 'node:fs/promises';
import { BROWSER_USER_AGENT, createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import jsQR from 'jsqr';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { startTestServer } from './test-server.ts';

/**
 * Issue #32 in the real browser, at a desktop's and a phone's size: a link's page (details, QR
 * downloads, edit with the destination and UTM, delete), New link with UTM and expiry, the forms'
 * behaviour (errors at and cleared by their field, an address without a scheme completed, Saved,
 * the creation date kept), the slug's one rule, the countries hint and the Overview's one heading.
 */

const SLUG_RULE = 'A slug never changes once the link exists: another slug makes a new link, and the old short URL stops working.';
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;

beforeAll(async () => {
  // No CLICK_COUNTRY_HEADER: the plain install, where every country is unknown.
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  account = await createAccount(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface StoredLink {
  id: string;
  slug: string;
  short_url: string;
  destination_url: string;
  title: string;
  created_at: number;
  expires_at?: number;
  expiration_url?: string;
  comments?: string;
  tags: { name: string }[];
}
const stored = async (id: string): Promise<StoredLink | undefined> => {
  const answer = await account.call('GET', `/links/${id}`);
  return answer.status === 200 ? answer.body : undefined;
};
const bySlug = async (slug: string): Promise<StoredLink | undefined> =>
  (await account.call('GET', `/links?per_page=100&search=${slug}`)).body.links.find((link: StoredLink) => link.slug === slug);

/** The message under a field, and whether its input is marked invalid. */
async function fieldError(form: Locator, label: string): Promise<{ invalid: string | null; message: string | null }> {
  const input = form.getByLabel(label, { exact: true });
  const described = await input.getAttribute('aria-describedby');
  const message = described ? form.locator(`[id="${described}"].error`) : undefined;
  return {
    invalid: await input.getAttribute('aria-invalid'),
    message: message && (await message.count()) > 0 ? await message.textContent() : null,
  };
}

/** The slug box's hint. */
async function slugHint(form: Locator): Promise<string | null> {
  const described = await form.getByLabel('Slug', { exact: true }).getAttribute('aria-describedby');
  return form.locator(`[id="${described}"]`).textContent();
}

/** Nothing on the page is wider than the window: it never scrolls sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe.each(SIZES)('at $viewport.width×$viewport.height', ({ name, viewport }) => {
  let context: BrowserContext;
  let watch: PageWatch;
  let page: Page;

  beforeAll(async () => {
    ({ context, watch } = await browser.newContext({ viewport }));
    page = await context.newPage();
    await signInWith(page, server.origin, account.key);
  });
  afterAll(async () => {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
    await context?.close();
  });
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => screenshotAll(context, `link-page-${name}-${task.name}`));
  });

  test('New link sets UTM and an expiry; an address without a scheme is offered with https://', async () => {
    await page.goto(`${server.origin}/app`);
    await page.getByRole('button', { name: 'New link' }).click();
    const form = page.getByRole('form', { name: 'New link' });
    const destination = form.getByLabel('Destination');
    await destination.fill(`example.org/launch-${name}`);
    await destination.press('Tab');
    expect(await destination.inputValue()).toBe(`https://example.org/launch-${name}`);
    expect(await slugHint(form)).toBe(`Empty: a random one. ${SLUG_RULE}`);
    await form.getByLabel('Slug').fill(`launch-${name}`);
    await form.getByText('UTM parameters').click();
    await form.getByLabel('utm_source').fill('newsletter');
    await form.getByLabel('utm_campaign').fill('spring');
    await form.getByText('Expiry').click();
    await form.getByLabel('Expires at').fill('2031-05-06T07:08');
    const fallback = form.getByLabel('Then redirect to');
    await fallback.fill('example.org/over');
    await fallback.press('Tab');
    expect(await fallback.inputValue()).toBe('https://example.org/over');
    expect(await scrollsSideways(page)).toBe(false);
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('.banner.created').textContent()).toContain(`https://sho.rt/launch-${name}`);

    const link = await bySlug(`launch-${name}`);
    expect(link).toMatchObject({
      title: `example.org/launch-${name}`,
      destination_url: `https://example.org/launch-${name}?utm_source=newsletter&utm_campaign=spring`,
      expiration_url: 'https://example.org/over',
    });
    expect(link?.expires_at).toBe(await page.evaluate(() => new Date('2031-05-06T07:08').getTime()));
  });

  test('an error at a field clears as soon as that field is changed', async () => {
    await page.getByRole('button', { name: 'New link' }).click();
    const form = page.getByRole('form', { name: 'New link' });
    await form.getByLabel('Destination').fill('https://example.org/taken');
    await form.getByLabel('Slug').fill(`launch-${name}`);
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect
      .poll(() => fieldError(form, 'Slug'))
      .toEqual({ invalid: 'true', message: 'This slug is already taken. Choose another one.' });
    // The focus is on the field in error.
    expect(await form.getByLabel('Slug').evaluate((input) => input === document.activeElement)).toBe(true);
    await form.getByLabel('Title').fill('Another field');
    expect((await fieldError(form, 'Slug')).invalid).toBe('true');
    await form.getByLabel('Slug').press('End');
    await form.getByLabel('Slug').press('2');
    expect(await fieldError(form, 'Slug')).toEqual({ invalid: 'false', message: null });
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  test('a link’s page shows its details, its QR code as SVG and PNG, and its statistics', async () => {
    const link = (
      await account.call('POST', '/links', {
        title: `Spring ${name}`,
        destination_url: `https://example.org/spring-${name}?utm_source=news`,
        slug: `spring-${name}`,
        tag_names: ['Campaigns', 'Email'],
        comments: 'Sent on Monday.\nSecond line.',
        expires_at: Date.now() + 30 * 86_400_000,
      })
    ).body as StoredLink;
    // Two visits through the real redirect, with no country header, and a scan of the QR code.
    for (const query of ['', '', '?qr=1']) {
      await fetch(`${server.origin}/${link.slug}${query}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });
    }
    await server.services.clicks.flush();

    await page.goto(`${server.origin}/app/links/${link.id}`);
    await page.getByRole('heading', { level: 1, name: `Spring ${name}` }).waitFor();
    const details = page.getByTestId('link-details');
    await expect.poll(() => details.getByRole('link', { name: `sho.rt/spring-${name}` }).getAttribute('href')).toBe(link.short_url);
    expect(await details.getByRole('button', { name: `Copy ${link.short_url}` }).isVisible()).toBe(true);
    expect(await details.getByRole('link', { name: link.destination_url }).getAttribute('href')).toBe(link.destination_url);
    expect(await details.locator('.tag-chip').allTextContents()).toEqual(['Campaigns', 'Email']);
    const created = await page.getByTestId('link-created').textContent();
    expect(created).toBe(
      await page.evaluate(
        (ms) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(ms),
        link.created_at,
      ),
    );
    expect(await page.getByTestId('link-expiry').textContent()).toMatch(/^Expires /);
    expect(await details.locator('.link-details-comments').textContent()).toBe('Sent on Monday.\nSecond line.');

    // The QR code, and its downloads as files.
    expect(await page.getByRole('img', { name: `QR code of ${link.short_url}` }).isVisible()).toBe(true);
    const svg = await download(page, 'SVG');
    expect(svg.name).toBe(`qr-spring-${name}.svg`);
    expect(svg.bytes.toString('utf8')).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const png = await download(page, 'PNG');
    expect(png.name).toBe(`qr-spring-${name}.png`);
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The downloaded code is the API's: the short URL with qr=1, so a scan of it is counted as one.
    const image = PNG.sync.read(png.bytes);
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`${link.short_url}?qr=1`);

    // The statistics, below: every country unknown, so the hint says how to enable them.
    await expect.poll(() => page.getByTestId('total-clicks').textContent()).toBe('3');
    // The scan apart from the clicks; no city known from the loopback address.
    const bars = (id: string) => page.getByTestId(id).getByRole('listitem').allTextContents();
    expect(await bars('breakdown-triggers')).toEqual(['Link2 clicks', 'QR code scan1 click']);
    expect(await bars('breakdown-cities')).toEqual(['Unknown3 clicks']);
    const hint = page.getByTestId('breakdown-countries').getByTestId('countries-hint');
    expect(await hint.textContent()).toContain('CLICK_COUNTRY_HEADER');
    expect(await hint.textContent()).toContain('docs/statistics.md');
    // One h1, and the statistics do not repeat the link's title as a heading.
    expect(await page.getByRole('heading', { name: `Spring ${name}` }).count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
  });

  test('Edit changes the destination, with UTM, under the API’s checks; Saved; the creation date stays', async () => {
    const link = (await bySlug(`spring-${name}`)) as StoredLink;
    const created = await page.getByTestId('link-created').textContent();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit link' });
    const destination = form.getByLabel('Destination');
    expect(await destination.inputValue()).toBe(`https://example.org/spring-${name}`);
    expect(await form.getByLabel('utm_source').inputValue()).toBe('news');
    expect(await slugHint(form)).toBe(SLUG_RULE);

    // A destination the API refuses is refused at its field, and nothing changes.
    await destination.fill('http://localhost/admin');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await fieldError(form, 'Destination')).invalid).toBe('true');
    expect((await fieldError(form, 'Destination')).message).toMatch(/^The page address /);
    expect((await stored(link.id))?.destination_url).toBe(link.destination_url);
    // Changing it clears the error; an address without a scheme is offered with https://.
    await destination.fill(`example.org/spring-${name}-fixed`);
    expect(await fieldError(form, 'Destination')).toEqual({ invalid: 'false', message: null });
    await destination.press('Tab');
    expect(await destination.inputValue()).toBe(`https://example.org/spring-${name}-fixed`);
    await form.getByLabel('utm_campaign').fill('spring');
    await form.getByRole('button', { name: 'Save' }).click();

    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).first().textContent()).toBe('Saved');
    const saved = await stored(link.id);
    expect(saved?.destination_url).toBe(`https://example.org/spring-${name}-fixed?utm_source=news&utm_campaign=spring`);
    expect(saved?.slug).toBe(link.slug);
    const details = page.getByTestId('link-details');
    await expect.poll(() => details.locator('.link-details-destination').textContent()).toBe(saved?.destination_url);
    expect(await page.getByTestId('link-created').textContent()).toBe(created);
  });

  test('Delete asks first, then returns to the list', async () => {
    const link = (await bySlug(`spring-${name}`)) as StoredLink;
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect(await stored(link.id)).toBeDefined();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete link' }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${server.origin}/app/?$`));
    await page.getByTestId('link-row').first().waitFor();
    expect(await page.locator(`[data-slug="spring-${name}"]`).count()).toBe(0);
    expect(await stored(link.id)).toBeUndefined();
  });

  test('the list’s Edit says the same about the slug as New link', async () => {
    const row = page.locator(`[data-slug="launch-${name}"]`);
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await slugHint(row.getByRole('form', { name: 'Edit link' }))).toBe(SLUG_RULE);
    await row.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the Overview has one heading', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('region', { name: 'Statistics of all links' }).waitFor();
    const headings = await page
      .locator('main')
      .getByRole('heading', { level: 1 })
      .or(page.locator('main').getByRole('heading', { level: 2 }))
      .allTextContents();
    expect(headings).toEqual(['Overview']);
  });
});

/** Clicks a download button and reads the file the browser saved. */
async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: button, exact: true }).click()]);
  const saved = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(saved) };
}
