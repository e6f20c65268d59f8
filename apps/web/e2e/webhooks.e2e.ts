import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, screenshotAll, signInWith } from './browser.ts';
import { startTestServer } from './test-server.ts';

let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;
let context: BrowserContext;
let page: Page;
let receiver: Server;
let receiverUrl: string;
/** Requests the receiver took: one per delivery attempt. */
let received = 0;

beforeAll(async () => {
  // The receiver is on loopback: private targets are allowed for this server.
  [server, browser] = await Promise.all([startTestServer({ webhooks: { allowPrivateTargets: true } }), launchDashboardBrowser()]);
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(200).end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  account = await createAccount(server);
  ({ context } = await browser.newContext());
  page = await context.newPage();
  await signInWith(page, server.origin, account.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  receiver?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(context, `webhooks-${task.name}`));
});

describe('the webhooks page', () => {
  test('adds a webhook with the events picked and shows its secret once, with how to verify it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    expect(await page.title()).toBe('Webhooks · Shortlinks');
    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByLabel('Endpoint URL').fill(receiverUrl);
    await form.getByLabel('Description').fill('CRM');
    await form.getByLabel('link.clicked').check();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByTestId('webhook-secret');
    await expect.poll(() => secret.textContent()).toMatch(/^whsec_/);
    expect(await page.getByRole('region', { name: 'Signing secret' }).textContent()).toContain('standardwebhooks');
    const [hook] = (await account.call('GET', '/webhooks')).body.webhooks;
    expect(hook).toMatchObject({ url: receiverUrl, events: ['link.created', 'link.clicked'], description: 'CRM', enabled: true });
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => secret.count()).toBe(0);
  });

  test('sends a test, shows the delivery with its attempts, retries it, disables the webhook', async () => {
    const item = page.getByRole('listitem', { name: receiverUrl });
    await item.getByRole('button', { name: 'Send a test' }).click();
    await item.getByRole('button', { name: 'Deliveries' }).click();
    const row = item.getByTestId('delivery').first();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/webhook\.test\s*succeeded\s*1\s*200/);
    await row.getByRole('button', { name: 'Attempts' }).click();
    await expect.poll(() => item.getByRole('list', { name: 'Attempts' }).locator('li').count()).toBe(1);
    expect(await item.locator('.delivery-body').textContent()).toMatch(/"type":\s*"webhook\.test"/);
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/succeeded\s*2\s*200/);
    expect(received).toBe(2);
    await item.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => item.locator('.webhook-state').textContent()).toBe('Disabled');
    expect((await account.call('GET', '/webhooks')).body.webhooks[0].enabled).toBe(false);
  });
});
