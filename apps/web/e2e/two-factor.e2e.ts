import { createAccount, type TestServer } from '@shortlinks/testing';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, screenshotAll } from './browser.ts';
import { startTestServer } from './test-server.ts';

/*
 * Two-factor sign-in in Chromium: a person turns it on from the Security page (the QR code and the
 * secret, a first code computed here with otplib, the recovery codes shown once), then signs in
 * in a new browser profile: the password, then the code; a recovery code works too.
 */

const PASSWORD = 'correct horse battery staple 42';
const EMAIL = 'ada@two-factor.example';

let server: TestServer;
let browser: DashboardBrowser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  const workspace = await createAccount(server, { name: 'Two-factor Ltd' });
  const user = await server.services.users.create(EMAIL, PASSWORD);
  await server.services.members.add(workspace.account.id, user.id, 'owner');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    for (const context of contexts) await screenshotAll(context, `two-factor-${task.name}`);
  });
});

async function freshPage(): Promise<Page> {
  const { context } = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

async function passwordStep(page: Page) {
  await page.goto(`${server.origin}/app`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const codeIn = (secret: string, stepsAhead: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

describe('two-factor sign-in', () => {
  let secret = '';
  let recovery: string[] = [];

  test('enrolment on the Security page: QR code, secret, a first code, recovery codes once', async () => {
    const page = await freshPage();
    await passwordStep(page);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto(`${server.origin}/app/security`);
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('That code is not right').waitFor();
    await page.getByLabel('Code from the app').fill(await codeIn(secret, 0));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    recovery = (await list.locator('code').allTextContents()).map((code) => code.trim());
    expect(recovery).toHaveLength(10);
    await page.getByText('On. 10 recovery codes left.').waitFor();
  });

  test('signing in asks for the code after the password; no session before it', async () => {
    const page = await freshPage();
    await passwordStep(page);
    await page.getByRole('form', { name: 'Two-factor code' }).waitFor();
    // The password alone gave no session.
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('shortlinks_session');
    await page.getByLabel('Code', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not right').waitFor();
    await page.getByLabel('Code', { exact: true }).fill(await codeIn(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'shortlinks_session');
    expect(session).toMatchObject({ httpOnly: true });
  });

  test('a recovery code signs in instead, once', async () => {
    const page = await freshPage();
    await passwordStep(page);
    await page.getByLabel('Code', { exact: true }).fill(recovery[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });

  test('new recovery codes from the Security page: the password proves it, the old codes stop working', async () => {
    const page = await freshPage();
    await passwordStep(page);
    await page.getByLabel('Code', { exact: true }).fill(recovery[1] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto(`${server.origin}/app/security`);
    await page.getByText('On. 8 recovery codes left.').waitFor();
    const form = page.getByRole('form', { name: 'New recovery codes' });
    await form.getByLabel('Or your current password').fill('not the password at all');
    await form.getByRole('button', { name: 'Make new recovery codes' }).click();
    await form.getByText('The password is wrong').waitFor();
    await form.getByLabel('Or your current password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByText('New recovery codes: the old ones no longer work.').waitFor();
    const fresh = (await page.getByRole('list', { name: 'Recovery codes' }).locator('code').allTextContents()).map((code) => code.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recovery.includes(code))).toBe(false);
    await page.getByText('On. 10 recovery codes left.').waitFor();

    const later = await freshPage();
    await passwordStep(later);
    await later.getByLabel('Code', { exact: true }).fill(recovery[2] ?? '');
    await later.getByRole('button', { name: 'Verify' }).click();
    await later.getByText('That code is not right').waitFor();
    await later.getByLabel('Code', { exact: true }).fill(fresh[0] ?? '');
    await later.getByRole('button', { name: 'Verify' }).click();
    await later.getByRole('navigation', { name: 'Main' }).waitFor();
  });
});
