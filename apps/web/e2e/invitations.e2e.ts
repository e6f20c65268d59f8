import { createAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, screenshotAll } from './browser.ts';
import { startTestServer } from './test-server.ts';

/*
 * An invitation, in Chromium: an owner invites from the invitations panel and copies the link; a
 * second browser profile (another person) opens it, chooses a password and joins, signed in; the
 * link then works no more.
 */

const PASSWORD = 'correct horse battery staple 42';
const OWNER = 'owner@invitations.example';

let server: TestServer;
let browser: DashboardBrowser;
let accountId: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  const workspace = await createAccount(server, { name: 'Invitations Inc' });
  accountId = workspace.account.id;
  const owner = await server.services.users.create(OWNER, PASSWORD);
  await server.services.members.add(accountId, owner.id, 'owner');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    for (const context of contexts) await screenshotAll(context, `invitations-${task.name}`);
  });
});

async function profile() {
  const { context, watch } = await browser.newContext();
  contexts.push(context);
  return { context, watch };
}

/** Signs a profile in with the session cookie, as the dashboard's sign-in does. */
async function signIn(context: BrowserContext, email: string) {
  const answer = await context.request.post(`${server.origin}/trpc/auth.signIn`, {
    headers: { origin: server.origin, 'content-type': 'application/json' },
    data: { email, password: PASSWORD },
  });
  expect(answer.status()).toBe(200);
}

describe('an invitation accepted in a second browser', () => {
  test('the owner invites, the invitee joins with a new password, and the link works once', async () => {
    const { context: ownerContext, watch: ownerWatch } = await profile();
    await signIn(ownerContext, OWNER);
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto(`${server.origin}/app/invitations`);
    await ownerPage.getByRole('heading', { name: 'Invite people' }).waitFor();
    // An owner may offer every role.
    expect(await ownerPage.getByLabel('Role').locator('option').allTextContents()).toEqual(['owner', 'admin', 'member', 'viewer']);
    await ownerPage.getByLabel('Email').fill('new.colleague@example.test');
    await ownerPage.getByLabel('Role').selectOption('member');
    await ownerPage.getByRole('button', { name: 'Invite' }).click();
    const link = await ownerPage.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/app\/invitation#[A-Za-z0-9_-]{43}$/);
    await ownerPage.getByText('(this server sends no mail)').waitFor();
    await ownerPage.getByRole('list', { name: 'Pending invitations' }).getByText('new.colleague@example.test').waitFor();

    // The invitee: a profile of their own, no cookie. The link's host is the server's public URL;
    // here the test server's own origin.
    const token = new URL(link).hash.slice(1);
    const { context: inviteeContext, watch: inviteeWatch } = await profile();
    const page = await inviteeContext.newPage();
    await page.goto(`${server.origin}/app/invitation#${token}`);
    await page.getByRole('heading', { name: 'Join Invitations Inc' }).waitFor();
    // The token leaves the address bar at once, and was never sent in a URL.
    expect(page.url()).toBe(`${server.origin}/app/invitation`);
    expect(inviteeWatch.requests.some((url) => url.includes(token) && !url.includes('invitations.describe'))).toBe(false);

    await page.getByLabel('Choose a password').fill('password123');
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByText(/common|at least 10/).waitFor();

    await page.getByLabel('Choose a password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByText('You joined').waitFor();
    expect(await page.getByRole('status').textContent()).toContain('Invitations Inc as member');

    // Signed in: an HttpOnly session cookie, and the server knows them as a member there.
    const cookie = (await inviteeContext.cookies()).find((c) => c.name === 'shortlinks_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const me = await inviteeContext.request.get(`${server.origin}/trpc/auth.me?input=${encodeURIComponent('{}')}`);
    expect((await me.json()).result.data).toMatchObject({
      user: { email: 'new.colleague@example.test' },
      workspace: { id: accountId, role: 'member' },
    });

    // A member sees no invitations panel.
    const memberPage = await inviteeContext.newPage();
    await memberPage.goto(`${server.origin}/app/invitations`);
    await memberPage.getByText('Only admins and owners invite people.').waitFor();

    // The same link again, in a third profile: refused in words.
    const { context: lateContext } = await profile();
    const late = await lateContext.newPage();
    await late.goto(`${server.origin}/app/invitation#${token}`);
    await late.getByText('This invitation was already accepted').waitFor();

    // The owner's list no longer shows it.
    await ownerPage.reload();
    await ownerPage.getByText('No pending invitations.').waitFor();
    expect(ownerWatch.errors).toEqual([]);
    expect(ownerWatch.violations).toEqual([]);
    expect(inviteeWatch.violations).toEqual([]);
  });

  test('a revoked invitation says so', async () => {
    const { context } = await profile();
    await signIn(context, OWNER);
    const page = await context.newPage();
    await page.goto(`${server.origin}/app/invitations`);
    await page.getByLabel('Email').fill('not.anymore@example.test');
    await page.getByRole('button', { name: 'Invite' }).click();
    const token = new URL(await page.getByLabel('Invitation link').inputValue()).hash.slice(1);
    await page.getByRole('button', { name: 'Revoke the invitation of not.anymore@example.test' }).click();
    await page.getByText('No pending invitations.').waitFor();

    const { context: other } = await profile();
    const invitee = await other.newPage();
    await invitee.goto(`${server.origin}/app/invitation#${token}`);
    await invitee.getByText('This invitation was revoked').waitFor();
  });
});
