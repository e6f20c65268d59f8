import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, type PageWatch, screenshotAll } from './browser.ts';
import { startTestServer } from './test-server.ts';

/*
 * People in the dashboard (docs/accounts.md), in Chromium against the real server: the first owner
 * made through the printed one-time link, signing in and out with email and password, a viewer who
 * sees no control that writes and whose forged write the server refuses, and a removal that ends
 * the removed person's session in their open dashboard.
 */

const PASSWORD = 'correct horse battery staple 42';
const OWNER = 'owner@people.example';

let server: TestServer;
let browser: DashboardBrowser;
let workspace: TestAccount;
const contexts: { context: BrowserContext; watch: PageWatch }[] = [];
let current: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  workspace = await createAccount(server, { name: 'People e2e' });
  await workspace.call('POST', '/links', { title: 'Shared link', destination_url: 'https://example.org/shared', slug: 'shared' });
  await workspace.call('POST', '/tags', { name: 'Shared tag' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => screenshotAll(current, `people-${task.name}`));
});
afterAll(() => {
  for (const { watch } of contexts) {
    expect(watch.errors).toEqual([]);
    expect(watch.violations).toEqual([]);
  }
});

async function freshPage(): Promise<Page> {
  const opened = await browser.newContext();
  contexts.push(opened);
  current = opened.context;
  return opened.context.newPage();
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${server.origin}/app`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

async function addPerson(email: string, role: 'admin' | 'member' | 'viewer') {
  const user = await server.services.users.create(email, PASSWORD);
  await server.services.members.add(workspace.account.id, user.id, role);
  return user;
}

describe('people in the dashboard', () => {
  test('the first owner is made through the one-time link, and signed in', async () => {
    const token = await server.services.passwordLinks.issueSetup(workspace.account.id);
    const page = await freshPage();
    await page.goto(`${server.origin}/app/setup#${token}`);
    await page.getByText('You will own the workspace People e2e').waitFor();
    expect(await page.title()).toBe('Create the owner · Shortlinks');
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('New password').fill('password123');
    await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
    // A common password is refused at its field, and the link is not spent.
    await page.getByText('This password is one of the most common ones').waitFor();
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
    expect(await page.getByLabel('Workspace').inputValue()).toBe(workspace.account.id);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByTestId(`member-${OWNER}`).waitFor();
    expect(await page.getByTestId(`member-${OWNER}`).textContent()).toContain('owner');
    // The cookie is the server's: no script of the page can read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'shortlinks_session', httpOnly: true, sameSite: 'Lax' });
  });

  test('signing in with email and password, and out', async () => {
    const page = await freshPage();
    await page.goto(`${server.origin}/app`);
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('The email or the password is wrong').waitFor();
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Shared link' }).or(page.getByText('Shared link')).first().waitFor();
    // A reload keeps the session (the cookie), with no key stored anywhere.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.context().cookies()).toEqual([]);
  });

  test('a viewer sees no control that writes, and the server refuses a forged write', async () => {
    await addPerson('viewer@people.example', 'viewer');
    const page = await freshPage();
    await signIn(page, 'viewer@people.example');
    await page.getByText('Shared link').first().waitFor();
    expect(await page.getByRole('button', { name: 'New link' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Tags' }).click();
    await page.getByTestId('tag-row-Shared tag').waitFor();
    expect(await page.getByRole('button', { name: 'Add tag' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByTestId(`member-${OWNER}`).waitFor();
    expect(await page.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: /Role of/ }).count()).toBe(0);

    // The same write the hidden button would make, forged from the page itself with its session.
    const forged = await page.evaluate(async () => {
      const me = await (await fetch('/trpc/auth.me?input=%7B%7D')).json();
      const response = await fetch('/trpc/links.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.result.data.csrf_token },
        body: JSON.stringify({ title: 'Forged', destination_url: 'https://example.org/forged' }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error.data.appCode).toBe('FORBIDDEN');
    expect((await workspace.call('GET', '/links')).body.total).toBe(1);
  });

  test('removing someone ends their session in their open dashboard', async () => {
    const member = await addPerson('leaving@people.example', 'member');
    const theirs = await freshPage();
    await signIn(theirs, 'leaving@people.example');
    const owner = await freshPage();
    await signIn(owner, OWNER);
    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('button', { name: 'Remove leaving@people.example' }).click();
    await owner.getByTestId('member-leaving@people.example').waitFor({ state: 'detached' });
    expect((await server.services.members.list(workspace.account.id)).map((entry) => entry.user_id)).not.toContain(member.id);

    // Their next request is refused: the dashboard says so and asks them to sign in.
    await theirs.getByRole('link', { name: 'Overview' }).click();
    await theirs.getByText('Your session has ended. Sign in again.').waitFor();
    await theirs.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });
});
