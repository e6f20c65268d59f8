import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll } from './browser.ts';
import { picture, sidewaysScroll, VIEWPORTS } from './layout.ts';
import { startTestServer } from './test-server.ts';

/*
 * The audit log in the dashboard (docs/accounts.md, "The audit log in the dashboard"), in Chromium
 * against the real server: an admin creates, edits and deletes links and reads who did what in the
 * log; filters by action, actor and resource id live in the address and survive a reload; a link's
 * page shows its history; a member neither sees the entry nor reads the log.
 */

const PASSWORD = 'correct horse battery staple 42';
const ADMIN = 'admin@audit.example';
const MEMBER = 'member@audit.example';

let server: TestServer;
let browser: DashboardBrowser;
let workspace: TestAccount;
const contexts: { context: BrowserContext; watch: PageWatch }[] = [];
let current: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  workspace = await createAccount(server, { name: 'Audit e2e' });
  for (const [email, role] of [
    [ADMIN, 'admin'],
    [MEMBER, 'member'],
  ] as const) {
    const user = await server.services.users.create(email, PASSWORD);
    await server.services.members.add(workspace.account.id, user.id, role);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(current, `audit-${task.name}`));
});
afterAll(() => {
  for (const { watch } of contexts) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
  }
});

async function signedInPage(email: string): Promise<Page> {
  const opened = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(opened);
  current = opened.context;
  const page = await opened.context.newPage();
  await page.goto(`${server.origin}/app`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return page;
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const logTable = (page: Page) => page.getByRole('table', { name: 'Audit log' });
const rows = (table: Locator) => table.getByTestId('audit-entry');
/** Each shown entry as `action actor-id`, top to bottom. */
const shownEntries = (table: Locator) =>
  rows(table).evaluateAll((all) => all.map((row) => `${row.getAttribute('data-action')} ${row.getAttribute('data-actor')}`));
const query = (page: Page) => new URL(page.url()).searchParams;

/** The page's link edited from its page: Edit, a new title, Save. */
async function retitle(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = page.getByRole('region', { name: 'Edit' });
  await form.getByLabel('Title').fill(title);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

interface StoredLink {
  id: string;
  slug: string;
  title: string;
}
const bySlug = async (slug: string): Promise<StoredLink | undefined> =>
  (await workspace.call('GET', `/links?per_page=100&search=${slug}`)).body.links.find((link: StoredLink) => link.slug === slug);

describe('the audit log page', () => {
  let admin: Page;
  let adminId: string;
  let keyId: string;
  let launch: StoredLink;

  beforeAll(async () => {
    admin = await signedInPage(ADMIN);
  });

  test('an admin creates, edits and deletes links, and reads who did what, newest first', async () => {
    // Before any link changed. (Adding the people may have written entries of its own, by the system.)
    await nav(admin).getByRole('link', { name: 'Audit log' }).click();
    await admin.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await admin.locator('[data-testid="audit-empty"], table').first().waitFor();
    const before = await rows(logTable(admin)).count();
    if (before === 0) expect(await admin.getByTestId('audit-empty').textContent()).toBe('No changes recorded yet.');

    // Created in the dashboard's form.
    await nav(admin).getByRole('link', { name: 'Links' }).click();
    await admin.getByRole('button', { name: 'New link' }).click();
    const form = admin.getByRole('form', { name: 'New link' });
    await form.getByLabel('Destination').fill('https://example.org/launch');
    await form.getByLabel('Title').fill('Launch');
    await form.getByLabel('Slug').fill('launch');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => admin.locator('.banner.created').textContent()).toContain('/launch');
    launch = (await bySlug('launch')) as StoredLink;
    // Edited on its page.
    await admin.goto(`${server.origin}/app/links/${launch.id}`);
    await retitle(admin, 'Launch (final)');
    // Another created, then deleted from its page.
    await nav(admin).getByRole('link', { name: 'Links' }).click();
    await admin.getByRole('button', { name: 'New link' }).click();
    await form.getByLabel('Destination').fill('https://example.org/draft');
    await form.getByLabel('Title').fill('Draft');
    await form.getByLabel('Slug').fill('draft');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => admin.locator('.banner.created').textContent()).toContain('/draft');
    const draft = (await bySlug('draft')) as StoredLink;
    await admin.goto(`${server.origin}/app/links/${draft.id}`);
    await admin.getByRole('button', { name: 'Delete', exact: true }).click();
    await admin.getByRole('button', { name: 'Delete link' }).click();
    await admin.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    // And one change by the workspace's API key, a second actor.
    expect(
      (await workspace.call('POST', '/links', { title: 'By key', destination_url: 'https://example.org/key', slug: 'by-key' })).status,
    ).toBe(201);

    await nav(admin).getByRole('link', { name: 'Audit log' }).click();
    const table = logTable(admin);
    await expect.poll(() => rows(table).count()).toBe(before + 5);
    const entries = (await shownEntries(table)).slice(0, 5);
    expect(entries.map((entry) => entry.split(' ')[0])).toEqual([
      'link.created',
      'link.deleted',
      'link.created',
      'link.updated',
      'link.created',
    ]);
    adminId = (entries[1] ?? '').split(' ')[1] ?? '';
    keyId = (entries[0] ?? '').split(' ')[1] ?? '';
    expect(adminId).toMatch(/^usr_/);
    expect(keyId).toMatch(/^key_/);
    expect(await admin.getByTestId('audit-total').textContent()).toContain(`${before + 5} entries`);

    // Who: the admin as a user, the key as a key.
    const [byKey, deleted, , updated, created] = await rows(table).all();
    expect(await byKey?.getByTestId('audit-actor').locator('.badge').textContent()).toBe('key');
    expect(await deleted?.getByTestId('audit-actor').locator('.badge').textContent()).toBe('user');
    expect(await deleted?.getByTestId('audit-actor').textContent()).toContain(ADMIN);
    // What: readable actions, the resource a link to its page, and what changed.
    expect(await updated?.getByTestId('audit-action').textContent()).toBe('Link edited');
    expect(await updated?.getByTestId('audit-resource').getByRole('link').getAttribute('href')).toBe(`/app/links/${launch.id}`);
    expect(await updated?.locator('[data-field="title"] dd').textContent()).toMatch(/^Launch\s*→\s*changed to\s*Launch \(final\)$/);
    expect(await updated?.locator('[data-field]').count()).toBe(1);
    expect(await created?.getByTestId('audit-action').textContent()).toBe('Link created');
    expect(await created?.locator('[data-field="slug"] dd').textContent()).toBe('launch');
    expect(await deleted?.getByTestId('audit-action').textContent()).toBe('Link deleted');
    expect(await deleted?.locator('[data-field="slug"] dd').textContent()).toBe('draft');
    // When: how long ago, the exact time on hover; and from where.
    const when = deleted?.locator('time');
    expect(await when?.textContent()).toMatch(/now|second|minute/);
    expect(await when?.getAttribute('title')).toMatch(/\d/);
    expect(await deleted?.locator('.audit-ip').textContent()).toBe('127.0.0.1');

    // docs/dashboard-audit-log.png (with UPDATE_SCREENSHOTS=1).
    await picture(admin, 'audit-log', { fullPage: true });
    // On a phone the table scrolls inside its box; the page never scrolls sideways.
    await admin.setViewportSize(VIEWPORTS.phone);
    expect(await sidewaysScroll(admin)).toBe(0);
    await admin.setViewportSize(VIEWPORTS.desktop);
  });

  test('filters by action, actor and resource id live in the address and survive a reload', async () => {
    await admin.goto(`${server.origin}/app/audit`);
    const table = logTable(admin);
    await rows(table).first().waitFor();

    // Action: a select grouped by resource.
    await admin.getByLabel('Action').selectOption('link.created');
    await expect.poll(() => query(admin).get('action')).toBe('link.created');
    await expect.poll(() => shownEntries(table)).toEqual([`link.created ${keyId}`, `link.created ${adminId}`, `link.created ${adminId}`]);
    await admin.reload();
    await expect.poll(() => shownEntries(table)).toEqual([`link.created ${keyId}`, `link.created ${adminId}`, `link.created ${adminId}`]);
    expect(await admin.getByLabel('Action').inputValue()).toBe('link.created');

    // Actor: a click on a name filters by them, the action kept.
    await rows(table)
      .first()
      .getByRole('button', { name: /Only changes by/ })
      .click();
    await expect.poll(() => query(admin).get('actor_id')).toBe(keyId);
    await expect.poll(() => shownEntries(table)).toEqual([`link.created ${keyId}`]);
    expect(query(admin).get('action')).toBe('link.created');
    // Typed: the admin's id, every action.
    await admin.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => admin.url()).toBe(`${server.origin}/app/audit`);
    await admin.getByLabel('Actor').fill(adminId);
    await admin.getByLabel('Actor').press('Enter');
    await expect.poll(() => query(admin).get('actor_id')).toBe(adminId);
    await expect.poll(() => rows(table).count()).toBe(4);
    await admin.reload();
    await expect.poll(() => rows(table).count()).toBe(4);
    expect(await admin.getByLabel('Actor').inputValue()).toBe(adminId);

    // Resource id: the launch link's entries alone.
    await admin.getByRole('button', { name: 'Clear filters' }).click();
    await admin.getByLabel('Resource id').fill(launch.id);
    await admin.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => query(admin).get('resource_id')).toBe(launch.id);
    await expect.poll(() => shownEntries(table)).toEqual([`link.updated ${adminId}`, `link.created ${adminId}`]);
    await admin.reload();
    await expect.poll(() => shownEntries(table)).toEqual([`link.updated ${adminId}`, `link.created ${adminId}`]);

    // Nothing matches: said so.
    await admin.getByLabel('Action').selectOption('tag.deleted');
    await admin.getByText('No entries match these filters.').waitFor();

    // Pages: the admin's four changes, two a page.
    await admin.goto(`${server.origin}/app/audit?actor_id=${adminId}&per_page=2`);
    await expect.poll(() => shownEntries(table)).toEqual([`link.deleted ${adminId}`, `link.created ${adminId}`]);
    expect(await admin.getByTestId('audit-total').textContent()).toContain('4 entries · page 1 of 2');
    await admin.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => query(admin).get('page')).toBe('2');
    expect(query(admin).get('per_page')).toBe('2');
    await expect.poll(() => shownEntries(table)).toEqual([`link.updated ${adminId}`, `link.created ${adminId}`]);
  });

  test('a link’s page shows its history after two edits, newest first', async () => {
    await admin.goto(`${server.origin}/app/links/${launch.id}`);
    const history = admin.getByRole('table', { name: 'History' });
    await expect.poll(() => rows(history).count()).toBe(2);
    await retitle(admin, 'Launch (v2)');
    await retitle(admin, 'Launch (v3)');
    await expect.poll(() => rows(history).count()).toBe(4);
    expect(await shownEntries(history)).toEqual([
      `link.updated ${adminId}`,
      `link.updated ${adminId}`,
      `link.updated ${adminId}`,
      `link.created ${adminId}`,
    ]);
    const titles = await rows(history).locator('[data-field="title"] dd').allTextContents();
    expect(titles.slice(0, 3).map((text) => text.replace(/\s+/g, ' '))).toEqual([
      'Launch (v2) → changed to Launch (v3)',
      'Launch (final) → changed to Launch (v2)',
      'Launch → changed to Launch (final)',
    ]);
    // docs/dashboard-link-history.png (with UPDATE_SCREENSHOTS=1).
    await admin.getByRole('heading', { name: 'History' }).scrollIntoViewIfNeeded();
    await picture(admin, 'link-history');
    // On a phone (the page drawn anew at its width: the chart sizes itself once), nothing is wider than the window.
    await admin.setViewportSize(VIEWPORTS.phone);
    await admin.reload();
    await expect.poll(() => rows(history).count()).toBe(4);
    expect(await sidewaysScroll(admin)).toBe(0);
    await admin.setViewportSize(VIEWPORTS.desktop);
  });
});

describe('a member', () => {
  test('does not see the audit log in the navigation, and is told only admins can at its address', async () => {
    const page = await signedInPage(MEMBER);
    await nav(page).getByRole('link', { name: 'API keys' }).waitFor();
    expect(await nav(page).getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(`${server.origin}/app/audit`);
    await page.getByRole('heading', { name: 'Only admins can see the audit log' }).waitFor();
    expect(await page.getByRole('table', { name: 'Audit log' }).count()).toBe(0);
    // A link's page offers no history.
    const link = (await bySlug('by-key')) as StoredLink;
    await page.goto(`${server.origin}/app/links/${link.id}`);
    await page.getByRole('heading', { level: 1, name: 'By key' }).waitFor();
    expect(await page.getByRole('heading', { name: 'History' }).count()).toBe(0);
  });
});
