import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, PASSWORD } from './people.ts';

/*
 * Signing in to the dashboard, from where an attacker stands (docs/security.md, "Sign-in"):
 * the cookie's flags, cross-site writes, telling emails apart, guessing, and where the cookie counts.
 * A real server on loopback with a real database.
 */

let server: TestServer;
let workspace: TestAccount;
const owner = 'owner@sign-in.example';

beforeAll(async () => {
  server = await startTestServer({ signInLimits: { perEmail: 1000, perAddress: 1000 } });
  workspace = await createAccount(server, { name: 'Sign-in' });
  await addPerson(server, workspace.account.id, 'owner', owner);
});
afterAll(() => server.close());

describe('the session cookie', () => {
  test('sign-in sets it HttpOnly, SameSite=Lax, for the whole site, and not Secure over plain HTTP', async () => {
    const browser = new Browser(server);
    const answer = await browser.signIn(owner);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ user: { email: owner }, workspace: { id: workspace.account.id, role: 'owner' } });
    const cookie = browser.setCookies.at(-1) ?? '';
    expect(cookie).toMatch(/^shortlinks_session=sls_[\w-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/; Secure/i);
    // The database keeps its hash only.
    const stored = await server.orm.em.fork().getConnection().execute('select token_hash from user_session');
    expect(stored.map((row) => row.token_hash)).not.toContain((browser.cookie ?? '').split('=')[1]);
  });

  test('behind a trusted proxy that says X-Forwarded-Proto: https, it is Secure', async () => {
    const proxied = await startTestServer({ databaseUrl: server.databaseUrl, trustProxy: true });
    try {
      const browser = new Browser(proxied);
      const answer = await browser.signIn(owner, PASSWORD, {
        'x-forwarded-proto': 'https',
        origin: proxied.origin.replace('http:', 'https:'),
      });
      expect(answer.status).toBe(200);
      expect(browser.setCookies.at(-1)).toMatch(/; Secure/i);
    } finally {
      await proxied.close();
    }
  });

  test('an untrusted client cannot claim HTTPS, and PUBLIC_URL https makes it Secure always', async () => {
    const untrusting = new Browser(server);
    await untrusting.signIn(owner, PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(untrusting.setCookies.at(-1)).not.toMatch(/; Secure/i);
    const public_ = await startTestServer({ databaseUrl: server.databaseUrl, publicUrl: 'https://links.example.com' });
    try {
      const browser = new Browser(public_);
      // The browser's page is at the public origin.
      const answer = await browser.signIn(owner, PASSWORD, { origin: `https://${new URL(public_.origin).host}` });
      expect(answer.status).toBe(200);
      expect(browser.setCookies.at(-1)).toMatch(/; Secure/i);
    } finally {
      await public_.close();
    }
  });

  test('signing in again rotates it: the old secret no longer works', async () => {
    const browser = new Browser(server);
    await browser.signIn(owner);
    const first = browser.cookie;
    await browser.signIn(owner);
    expect(browser.cookie).not.toBe(first);
    const old = new Browser(server);
    old.cookie = first;
    expect((await old.query('auth.me')).status).toBe(401);
    expect((await browser.query('auth.me')).status).toBe(200);
  });
});

describe('cross-site writes', () => {
  const create = { title: 'Cross-site', destination_url: 'https://example.com/cross-site' };

  test('refused with 403 FORBIDDEN from another origin, without the token, or without an Origin; nothing changes', async () => {
    const browser = new Browser(server);
    await browser.signIn(owner);
    const before = await countRows(server, 'link');
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'x-csrf-token': '' },
      { 'x-csrf-token': 'forged-token-of-the-same-length-as-a-real-one-xx' },
      { origin: '' },
    ] as Record<string, string>[]) {
      const answer = await browser.mutate('links.create', create, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.code).toBe('FORBIDDEN');
    }
    expect(await countRows(server, 'link')).toBe(before);
    // The same write from the dashboard itself.
    const done = await browser.mutate('links.create', create);
    expect(done.status).toBe(201);
    expect(await countRows(server, 'link')).toBe(before + 1);
  });

  test('another site cannot sign a browser in (login CSRF)', async () => {
    const browser = new Browser(server);
    const answer = await browser.signIn(owner, PASSWORD, { origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(browser.cookie).toBeUndefined();
  });

  test('reads with the cookie need no token', async () => {
    const browser = new Browser(server);
    await browser.signIn(owner);
    expect((await browser.query('links.list', {})).status).toBe(200);
  });
});

describe('/api/v1 is keys only', () => {
  test('the session cookie is never accepted there: 401, as without anything', async () => {
    const browser = new Browser(server);
    await browser.signIn(owner);
    const read = await callApi(server, undefined, 'GET', '/links', undefined, { cookie: browser.cookie ?? '' });
    expect(read.status).toBe(401);
    expect(read.body.code).toBe('UNAUTHORIZED');
    const write = await callApi(
      server,
      undefined,
      'POST',
      '/links',
      { title: 'x', destination_url: 'https://example.com/x' },
      {
        cookie: browser.cookie ?? '',
        origin: server.origin,
        'x-csrf-token': browser.csrfToken ?? '',
      },
    );
    expect(write.status).toBe(401);
    // The workspace's key works as before.
    expect((await workspace.call('GET', '/links')).status).toBe(200);
  });

  test('the people procedures have no REST route and are not in the OpenAPI document', async () => {
    expect((await workspace.call('POST', '/auth/sign-in', { email: owner, password: PASSWORD })).status).toBe(404);
    // biome-ignore lint/suspicious/noExplicitAny: the document is read by path
    const document: any = await (await fetch(`${server.api}/openapi.json`)).json();
    expect(JSON.stringify(Object.keys(document.paths))).not.toMatch(/auth|members|workspace/);
    // Each operation says the least role that may call it.
    expect(document.paths['/links'].post['x-role']).toBe('member');
    expect(document.paths['/links'].get['x-role']).toBe('viewer');
  });
});

