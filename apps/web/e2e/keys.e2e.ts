import { callApi, createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll } from './browser.ts';
import { picture } from './layout.ts';
import { startTestServer } from './test-server.ts';

/*
 * The dashboard's API keys page (docs/accounts.md, "Keys and scopes"), in Chromium against the real
 * server: a member makes a key with links.read only, sees it once (copied with the button), uses it
 * over /api/v1 (reading works, creating a link is 403 FORBIDDEN), sees when it was last used, and
 * revokes it after confirming (then 401). A viewer is offered read-only scopes alone.
 */

const PASSWORD = 'correct horse battery staple 42';
const MEMBER = 'member@keys.example';
const VIEWER = 'viewer@keys.example';

let server: TestServer;
let browser: DashboardBrowser;
let workspace: TestAccount;
const contexts: { context: BrowserContext; watch: PageWatch }[] = [];
let current: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  workspace = await createAccount(server, { name: 'Keys e2e' });
  await workspace.call('POST', '/links', { title: 'Report link', destination_url: 'https://example.org/report', slug: 'report' });
  for (const [email, role] of [
    [MEMBER, 'member'],
    [VIEWER, 'viewer'],
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
  onTestFailed(() => screenshotAll(current, `keys-${task.name}`));
});
afterAll(() => {
  for (const { watch } of contexts) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
  }
});

async function signedInPage(email: string): Promise<Page> {
  const opened = await browser.newContext();
  contexts.push(opened);
  current = opened.context;
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  const page = await opened.context.newPage();
  await page.goto(`${server.origin}/app`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  return page;
}

const offeredScopes = (page: Page) =>
  page
    .getByRole('form', { name: 'Make a key' })
    .locator('input[name="scopes"]')
    .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));

describe('the API keys page', () => {
  test('a member makes a links.read key, sees it once, uses it, sees its last use, and revokes it', async () => {
    const page = await signedInPage(MEMBER);
    expect(await offeredScopes(page)).toEqual([
      'links.read',
      'links.write',
      'tags.read',
      'tags.write',
      'analytics.read',
      'keys.write',
      'domains.read',
    ]);

    const form = page.getByRole('form', { name: 'Make a key' });
    await form.getByLabel('Name').fill('Reporting script');
    await form.getByRole('checkbox', { name: /links\.read/ }).check();
    await form.getByLabel('Expires').selectOption('30');
    await form.getByRole('button', { name: 'Make key' }).click();

    // Shown once, with a warning and a copy button.
    const notice = page.getByRole('region', { name: 'New key' });
    await notice.getByText('it is shown only this once').waitFor();
    const key = ((await notice.getByTestId('new-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^slk_[A-Za-z0-9_-]{43}$/);
    await notice.getByRole('button', { name: 'Copy' }).click();
    await notice.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.getByRole('row', { name: 'Reporting script' }).waitFor();
    // docs/dashboard-keys.png (with UPDATE_SCREENSHOTS=1): the key shown once, above the list.
    await picture(page, 'keys', { fullPage: true });
    await notice.getByRole('button', { name: 'I have copied it' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(key);

    // Listed: name, scopes, created, expires, never used yet.
    const row = page.getByRole('row', { name: 'Reporting script' });
    await row.waitFor();
    expect((await row.getByRole('list', { name: 'Scopes of Reporting script' }).textContent())?.trim()).toBe('links.read');
    expect(await row.getByTestId('last-used').textContent()).toBe('Never');
    const inThirtyDays = await page.evaluate(() => new Date(Date.now() + 30 * 24 * 3600 * 1000).toLocaleDateString());
    expect(await row.getByTestId('expires').textContent()).toBe(inThirtyDays);

    // The key over /api/v1: it reads, and may not write.
    const read = await callApi(server, key, 'GET', '/links');
    expect(read.status).toBe(200);
    expect((read.body as { links: { slug: string }[] }).links.map((link) => link.slug)).toContain('report');
    const write = await callApi(server, key, 'POST', '/links', { title: 'Nope', destination_url: 'https://example.org/nope' });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'FORBIDDEN', message: 'This key lacks the scope links.write' });

    // Its last use shows once the page reads the list again.
    await page.reload();
    await expect
      .poll(async () => page.getByRole('row', { name: 'Reporting script' }).getByTestId('last-used').textContent(), { timeout: 10_000 })
      .not.toBe('Never');

    // Revoking asks first; keeping it changes nothing.
    const again = page.getByRole('row', { name: 'Reporting script' });
    await again.getByRole('button', { name: 'Revoke Reporting script…' }).click();
    await again.getByRole('button', { name: 'Keep' }).click();
    expect((await callApi(server, key, 'GET', '/links')).status).toBe(200);
    await again.getByRole('button', { name: 'Revoke Reporting script…' }).click();
    await again.getByText('This cannot be undone').waitFor();
    await again.getByRole('button', { name: 'Revoke Reporting script', exact: true }).click();
    await again.waitFor({ state: 'detached' });
    expect((await callApi(server, key, 'GET', '/links')).status).toBe(401);
  });

  test('a viewer is offered read-only scopes only', async () => {
    const page = await signedInPage(VIEWER);
    const offered = await offeredScopes(page);
    expect(offered).toEqual(['links.read', 'tags.read', 'analytics.read', 'domains.read']);
  });
});
