import path from 'node:path';
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { startDnsServer, type TestDnsServer } from '@shortlinks/testing/dns-server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll, signInWith } from './browser.ts';
import { startTestServer } from './test-server.ts';

/**
 * The domains page (docs/domains.md) against the real server, whose TXT look-ups go to a real DNS
 * server this file starts (DNS_SERVERS): add a domain and read its record, verify it (first
 * without the record, then with it), its redirects, the default, the domain picker of a new link
 * and the list's domain filter, a refused delete; and a member, who is not shown the page.
 */

const DOMAIN = 'go.brand.example';
const PASSWORD = 'correct horse battery staple 42';

let dns: TestDnsServer;
let server: TestServer;
let browser: DashboardBrowser;
let workspace: TestAccount;
let context: BrowserContext;
let watch: PageWatch;
let page: Page;

beforeAll(async () => {
  dns = await startDnsServer();
  [server, browser] = await Promise.all([startTestServer({ dnsServers: [dns.address] }), launchDashboardBrowser()]);
  workspace = await createAccount(server, { name: 'Domains e2e', plan: 'unlimited' });
  ({ context, watch } = await browser.newContext());
  page = await context.newPage();
  await signInWith(page, server.origin, workspace.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dns?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(context, `domains-${task.name}`));
});
afterAll(() => {
  expect(watch?.errors ?? []).toEqual([]);
  expect(watch?.violations ?? []).toEqual([]);
});

const item = () => page.getByRole('listitem', { name: DOMAIN });
const storedDomain = async () =>
  ((await workspace.call('GET', '/domains')).body.domains as { name: string }[]).find((one) => one.name === DOMAIN) as Record<
    string,
    unknown
  >;

describe('the domains page', () => {
  test('adds a domain and shows the TXT record to set, with copy buttons; a bad name is refused at its field', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    expect(await page.title()).toBe('Domains · Shortlinks');
    const form = page.getByRole('form', { name: 'Add a domain' });
    await form.getByLabel('Domain name').fill('10.0.0.1');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/name/i);
    await form.getByLabel('Domain name').fill(DOMAIN.toUpperCase());
    await form.getByRole('button', { name: 'Add domain' }).click();
    await item().waitFor();
    expect(await item().getByTestId('domain-status').textContent()).toBe('Not verified');
    expect(await item().getByTestId('record-name').textContent()).toBe(`_shortlinks.${DOMAIN}`);
    expect(await item().getByTestId('record-value').textContent()).toMatch(/^shortlinks-verify=\S{8,}$/);
    await item().getByRole('button', { name: 'Copy the record value' }).click();
    await expect.poll(() => item().getByRole('button', { name: 'Copy the record value' }).textContent()).toBe('Copied');
  });

  test('verify: without the record it says what was found; with it, verified', async () => {
    await item().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => item().getByTestId('verify-result').textContent()).toContain(`No TXT record found at _shortlinks.${DOMAIN}`);
    // The record as the page shows it, published on the DNS server the server asks.
    const name = (await item().getByTestId('record-name').textContent()) ?? '';
    const value = (await item().getByTestId('record-value').textContent()) ?? '';
    dns.txt.set(name, ['some-other-record']);
    await item().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => item().getByTestId('verify-result').textContent()).toContain('"some-other-record"');
    dns.txt.set(name, ['some-other-record', value]);
    await item().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => item().getByTestId('domain-status').textContent()).toBe('Verified');
    expect(await item().getByTestId('verify-result').textContent()).toContain(`links on ${DOMAIN} are served now`);
    expect(await storedDomain()).toMatchObject({ verified: true, status: 'verified' });
  });

  test('root and not-found redirects: a refusal at its field; saved, the domain has them', async () => {
    const redirects = item().getByRole('form', { name: `Redirects of ${DOMAIN}` });
    await redirects.getByLabel('Root redirect URL').fill('javascript:alert(1)');
    await redirects.getByRole('button', { name: 'Save redirects' }).click();
    const rootField = redirects.getByLabel('Root redirect URL');
    await expect.poll(() => rootField.getAttribute('aria-invalid')).toBe('true');
    expect(await redirects.getByLabel('Not-found URL').getAttribute('aria-invalid')).toBe('false');
    await rootField.fill('https://www.brand.example/');
    await redirects.getByLabel('Not-found URL').fill('https://www.brand.example/missing');
    await redirects.getByRole('button', { name: 'Save redirects' }).click();
    await redirects.getByRole('status').getByText('Saved.').waitFor();
    expect(await storedDomain()).toMatchObject({
      root_redirect_url: 'https://www.brand.example/',
      not_found_url: 'https://www.brand.example/missing',
    });
  });

  test('make default', async () => {
    await item().getByRole('button', { name: 'Make default' }).click();
    await item().getByText('Default', { exact: true }).waitFor();
    expect(await storedDomain()).toMatchObject({ is_default: true });
  });

  test('a new link is made on the domain picked, and the list shows and filters by domain', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click();
    await page.getByRole('button', { name: 'New link' }).click();
    const form = page.getByRole('form', { name: 'New link' });
    const picker = form.getByLabel('Domain');
    // The default first; the server's own domain beside it; nothing pending.
    expect(await picker.inputValue()).toBe(DOMAIN);
    expect(await picker.locator('option').allTextContents()).toEqual(['sho.rt', `${DOMAIN} (default)`]);
    await form.getByLabel('Destination').fill('https://example.org/branded');
    await form.getByLabel('Slug').fill('branded');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('.banner.created').textContent()).toContain(`https://${DOMAIN}/branded`);
    // The same slug on the server's domain, picked.
    await page.getByRole('button', { name: 'New link' }).click();
    await form.getByLabel('Domain').selectOption('sho.rt');
    await form.getByLabel('Destination').fill('https://example.org/plain');
    await form.getByLabel('Slug').fill('branded');
    await form.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('.banner.created').textContent()).toContain('https://sho.rt/branded');
    const shortUrls = () => page.locator('.link-list .link-short').allTextContents();
    await expect.poll(shortUrls).toEqual(['sho.rt/branded', `${DOMAIN}/branded`]);
    await page.getByLabel('Filter by domain').selectOption(DOMAIN);
    await expect.poll(shortUrls).toEqual([`${DOMAIN}/branded`]);
    expect(new URL(page.url()).searchParams.get('domain')).toBe(DOMAIN);
    await page.getByLabel('Filter by domain').selectOption('sho.rt');
    await expect.poll(shortUrls).toEqual(['sho.rt/branded']);
    const links = (await workspace.call('GET', '/links?per_page=100')).body.links as { domain: string; slug: string }[];
    expect(links.map((one) => `${one.domain}/${one.slug}`).sort()).toEqual([`${DOMAIN}/branded`, 'sho.rt/branded']);
  });

  test('a domain with live links is not deleted, and says so', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    await item().getByRole('button', { name: 'Delete' }).click();
    await item()
      .getByRole('button', { name: `Delete ${DOMAIN}` })
      .click();
    await expect.poll(() => item().getByRole('alert').textContent()).toContain(`1 live link uses ${DOMAIN}`);
    await item().getByRole('link', { name: 'Show its links' }).waitFor();
    expect(await storedDomain()).toBeDefined();
  });
});

