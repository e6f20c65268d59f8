import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { startDnsServer, type TestDnsServer } from '@shortlinks/testing/dns-server';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configure, type ExtensionBrowser, launchExtensionBrowser, openPopupWindow, screenshotAll } from './browser.ts';
import { startTestPages } from './pages.ts';
import { startTestServer } from './test-server.ts';

/**
 * The popup's domain picker (docs/domains.md): once the workspace serves a branded domain, verified
 * here against a real DNS server this file starts (DNS_SERVERS), Shorten puts the link on the
 * domain picked; its default is picked first.
 */

let dns: TestDnsServer;
let server: TestServer;
let browser: ExtensionBrowser;
let pages: Awaited<ReturnType<typeof startTestPages>>;
let account: TestAccount;

beforeAll(async () => {
  dns = await startDnsServer();
  [server, browser, pages] = await Promise.all([
    startTestServer({ dnsServers: [dns.address] }),
    launchExtensionBrowser(),
    startTestPages(),
  ]);
  account = await createAccount(server);
  for (const [name, isDefault] of [
    ['go.brand.example', true],
    ['links.brand.example', false],
  ] as const) {
    const added = (await account.call('POST', '/domains', { name })).body;
    dns.txt.set(added.verification.name, [added.verification.value]);
    expect((await account.call('POST', `/domains/${added.id}/verify`)).body.verified).toBe(true);
    if (isDefault) await account.call('PATCH', `/domains/${added.id}`, { is_default: true });
  }
  // Added and never verified: not offered.
  await account.call('POST', '/domains', { name: 'pending.brand.example' });
  await configure(browser, server.origin, account.key);
});
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await server?.close();
  await dns?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(browser.context, `domains-${task.name}`));
});

describe('the popup on a workspace with branded domains', () => {
  test('offers the verified domains, the default first picked; Shorten makes the link on the one picked', async () => {
    const page = await browser.context.newPage();
    await page.goto(pages.url('blog', '/branded-post'));
    await page.bringToFront();
    const popup = await openPopupWindow(browser);
    const picker = popup.getByLabel('Domain');
    await expect.poll(() => picker.inputValue()).toBe('go.brand.example');
    expect(await picker.locator('option').allTextContents()).toEqual(['sho.rt', 'go.brand.example (default)', 'links.brand.example']);
    await picker.selectOption('links.brand.example');
    await popup.getByRole('button', { name: 'Shorten' }).click();
    const shortUrl = popup.getByTestId('short-url');
    await shortUrl.waitFor();
    expect(await shortUrl.textContent()).toMatch(/^https:\/\/links\.brand\.example\/[A-Za-z0-9_-]{6}$/);
    const [link] = (await account.call('GET', '/links')).body.links;
    expect(link).toMatchObject({ domain: 'links.brand.example', destination_url: pages.url('blog', '/branded-post') });
    await popup.close();
    await page.close();
  });
});
