import { readFile } from 'node:fs/promises';
import { createAccount, linkRows, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { picture, sidewaysScroll, VIEWPORTS, type ViewportName } from './layout.ts';
import { startTestServer } from './test-server.ts';

/**
 * Import and export in the dashboard (issue #32), at a laptop's and a phone's size: Export saves
 * the links the list shows (its search, its tag) as JSON Lines or CSV; Import checks a file first
 * (each row created, skipped or refused, with its row number and why), then imports it, and the
 * list shows the new links.
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

/** Clicks the export panel's download button and reads the file the browser saved. */
async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

describe.each(['desktop', 'phone'] as const)('at %s size', (size: ViewportName) => {
  let account: TestAccount;
  let promoTag: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    account = await createAccount(server, { name: `Files ${size}`, plan: 'team' });
    promoTag = (await account.call('POST', '/tags', { name: 'Promo' })).body.id;
    const answer = await account.call('POST', '/links/bulk', {
      links: [
        { title: 'Promo spring', destination_url: `https://example.org/${size}/promo/spring`, tag_ids: [promoTag] },
        { title: 'Promo autumn', destination_url: `https://example.org/${size}/promo/autumn`, tag_ids: [promoTag] },
        { title: 'Newsletter', destination_url: `https://example.org/${size}/newsletter` },
        { title: 'Kept as it is', destination_url: `https://example.org/${size}/kept`, slug: `kept-${size}` },
      ],
    });
    expect(answer.status).toBe(201);
    const opening = await browser.newContext({ viewport: VIEWPORTS[size] });
    opened.push(opening);
    context = opening.context;
    page = await context.newPage();
    await signInWith(page, server.origin, account.key);
    await linkRows(page).first().waitFor();
  });
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => screenshotAll(context, `files-${size}-${task.name}`));
  });

  test("Export saves the links the list shows: its search as JSON Lines, its tag's as CSV", async () => {
    await page.getByLabel('Search links').fill('Promo');
    await expect.poll(() => linkRows(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const panel = page.getByRole('form', { name: 'Export links' });
    expect(await panel.textContent()).toContain('those matching “Promo”');
    await panel.getByLabel('JSON Lines').check();
    const jsonl = await download(page, 'Download JSON Lines');
    expect(jsonl.name).toMatch(/^links-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const titles = jsonl.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).title);
    expect(titles.sort()).toEqual(['Promo autumn', 'Promo spring']);
    expect(await panel.getByRole('status').textContent()).toContain(jsonl.name);
    if (size === 'desktop') await picture(page, 'export');

    // The tag's list, from its address: the file holds its links, named after it.
    await page.goto(`${server.origin}/app/?tag=${promoTag}`);
    await expect.poll(() => linkRows(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const csv = await download(page, 'Download CSV');
    expect(csv.name).toMatch(/^links-promo-\d{4}-\d{2}-\d{2}\.csv$/);
    const records = csv.text.trimEnd().split('\r\n');
    expect(records[0]).toMatch(/^id,slug,short_url,destination_url,title,tags,/);
    expect(
      records
        .slice(1)
        .map((record) => record.split(',')[4])
        .sort(),
    ).toEqual(['Promo autumn', 'Promo spring']);
    await page.getByRole('button', { name: 'Close' }).click();
  });

  test('Import checks the file row by row, then imports it, and the list shows the new links', async () => {
    await page.goto(`${server.origin}/app/`);
    await linkRows(page).first().waitFor();
    const file = [
      'slug,destination_url,title,tags',
      `imp-${size}-1,https://example.org/${size}/imported/1,Imported one,Imported`,
      `imp-${size}-2,https://example.org/${size}/imported/2,Imported two,Imported`,
      `docs,https://example.org/${size}/imported/reserved,Reserved slug,`,
      `kept-${size},https://example.org/${size}/kept,Kept as it is,`,
      `,https://example.org/${size}/imported/3,Imported three,`,
    ].join('\r\n');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Import links' });
    await panel.getByLabel('File', { exact: true }).setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await panel.getByRole('button', { name: 'Check' }).click();

    const check = panel.getByRole('region', { name: 'Check report' });
    await check.waitFor();
    expect(await check.getByRole('heading').textContent()).toBe('Check of 5 rows (shortlinks-csv): nothing was written');
    expect(await check.locator('.import-counts').textContent()).toBe('If imported now: 3 created, 1 skipped, 1 refused');
    const rows = await check
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())),
      );
    expect(rows).toEqual([
      ['2', 'Created', `imp-${size}-1 → https://example.org/${size}/imported/1`],
      ['3', 'Created', `imp-${size}-2 → https://example.org/${size}/imported/2`],
      ['4', 'Refused', expect.stringMatching(/^SLUG_INVALID .*reserved/)],
      ['5', 'Skipped', `kept-${size} → https://example.org/${size}/kept`],
      ['6', 'Created', `a random slug → https://example.org/${size}/imported/3`],
    ]);
    expect((await account.call('GET', '/links?search=Imported')).body.total).toBe(0);
    expect(await sidewaysScroll(page)).toBe(0);
    // From the top: the report took the focus, and a whole-page picture scrolled down draws the sticky header midway.
    await page.evaluate(() => window.scrollTo(0, 0));
    await picture(page, size === 'phone' ? 'phone-import-check' : 'import-check', { fullPage: size === 'phone' });

    await panel.getByRole('button', { name: 'Import 3 links' }).click();
    const report = panel.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    expect(await report.getByRole('heading').textContent()).toBe('Imported 5 rows (shortlinks-csv)');
    expect(await report.locator('.import-counts').textContent()).toBe('3 created, 1 skipped, 1 refused');
    if (size === 'desktop') await picture(page, 'import-done');

    // The list shows them at once, and the server holds them.
    await page.getByLabel('Search links').fill('Imported');
    await expect
      .poll(async () => (await linkRows(page).locator('.link-title').allTextContents()).sort())
      .toEqual(['Imported one', 'Imported three', 'Imported two']);
    const imported = (await account.call('GET', '/links?search=Imported')).body;
    expect(imported.total).toBe(3);
    expect(
      imported.links.find((link: { slug: string }) => link.slug === `imp-${size}-1`).tags.map((tag: { name: string }) => tag.name),
    ).toEqual(['Imported']);
  });

  test('a file the import cannot read says why, and writes nothing', async () => {
    await page.goto(`${server.origin}/app/`);
    await linkRows(page).first().waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Import links' });
    await panel
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('name,address\nx,y\n') });
    await panel.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => panel.getByRole('alert').textContent()).toContain('could not be told');
    expect(await panel.getByRole('button', { name: /^Import \d/ }).count()).toBe(0);
  });
});

test('no page threw, logged an error, broke its CSP or asked another origin for anything', () => {
  for (const { watch } of opened) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
    expect(watch.requests.filter((url) => !url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url))).toEqual([]);
  }
});
