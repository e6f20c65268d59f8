import { once } from 'node:events';
import { createServer } from 'node:net';
import { createAccount, type TestServer } from '@shortlinks/testing';
import { startOpenIdProvider, type TestOpenIdProvider } from '@shortlinks/testing/openid-provider';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type DashboardBrowser, launchDashboardBrowser, screenshotAll } from './browser.ts';
import { startTestServer } from './test-server.ts';

/*
 * Single sign-on in Chromium through a real OpenID provider (oidc-provider on loopback, its port
 * reserved first so the server and the provider know each other's URL): "Sign in with SSO", the
 * provider's page, and back in the dashboard, signed in as a person made just in time.
 */

/** A loopback port free now, reserved for the provider before the server that must know its URL starts. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let setup: TestServer;
let server: TestServer;
let provider: TestOpenIdProvider;
let browser: DashboardBrowser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [setup, browser] = await Promise.all([startTestServer(), launchDashboardBrowser()]);
  const workspaceId = (await createAccount(setup, { name: 'Acme SSO' })).account.id;
  const port = await freePort();
  const client = { clientId: 'shortlinks-e2e', clientSecret: 'the-e2e-client-secret-0123456789' };
  server = await startTestServer({
    databaseUrl: setup.databaseUrl,
    singleSignOn: {
      issuer: `http://127.0.0.1:${port}`,
      ...client,
      allowedEmailDomains: ['acme.com'],
      workspaceId,
      role: 'member',
      allowInsecureLoopbackIssuer: true,
    },
  });
  provider = await startOpenIdProvider({
    port,
    ...client,
    redirectUris: [`${server.origin}/auth/sso/callback`],
    accounts: [
      { email: 'grace@acme.com', emailVerified: true },
      { email: 'eve@elsewhere.org', emailVerified: true },
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await server?.close();
  await setup?.close();
});
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    for (const context of contexts) await screenshotAll(context, `sso-${task.name}`);
  });
});

async function ssoAs(email: string) {
  const { context } = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${server.origin}/app`);
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.locator('input[name=email]').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

describe('single sign-on', () => {
  test('through the provider and back, signed in as a new member', async () => {
    const page = await ssoAs('grace@acme.com');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'shortlinks_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  test('an email of a domain not allowed comes back refused, in words', async () => {
    const page = await ssoAs('eve@elsewhere.org');
    await page.getByText('Your email’s domain may not sign in here.').waitFor();
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('shortlinks_session');
  });
});
