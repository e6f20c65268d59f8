import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, PASSWORD } from './people.ts';

/*
 * Two-factor sign-in (docs/accounts.md, "Two-factor sign-in") against a real server and database:
 * enrolment, the second step that cannot be skipped, codes used once, guessing bounded, recovery
 * codes, turning it off, and the workspace's requirement. Codes are computed here with otplib.
 */

let server: TestServer;
let workspace: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ signInLimits: { perEmail: 1000, perAddress: 1000 } });
  workspace = await createAccount(server, { name: 'Two-factor' });
}, 60_000);
afterAll(() => server?.close());

// biome-ignore lint/suspicious/noExplicitAny: rows are asserted column by column
const rows = async (sql: string, ...params: unknown[]): Promise<any[]> => server.orm.em.fork().getConnection().execute(sql, params);

/** A code of the authenticator app, `stepsAhead` 30-second steps from now (±1 step is accepted). */
const codeOf = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** The pending sign-in's cookie from the browser's last answer. */
function pendingCookie(browser: Browser): string | undefined {
  const line = [...browser.setCookies].reverse().find((cookie) => cookie.startsWith('shortlinks_sign_in='));
  const value = line?.split(';')[0]?.split('=')[1];
  return value ? `shortlinks_sign_in=${value}` : undefined;
}

/** Signs in with the password and finishes the second step with `code`. */
async function secondStep(browser: Browser, code: string, pending = pendingCookie(browser), headers: Record<string, string> = {}) {
  const answer = await browser.mutate('twoFactor.signIn', { code }, { cookie: pending ?? '', ...headers });
  if (answer.status === 200) browser.csrfToken = answer.data.csrf_token;
  return answer;
}

/** A person with two-factor on; answers their secret and recovery codes. */
async function enrolled(email: string, role: 'owner' | 'member' = 'member') {
  await addPerson(server, workspace.account.id, role, email);
  const browser = new Browser(server);
  expect((await browser.signIn(email)).status).toBe(200);
  const enrolment = await browser.mutate('twoFactor.enrol');
  const confirmed = await browser.mutate('twoFactor.confirm', { code: await codeOf(enrolment.data.secret) });
  expect(confirmed.status, confirmed.message).toBe(200);
  return { browser, secret: enrolment.data.secret as string, recovery: confirmed.data.recovery_codes as string[] };
}