describe('a stopped domain', () => {
  test('says it stopped and why: its record was gone for 7 days', async () => {
    const name = 'old.brand.example';
    const added = (await workspace.call('POST', '/domains', { name })).body;
    dns.txt.set(added.verification.name, [added.verification.value]);
    expect((await workspace.call('POST', `/domains/${added.id}/verify`)).body.verified).toBe(true);
    // The record goes; the periodic re-check (run here at later times) finds it missing, then for 7 days.
    dns.txt.delete(added.verification.name);
    const later = Date.now() + 2 * 3_600_000;
    await server.services.domains.recheck(later);
    await page.reload();
    const old = page.getByRole('listitem', { name });
    await expect.poll(() => old.getByTestId('domain-status').textContent()).toBe('Record missing');
    expect(await old.getByTestId('domain-reason').textContent()).toMatch(/stops serving at/);
    await server.services.domains.recheck(later + 8 * 86_400_000);
    await page.reload();
    await expect.poll(() => old.getByTestId('domain-status').textContent()).toBe('Stopped');
    expect(await old.getByTestId('domain-reason').textContent()).toMatch(
      /^Stopped serving: the TXT record _shortlinks\.old\.brand\.example was not found for 7 days/,
    );
    // Stopped, it is no longer offered for new links.
    expect(await old.getByRole('button', { name: 'Make default' }).count()).toBe(0);
  });
});

test('the domains page fits a phone’s width', async () => {
  await page.setViewportSize({ width: 375, height: 740 });
  try {
    await page.reload();
    await item().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  } finally {
    await page.setViewportSize({ width: 1200, height: 820 });
  }
});

/** docs/dashboard-domains.png, with `pnpm --filter @shortlinks/web screenshots` (UPDATE_SCREENSHOTS=1) only. */
test.skipIf(process.env.UPDATE_SCREENSHOTS !== '1')('the domains page screenshot for docs/domains.md', async () => {
  await workspace.call('POST', '/domains', { name: 'links.brand.example' });
  await page.setViewportSize({ width: 1180, height: 1100 });
  await page.reload();
  await page.getByRole('listitem', { name: 'links.brand.example' }).waitFor();
  await item().waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.resolve(import.meta.dirname, '../../../docs/dashboard-domains.png'), fullPage: true });
});

describe('members and viewers', () => {
  test('a member is not shown the domains page, nor can reach it by its address', async () => {
    const user = await server.services.users.create('member@domains.example', PASSWORD);
    await server.services.members.add(workspace.account.id, user.id, 'member');
    const own = await browser.newContext();
    try {
      const memberPage = await own.context.newPage();
      await memberPage.goto(`${server.origin}/app`);
      await memberPage.getByLabel('Email').fill('member@domains.example');
      await memberPage.getByLabel('Password').fill(PASSWORD);
      await memberPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      const nav = memberPage.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Links' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Domains' }).count()).toBe(0);
      await memberPage.goto(`${server.origin}/app/domains`);
      await memberPage.getByRole('heading', { name: 'Nothing here' }).waitFor();
      // A member still picks a domain for a new link (reading domains needs viewer).
      await memberPage.goto(`${server.origin}/app`);
      await memberPage.getByRole('button', { name: 'New link' }).click();
      expect(await memberPage.getByRole('form', { name: 'New link' }).getByLabel('Domain').inputValue()).toBe(DOMAIN);
    } finally {
      await own.context.close();
    }
  });
});
