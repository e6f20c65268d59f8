import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEmptyDatabase, type TestServer } from './harness.ts';
import { Browser, PASSWORD } from './people.ts';
import { freePort, isReady, runCli, startServerProcess, waitFor } from './processes.ts';

/*
 * The first start (docs/accounts.md, "The first start"): `npm start` on an empty database prints
 * the default key for API users and a one-time link that creates the dashboard's first owner; the
 * operator's `pnpm shortlinks user …` adds people and resets passwords with one-time links.
 */

const SETUP_LINK = /(http:\/\/\S+\/app\/setup)#(slp_[\w-]{43})/;
const PASSWORD_LINK = /#(slp_[\w-]{43})/;

let env: Record<string, string>;
let base: string;
let server: ReturnType<typeof startServerProcess> | undefined;

beforeAll(async () => {
  const port = await freePort();
  env = { DATABASE_URL: await createEmptyDatabase(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server) await new Promise((resolve) => server?.child.once('exit', resolve));
});

/** A browser of the process's server (the Browser helper needs only its origin). */
const browserOf = () => new Browser({ origin: base } as TestServer);

describe('the first start', () => {
  test('prints the default key and a one-time link that creates the owner, once', { timeout: 90_000 }, async () => {
    server = startServerProcess(env);
    await waitFor(() => SETUP_LINK.test(server?.output() ?? ''), 60_000, 'the first owner link');
    await waitFor(() => isReady(base), 10_000, 'the server');
    const output = server.output();
    expect(output).toMatch(/slk_[\w-]{20,}/);
    const [, page, token] = SETUP_LINK.exec(output) ?? [];
    expect(page).toBe(`${base}/app/setup`);

    const browser = browserOf();
    const described = await browser.query('auth.passwordLink', { token });
    expect(described.data).toMatchObject({ purpose: 'setup', email: null, workspace: 'Default' });
    const weak = await browser.mutate('auth.usePasswordLink', { token, email: 'ada@first.example', password: 'password123' });
    expect(weak).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    // A refused password does not spend the link.
    const used = await browser.mutate('auth.usePasswordLink', { token, email: 'ada@first.example', password: PASSWORD });
    expect(used.status).toBe(200);
    expect(used.data).toMatchObject({ user: { email: 'ada@first.example' }, workspace: { name: 'Default', role: 'owner' } });
    expect(browser.cookie).toMatch(/^shortlinks_session=sls_/);
    browser.csrfToken = used.data.csrf_token;
    expect((await browser.query('auth.me')).status).toBe(200);

    const again = await browserOf().mutate('auth.usePasswordLink', { token, email: 'mallory@first.example', password: PASSWORD });
    expect(again).toMatchObject({ status: 410, code: 'ONE_TIME_LINK_INVALID' });
    expect((await browserOf().signIn('ada@first.example')).status).toBe(200);
  });

  test('pnpm shortlinks user create, list and reset-password', { timeout: 90_000 }, async () => {
    const accounts = JSON.parse((await runCli(['account', 'list', '--json'], env)).stdout) as { accounts: { id: string }[] };
    const accountId = accounts.accounts[0]?.id ?? '';
    const created = await runCli(
      ['user', 'create', '--email', 'grace@first.example', '--account', accountId, '--role', 'viewer', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    const { password_link: link } = JSON.parse(created.stdout) as { password_link: string };
    expect(link).toMatch(new RegExp(`^${base}/app/set-password#slp_`));
    const token = PASSWORD_LINK.exec(link)?.[1];
    const grace = browserOf();
    expect((await grace.mutate('auth.usePasswordLink', { token, password: PASSWORD })).data.workspace).toMatchObject({ role: 'viewer' });

    const listed = await runCli(['user', 'list'], env);
    expect(listed.stdout).toMatch(/ada@first\.example .*Default=owner/);
    expect(listed.stdout).toMatch(/grace@first\.example .*Default=viewer/);

    const signedIn = browserOf();
    await signedIn.signIn('ada@first.example');
    const reset = await runCli(['user', 'reset-password', 'ada@first.example'], env);
    expect(reset.code).toBe(0);
    const resetToken = PASSWORD_LINK.exec(reset.stdout)?.[1];
    expect((await browserOf().mutate('auth.usePasswordLink', { token: resetToken, password: 'a new password for ada' })).status).toBe(200);
    // Setting a password ends every other session of the person.
    expect((await signedIn.query('auth.me')).status).toBe(401);
    expect((await browserOf().signIn('ada@first.example', 'a new password for ada')).status).toBe(200);

    const unknown = await runCli(['user', 'reset-password', 'nobody@first.example'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No person with the email nobody@first\.example/);
  });

  test('a restart once someone can sign in prints no owner link', { timeout: 90_000 }, async () => {
    server?.child.kill('SIGTERM');
    await new Promise((resolve) => server?.child.once('exit', resolve));
    server = startServerProcess(env);
    // What the start prints comes at once, after it listens: the addresses, then a link if any.
    await waitFor(() => /Short links:/.test(server?.output() ?? ''), 60_000, 'the restarted server');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.output()).not.toMatch(/\/app\/setup#/);
  });
});
