import { createHmac } from 'node:crypto';
import { freePort } from '@shortlinks/db/embedded';
import { startOpenIdProvider, type TestOpenIdProvider } from '@shortlinks/testing/openid-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestServer } from './harness.ts';
import { Browser } from './people.ts';

/*
 * Single sign-on's routes (docs/accounts.md, "Single sign-on") against a real OpenID provider
 * (oidc-provider on loopback): a session like a password sign-in's, people made just in time in the
 * operator's workspace and role, and the attacker's side of the callback (no cookie, another
 * sign-in's cookie, a replayed code, a domain not allowed).
 */

let setup: TestServer;
let server: TestServer;
let provider: TestOpenIdProvider;
let workspaceId: string;

beforeAll(async () => {
  setup = await startTestServer();
  workspaceId = (await createAccount(setup, { name: 'Acme' })).account.id;
  const port = await freePort();
  server = await startTestServer({
    databaseUrl: setup.databaseUrl,
    singleSignOn: {
      issuer: `http://127.0.0.1:${port}`,
      clientId: 'shortlinks-test',
      clientSecret: 'a-client-secret-of-the-test-provider',
      allowedEmailDomains: ['acme.com'],
      workspaceId,
      role: 'viewer',
      allowInsecureLoopbackIssuer: true,
    },
  });
  provider = await startOpenIdProvider({
    port,
    clientId: 'shortlinks-test',
    clientSecret: 'a-client-secret-of-the-test-provider',
    redirectUris: [`${server.origin}/auth/sso/callback`],
    accounts: [
      { email: 'grace@acme.com', emailVerified: true, subject: 'grace-1' },
      { email: 'mallory@evil-acme.com', emailVerified: true, subject: 'mallory-1' },
    ],
  });
}, 90_000);
afterAll(async () => {
  await provider?.close();
  await server?.close();
  await setup?.close();
});

const cookieFrom = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0];

/** Starts a sign-in: the provider's URL and the pending cookie. */
async function start() {
  const response = await fetch(`${server.origin}/auth/sso/start`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return { authorizationUrl: response.headers.get('location') ?? '', cookie: cookieFrom(response, 'shortlinks_sso'), response };
}

async function callback(url: string | URL, cookie: string | undefined) {
  return fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

describe('single sign-on routes', () => {
  test('says it is configured, and a first sign-in makes the person, in the workspace and role, signed in', async () => {
    expect(await (await fetch(`${server.origin}/auth/sso`)).json()).toEqual({ enabled: true });
    expect(await (await fetch(`${setup.origin}/auth/sso`)).json()).toEqual({ enabled: false });

    const { authorizationUrl, cookie, response } = await start();
    expect(authorizationUrl.startsWith(provider.issuer)).toBe(true);
    const line = response.headers.getSetCookie().find((entry) => entry.startsWith('shortlinks_sso='));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\/auth\/sso/i);

    const done = await callback(await provider.signIn(authorizationUrl, 'grace@acme.com'), cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/app/');
    const session = cookieFrom(done, 'shortlinks_session');
    expect(session).toMatch(/^shortlinks_session=sls_/);
    const browser = new Browser(server);
    browser.cookie = session;
    const me = await browser.query('auth.me');
    expect(me.data).toMatchObject({ user: { email: 'grace@acme.com' }, workspace: { id: workspaceId, role: 'viewer' } });

    // Again: the same person (linked by issuer and subject), no second one.
    const again = await start();
    const second = await callback(await provider.signIn(again.authorizationUrl, 'grace@acme.com'), again.cookie);
    expect(second.headers.get('location')).toBe('/app/');
    const people = await server.orm.em.fork().getConnection().execute("select id from app_user where lower(email) = 'grace@acme.com'");
    expect(people).toHaveLength(1);
  });

  test('the callback without its cookie, or with another sign-in’s, is refused; a code works once', async () => {
    const first = await start();
    const second = await start();
    const url = await provider.signIn(first.authorizationUrl, 'grace@acme.com');
    for (const cookie of [undefined, second.cookie, 'shortlinks_sso=forged']) {
      const refused = await callback(url, cookie);
      expect(refused.headers.get('location')).toBe('/app/?sso_error=state_mismatch');
      expect(cookieFrom(refused, 'shortlinks_session')).toBeUndefined();
    }
    const third = await start();
    const url3 = await provider.signIn(third.authorizationUrl, 'grace@acme.com');
    expect((await callback(url3, third.cookie)).headers.get('location')).toBe('/app/');
    const replayed = await callback(url3, third.cookie);
    expect(replayed.headers.get('location')).toMatch(/^\/app\/\?sso_error=/);
    expect(cookieFrom(replayed, 'shortlinks_session')).toBeUndefined();
  });

  test('the pending cookie is signed: an altered, unsigned or foreign-signed one is refused before anything is checked', async () => {
    const { authorizationUrl, cookie } = await start();
    const value = decodeURIComponent(cookie?.slice('shortlinks_sso='.length) ?? '');
    const [state, nonce, verifier, signature] = value.split('.');
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}$/);
    const url = await provider.signIn(authorizationUrl, 'grace@acme.com');
    const ownVerifier = 'v'.repeat(43);
    const resigned = (body: string, key: string) => `${body}.${createHmac('sha256', key).update(body).digest('base64').replace(/=/g, '')}`;
    const attempts = [
      // The attacker's own verifier and nonce under the state the provider returns, with the old signature.
      `${state}.${'n'.repeat(43)}.${ownVerifier}.${signature}`,
      // The same values, unsigned (the cookie's form before signing).
      `${state}.${nonce}.${verifier}`,
      // Signed with a key that is not the server's (the client secret itself, not the derived key).
      resigned(`${state}.${nonce}.${ownVerifier}`, 'a-client-secret-of-the-test-provider'),
      // One character of the signature changed.
      `${state}.${nonce}.${verifier}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`,
    ];
    for (const forged of attempts) {
      const refused = await callback(url, `shortlinks_sso=${encodeURIComponent(forged)}`);
      expect(refused.headers.get('location')).toBe('/app/?sso_error=state_mismatch');
      expect(cookieFrom(refused, 'shortlinks_session')).toBeUndefined();
    }
    // The real cookie still finishes that sign-in: the refusals above spent nothing.
    expect((await callback(url, cookie)).headers.get('location')).toBe('/app/');
  });

  test('an email of a domain not allowed makes nobody', async () => {
    const { authorizationUrl, cookie } = await start();
    const refused = await callback(await provider.signIn(authorizationUrl, 'mallory@evil-acme.com'), cookie);
    expect(refused.headers.get('location')).toBe('/app/?sso_error=domain_not_allowed');
    const rows = await server.orm.em.fork().getConnection().execute("select id from app_user where email like '%evil-acme.com'");
    expect(rows).toHaveLength(0);
  });
});