describe('enrolment', () => {
  test('shows the secret and its QR code, turns on only with a right code, and shows 10 recovery codes once', async () => {
    const email = 'enrol@two-factor.example';
    await addPerson(server, workspace.account.id, 'member', email);
    const browser = new Browser(server);
    await browser.signIn(email);
    const enrolment = await browser.mutate('twoFactor.enrol');
    expect(enrolment.status).toBe(200);
    expect(enrolment.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.data.otpauth_uri).toBe(
      `otpauth://totp/Shortlinks:${encodeURIComponent(email)}?secret=${enrolment.data.secret}&issuer=Shortlinks`.replace('%40', '%40'),
    );
    expect(enrolment.data.qr_code).toMatch(/^data:image\/svg\+xml/);
    expect((await browser.query('twoFactor.status')).data).toEqual({ enabled: false, recovery_codes_left: 0, required_here: false });

    expect(await browser.mutate('twoFactor.confirm', { code: '000000' })).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    const confirmed = await browser.mutate('twoFactor.confirm', { code: await codeOf(enrolment.data.secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.recovery_codes).toHaveLength(10);
    const status = await browser.query('twoFactor.status');
    expect(status.data).toEqual({ enabled: true, recovery_codes_left: 10, required_here: false });
    // Recovery codes are kept as hashes only; the secret is never answered again.
    const stored = await rows('select * from two_factor where user_id = (select id from app_user where email = ?)', email);
    for (const code of confirmed.data.recovery_codes) expect(JSON.stringify(stored)).not.toContain(code);
    expect(JSON.stringify(status.data)).not.toContain(enrolment.data.secret);
  });
});

describe('signing in with two-factor on', () => {
  test('the password alone starts no session; the code does, once', async () => {
    const email = 'second@two-factor.example';
    const { secret } = await enrolled(email);
    const sessionsBefore = await rows('select id from user_session where user_id = (select id from app_user where email = ?)', email);

    const browser = new Browser(server);
    const first = await browser.signIn(email);
    expect(first).toMatchObject({ status: 401, code: 'TWO_FACTOR_REQUIRED' });
    expect(browser.cookie).toBeUndefined();
    const pending = browser.setCookies.find((c) => c.startsWith('shortlinks_sign_in='));
    expect(pending).toMatch(/HttpOnly/i);
    expect(pending).toMatch(/SameSite=Strict/i);
    expect(pending).toMatch(/Path=\/trpc/i);
    expect(pending).toMatch(/Max-Age=300/i);
    const sessionsAfter = await rows('select id from user_session where user_id = (select id from app_user where email = ?)', email);
    expect(sessionsAfter).toHaveLength(sessionsBefore.length);

    // Skipping the step: the pending cookie is no session, nor is its value as the session cookie.
    const cookie = pendingCookie(browser) ?? '';
    expect((await browser.query('auth.me', {}, { cookie })).status).toBe(401);
    expect((await browser.query('links.list', {}, { cookie: cookie.replace('shortlinks_sign_in', 'shortlinks_session') })).status).toBe(
      401,
    );
    // The code of an already used step (enrolment used this one) is refused.
    expect(await secondStep(browser, await codeOf(secret))).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });

    const next = await codeOf(secret, 1);
    const done = await secondStep(browser, next, cookie);
    expect(done.status, done.message).toBe(200);
    expect(done.data.user.email).toBe(email);
    expect(browser.cookie).toMatch(/^shortlinks_session=sls_/);
    expect((await browser.query('auth.me')).status).toBe(200);
    // The pending sign-in is used up, and the same code is refused for another sign-in.
    expect(await secondStep(new Browser(server), next, cookie)).toMatchObject({ status: 401, code: 'TWO_FACTOR_EXPIRED' });
    const again = new Browser(server);
    await again.signIn(email);
    expect(await secondStep(again, next)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
  });

  test('a recovery code works once', async () => {
    const email = 'recovery@two-factor.example';
    const { recovery, browser: enrolling } = await enrolled(email);
    const browser = new Browser(server);
    await browser.signIn(email);
    expect((await secondStep(browser, recovery[0]!.toUpperCase())).status).toBe(200);
    expect((await enrolling.query('twoFactor.status')).data.recovery_codes_left).toBe(9);
    const again = new Browser(server);
    await again.signIn(email);
    expect(await secondStep(again, recovery[0]!)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect((await secondStep(again, recovery[1]!)).status).toBe(200);
  });

  test('guessing: five wrong codes end the pending sign-in, and then even the right code fails', async () => {
    const email = 'guess@two-factor.example';
    const { secret } = await enrolled(email);
    const browser = new Browser(server);
    await browser.signIn(email);
    const cookie = pendingCookie(browser);
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(await secondStep(browser, String(100000 + attempt), cookie)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    }
    expect(await secondStep(browser, '100005', cookie)).toMatchObject({ status: 401, code: 'TWO_FACTOR_EXPIRED' });
    expect(await secondStep(browser, await codeOf(secret, 1), cookie)).toMatchObject({ status: 401, code: 'TWO_FACTOR_EXPIRED' });
  });

  test('wrong codes count against the sign-in limits of the email', async () => {
    const limited = await startTestServer({ databaseUrl: server.databaseUrl, signInLimits: { perEmail: 3, perAddress: 1000 } });
    try {
      const email = 'limited@two-factor.example';
      const { secret } = await enrolled(email);
      const browser = new Browser(limited);
      await browser.signIn(email);
      const cookie = pendingCookie(browser);
      for (let attempt = 1; attempt <= 3; attempt++) await secondStep(browser, '123456', cookie);
      const refused = await secondStep(browser, await codeOf(secret, 1), cookie);
      expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  test('the second step is bounded in time', async () => {
    const email = 'slow@two-factor.example';
    const { secret } = await enrolled(email);
    const browser = new Browser(server);
    await browser.signIn(email);
    await rows(
      "update pending_sign_in set expires_at = now() - interval '1 second' where user_id = (select id from app_user where email = ?)",
      email,
    );
    expect(await secondStep(browser, await codeOf(secret, 1))).toMatchObject({ status: 401, code: 'TWO_FACTOR_EXPIRED' });
  });

  test('two requests racing with one code: one session', async () => {
    const email = 'race@two-factor.example';
    const { secret } = await enrolled(email);
    const a = new Browser(server);
    await a.signIn(email);
    const b = new Browser(server);
    await b.signIn(email);
    const code = await codeOf(secret, 1);
    const answers = await Promise.all([secondStep(a, code), secondStep(b, code)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
  });

  test('a cross-site second step is refused, and an invitation cannot bypass it with the password alone', async () => {
    const email = 'crosssite@two-factor.example';
    const { secret } = await enrolled(email);
    const browser = new Browser(server);
    await browser.signIn(email);
    expect(await secondStep(browser, await codeOf(secret, 1), undefined, { origin: 'https://evil.example' })).toMatchObject({
      status: 403,
    });

    const other = await createAccount(server, { name: 'Other' });
    const owner = await addPerson(server, other.account.id, 'owner', 'owner@other.example');
    const invitation = await server.services.invitations.create(
      {
        accountId: other.account.id,
        keyId: null,
        scopes: null,
        role: 'owner',
        user: { id: owner.id, email: owner.email },
        session: null,
        plan: 'starter',
        rateLimit: null,
      },
      email,
      'member',
    );
    const token = new URL(invitation.url).hash.slice(1);
    expect(await new Browser(server).mutate('invitations.accept', { token, password: PASSWORD })).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
  });
});

describe('new recovery codes', () => {
  test('need the password or a code; the old codes stop working, the new ones work once, only hashes are kept', async () => {
    const email = 'regenerate@two-factor.example';
    const { browser, secret, recovery } = await enrolled(email);
    const hashesBefore = (
      await rows('select recovery_code_hashes from two_factor t join app_user u on u.id = t.user_id where u.email = ?', email)
    )[0];

    // No proof, a wrong password, a wrong code: refused on their field, nothing changed.
    expect(await browser.mutate('twoFactor.recoveryCodes', {})).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', field: 'code' });
    expect(await browser.mutate('twoFactor.recoveryCodes', { password: 'not my password at all' })).toMatchObject({
      status: 422,
      field: 'password',
    });
    expect(await browser.mutate('twoFactor.recoveryCodes', { code: '000000' })).toMatchObject({ status: 422, field: 'code' });
    expect(await browser.mutate('twoFactor.recoveryCodes', { code: '1', extra: true })).toMatchObject({ status: 422 });
    const hashesAfterRefusals = (
      await rows('select recovery_code_hashes from two_factor t join app_user u on u.id = t.user_id where u.email = ?', email)
    )[0];
    expect(hashesAfterRefusals).toEqual(hashesBefore);

    // With the password.
    const byPassword = await browser.mutate('twoFactor.recoveryCodes', { password: PASSWORD });
    expect(byPassword.status, byPassword.message).toBe(200);
    const fresh = byPassword.data.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recovery.includes(code))).toBe(false);
    expect((await browser.query('twoFactor.status')).data.recovery_codes_left).toBe(10);
    const stored = JSON.stringify(await rows('select * from two_factor t join app_user u on u.id = t.user_id where u.email = ?', email));
    for (const code of fresh) expect(stored).not.toContain(code);

    // An old code no longer signs in; a new one does, once.
    const old = new Browser(server);
    await old.signIn(email);
    expect(await secondStep(old, recovery[1]!)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect((await secondStep(old, fresh[0]!)).status).toBe(200);
    const reused = new Browser(server);
    await reused.signIn(email);
    expect(await secondStep(reused, fresh[0]!)).toMatchObject({ status: 422 });

    // With a code from the app: again a whole new set, and the previous one is gone.
    const byCode = await browser.mutate('twoFactor.recoveryCodes', { code: await codeOf(secret, 1) });
    expect(byCode.status, byCode.message).toBe(200);
    const third = new Browser(server);
    await third.signIn(email);
    expect(await secondStep(third, fresh[1]!)).toMatchObject({ status: 422 });
    expect((await secondStep(third, byCode.data.recovery_codes[0])).status).toBe(200);
  });

  test('are refused while two-factor is off', async () => {
    const email = 'no-two-factor@two-factor.example';
    await addPerson(server, workspace.account.id, 'member', email);
    const browser = new Browser(server);
    await browser.signIn(email);
    expect(await browser.mutate('twoFactor.recoveryCodes', { password: PASSWORD })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    expect((await rows('select 1 from two_factor t join app_user u on u.id = t.user_id where u.email = ?', email)).length).toBe(0);
  });
});

describe('turning it off', () => {
  test('needs a code or the password', async () => {
    const email = 'off@two-factor.example';
    const { browser, secret } = await enrolled(email);
    expect(await browser.mutate('twoFactor.disable', {})).toMatchObject({ status: 422 });
    expect(await browser.mutate('twoFactor.disable', { password: 'not my password at all' })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    expect(await browser.mutate('twoFactor.disable', { code: '000000' })).toMatchObject({ status: 422 });
    expect((await browser.mutate('twoFactor.disable', { code: await codeOf(secret, 1) })).status).toBe(200);
    expect((await new Browser(server).signIn(email)).status).toBe(200);
  });
});

describe('the workspace requires it', () => {
  test('the owner turns it on for themselves first; members without it may only enrol, then work', async () => {
    const owned = await createAccount(server, { name: 'Strict' });
    await addPerson(server, owned.account.id, 'owner', 'strict.owner@two-factor.example');
    await addPerson(server, owned.account.id, 'member', 'strict.member@two-factor.example');
    const owner = new Browser(server);
    await owner.signIn('strict.owner@two-factor.example');
    expect(await owner.mutate('twoFactor.require', { required: true })).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    const enrolment = await owner.mutate('twoFactor.enrol');
    await owner.mutate('twoFactor.confirm', { code: await codeOf(enrolment.data.secret) });
    expect((await owner.mutate('twoFactor.require', { required: true })).status).toBe(200);

    const member = new Browser(server);
    expect((await member.signIn('strict.member@two-factor.example')).status).toBe(200);
    expect(await member.query('links.list', {})).toMatchObject({ status: 403, code: 'TWO_FACTOR_ENROLMENT_REQUIRED' });
    expect(await member.mutate('tags.create', { name: 'nope' })).toMatchObject({ status: 403, code: 'TWO_FACTOR_ENROLMENT_REQUIRED' });
    expect((await member.query('twoFactor.status')).data.required_here).toBe(true);
    expect((await member.query('auth.me')).status).toBe(200);
    const own = await member.mutate('twoFactor.enrol');
    expect((await member.mutate('twoFactor.confirm', { code: await codeOf(own.data.secret) })).status).toBe(200);
    expect((await member.query('links.list', {})).status).toBe(200);
    // The API's keys are not sessions: /api/v1 is unchanged.
    expect((await owned.call('GET', '/links')).status).toBe(200);
  });
});