describe('no user enumeration', () => {
  test('an unknown email and a wrong password get the same status and body', async () => {
    const unknown = await new Browser(server).signIn('nobody@sign-in.example', 'wrong password 123');
    const wrong = await new Browser(server).signIn(owner, 'wrong password 123');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect({ code: unknown.code, message: unknown.message }).toEqual({ code: wrong.code, message: wrong.message });
    expect(unknown.code).toBe('INVALID_CREDENTIALS');
  });

  test('and take the same time: the unknown email pays the argon2id verification too (medians within 2x)', async () => {
    // Interleaved, so load on the machine falls on both alike; medians ignore outliers. Without the
    // dummy verification an unknown email answers in about a millisecond, 20 to 100 times faster.
    const timed = async (email: string) => {
      const started = performance.now();
      await new Browser(server).signIn(email, 'wrong password 123');
      return performance.now() - started;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let round = 0; round < 9; round++) {
      unknown.push(await timed(`nobody-${round}@sign-in.example`));
      wrong.push(await timed(owner));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const ratio = median(unknown) / median(wrong);
    expect(ratio, `unknown ${median(unknown)} ms, wrong ${median(wrong)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

describe('limits on failed sign-ins', () => {
  test('past the limit per email, every attempt (the right password too) is 429 RATE_LIMITED with Retry-After', async () => {
    const limited = await startTestServer({ databaseUrl: server.databaseUrl, signInLimits: { perEmail: 3, perAddress: 100 } });
    try {
      for (let attempt = 0; attempt < 3; attempt++) expect((await new Browser(limited).signIn(owner, 'guess number one')).status).toBe(401);
      const refused = await new Browser(limited).signIn(owner, PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.code).toBe('RATE_LIMITED');
      expect(refused.message).toMatch(/too many failed sign-ins for this email; try again in \d+ minutes/i);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Another person is not held back by it.
      const other = 'other@sign-in.example';
      await addPerson(limited, workspace.account.id, 'member', other);
      expect((await new Browser(limited).signIn(other)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  test('past the limit per address, guessing many emails is refused too', async () => {
    const limited = await startTestServer({ databaseUrl: server.databaseUrl, signInLimits: { perEmail: 100, perAddress: 4 } });
    try {
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await new Browser(limited).signIn(`guess-${attempt}@sign-in.example`, 'guess number one')).status).toBe(401);
      }
      const refused = await new Browser(limited).signIn(owner, PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.message).toMatch(/from this address/);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  test('listed, ended one by one, signed out, and everywhere', async () => {
    const email = 'sessions@sign-in.example';
    await addPerson(server, workspace.account.id, 'member', email);
    const [laptop, phone, tablet] = [new Browser(server), new Browser(server), new Browser(server)];
    for (const browser of [laptop, phone, tablet]) expect((await browser.signIn(email)).status).toBe(200);
    const listed = await laptop.query('auth.sessions');
    expect(listed.data).toHaveLength(3);
    expect(listed.data.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ user_agent: 'people-test-browser', ip: '127.0.0.1' });

    const phoneId = (await phone.query('auth.sessions')).data.find((session: { current: boolean }) => session.current).id;
    expect((await laptop.mutate('auth.endSession', { id: phoneId })).status).toBe(200);
    expect((await phone.query('auth.me')).status).toBe(401);

    expect((await tablet.mutate('auth.signOut')).status).toBe(200);
    expect(tablet.cookie).toBeUndefined();
    expect((await laptop.query('auth.sessions')).data).toHaveLength(1);

    const again = new Browser(server);
    await again.signIn(email);
    expect((await again.mutate('auth.signOutEverywhere')).status).toBe(200);
    expect((await laptop.query('auth.me')).status).toBe(401);
    expect((await again.query('auth.me')).status).toBe(401);
  });

  test('a password change ends the other sessions and keeps the one that made it', async () => {
    const email = 'changer@sign-in.example';
    await addPerson(server, workspace.account.id, 'member', email);
    const [here, elsewhere] = [new Browser(server), new Browser(server)];
    await here.signIn(email);
    await elsewhere.signIn(email);
    const wrong = await here.mutate('auth.changePassword', { current_password: 'not it at all', new_password: 'a brand new passphrase' });
    expect(wrong.status).toBe(422);
    const common = await here.mutate('auth.changePassword', { current_password: PASSWORD, new_password: 'password1234' });
    expect(common).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(common.message).toMatch(/most common/);
    const short = await here.mutate('auth.changePassword', { current_password: PASSWORD, new_password: 'short' });
    expect(short.message).toMatch(/at least 10/);
    // Nothing was ended by the refused changes.
    expect((await elsewhere.query('auth.me')).status).toBe(200);

    const changed = await here.mutate('auth.changePassword', { current_password: PASSWORD, new_password: 'a brand new passphrase' });
    expect(changed.status).toBe(200);
    expect((await elsewhere.query('auth.me')).status).toBe(401);
    expect((await here.query('auth.me')).status).toBe(200);
    expect((await new Browser(server).signIn(email)).status).toBe(401);
    expect((await new Browser(server).signIn(email, 'a brand new passphrase')).status).toBe(200);
    const [row] = await server.orm.em.fork().getConnection().execute('select password_hash from app_user where email = ?', [email]);
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$/);
  });

  test('emails match whatever their case', async () => {
    expect((await new Browser(server).signIn(owner.toUpperCase())).status).toBe(200);
    await expect(server.services.users.create(owner.toUpperCase(), PASSWORD)).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
  });
});
