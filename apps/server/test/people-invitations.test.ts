import { createHash, randomBytes } from 'node:crypto';
import { createMailer } from '@shortlinks/api/mailer';
import { startSmtpServer, type TestSmtpServer } from '@shortlinks/testing/smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, PASSWORD } from './people.ts';

/*
 * Invitations (docs/accounts.md, "Invitations"), against a real server, a real database and a real
 * SMTP server on loopback: single use, stored hashed, expiry, revocation, the role ceiling, mail,
 * and the attacker's side (guessing, reuse, cross-site writes).
 */

const DASHBOARD = 'https://links.example.test/app';
let smtp: TestSmtpServer;
let server: TestServer;
let workspace: TestAccount;
const owner = 'owner@invite.example';
const admin = 'admin@invite.example';
const member = 'member@invite.example';
let ownerBrowser: Browser;
let adminBrowser: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    dashboardUrl: DASHBOARD,
    mailer: createMailer({ smtpUrl: smtp.url, from: 'Shortlinks <links@invite.example>', timeoutMs: 5_000 }),
    signInLimits: { perEmail: 1000, perAddress: 1000 },
  });
  workspace = await createAccount(server, { name: 'Invite & Co' });
  await addPerson(server, workspace.account.id, 'owner', owner);
  await addPerson(server, workspace.account.id, 'admin', admin);
  await addPerson(server, workspace.account.id, 'member', member);
  ownerBrowser = new Browser(server);
  expect((await ownerBrowser.signIn(owner)).status).toBe(200);
  adminBrowser = new Browser(server);
  expect((await adminBrowser.signIn(admin)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** The token of an invitation link (in its fragment). */
const tokenOf = (url: string) => new URL(url).hash.slice(1);

async function invite(by: Browser, email: string, role = 'member') {
  const answer = await by.mutate('invitations.create', { email, role });
  expect(answer.status, answer.message).toBe(201);
  return { ...answer.data, token: tokenOf(answer.data.url) };
}

// biome-ignore lint/suspicious/noExplicitAny: rows are asserted column by column
const rows = async (sql: string, ...params: unknown[]): Promise<any[]> => server.orm.em.fork().getConnection().execute(sql, params);

describe('inviting', () => {
  test('shows the link to hand over, mails it through SMTP, and keeps only the token’s hash', async () => {
    const created = await invite(ownerBrowser, 'new.person@example.test', 'member');
    expect(created.url).toMatch(new RegExp(`^${DASHBOARD}/invitation#[A-Za-z0-9_-]{43}$`));
    expect(created.email).toBe('sent');
    expect(created.invitation).toMatchObject({ email: 'new.person@example.test', role: 'member', invited_by: owner });

    const mail = await smtp.waitForMail((m) => m.envelope.to.includes('new.person@example.test'), 10_000);
    expect(mail.message.subject).toBe(`${owner} invited you to Invite & Co on Shortlinks`);
    expect(mail.message.text).toContain(created.url);

    // At rest: the SHA-256 only; the token appears in no column of any invitation.
    const stored = await rows('select * from invitation where id = ?', created.invitation.id);
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(await rows('select * from invitation'))).not.toContain(created.token);

    const pending = await ownerBrowser.query('invitations.list');
    expect(pending.data.mails).toBe(true);
    expect(pending.data.invitations.map((i: { email: string }) => i.email)).toContain('new.person@example.test');
    expect(JSON.stringify(pending.data)).not.toContain(created.token);
  });

  test('without SMTP_URL nothing is mailed, and the link is still shown', async () => {
    const plain = await startTestServer({ databaseUrl: server.databaseUrl, dashboardUrl: DASHBOARD });
    try {
      const browser = new Browser(plain);
      await browser.signIn(owner);
      const answer = await browser.mutate('invitations.create', { email: 'handed.over@example.test', role: 'viewer' });
      expect(answer.status).toBe(201);
      expect(answer.data).toMatchObject({ email: 'not_configured', email_error: null });
      expect(answer.data.url).toMatch(/#[A-Za-z0-9_-]{43}$/);
    } finally {
      await plain.close();
    }
  });

  test('a mail server that is down fails the mail, not the invitation', async () => {
    const down = await startTestServer({
      databaseUrl: server.databaseUrl,
      mailer: createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'links@invite.example', timeoutMs: 2_000 }),
    });
    try {
      const browser = new Browser(down);
      await browser.signIn(owner);
      const answer = await browser.mutate('invitations.create', { email: 'mail.down@example.test', role: 'viewer' });
      expect(answer.status).toBe(201);
      expect(answer.data.email).toBe('failed');
      expect(answer.data.email_error).toMatch(/could not reach/);
    } finally {
      await down.close();
    }
  });

  test('never above the inviter’s own role; members and viewers cannot invite at all', async () => {
    const tooHigh = await adminBrowser.mutate('invitations.create', { email: 'boss@example.test', role: 'owner' });
    expect(tooHigh).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await rows("select 1 from invitation where email = 'boss@example.test'")).toHaveLength(0);
    expect((await adminBrowser.mutate('invitations.create', { email: 'peer@example.test', role: 'admin' })).status).toBe(201);
    expect((await ownerBrowser.mutate('invitations.create', { email: 'co.owner@example.test', role: 'owner' })).status).toBe(201);

    const memberBrowser = new Browser(server);
    await memberBrowser.signIn(member);
    expect(await memberBrowser.mutate('invitations.create', { email: 'friend@example.test', role: 'viewer' })).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect((await memberBrowser.query('invitations.list')).status).toBe(403);
  });

  test('bad input is a 422 on its field; a member already there is a 409', async () => {
    expect(await ownerBrowser.mutate('invitations.create', { email: 'not an email', role: 'member' })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    expect(await ownerBrowser.mutate('invitations.create', { email: 'x@example.test', role: 'emperor' })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    expect(await ownerBrowser.mutate('invitations.create', { email: member.toUpperCase(), role: 'viewer' })).toMatchObject({
      status: 409,
      code: 'ALREADY_MEMBER',
    });
  });
});

describe('accepting', () => {
  test('a new person sets a password (under the rules), joins with the role, and is signed in; the link works once', async () => {
    const created = await invite(adminBrowser, 'grace@example.test', 'viewer');
    const invitee = new Browser(server);
    const offer = await invitee.query('invitations.describe', { token: created.token });
    expect(offer.data).toMatchObject({ workspace: 'Invite & Co', email: 'grace@example.test', role: 'viewer', existing_user: false });

    // A weak password is refused, and the invitation stays usable.
    expect(await invitee.mutate('invitations.accept', { token: created.token, password: 'password123' })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    expect(await invitee.mutate('invitations.accept', { token: created.token })).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });

    const accepted = await invitee.mutate('invitations.accept', { token: created.token, password: PASSWORD });
    expect(accepted.status, accepted.message).toBe(200);
    expect(accepted.data).toMatchObject({ user: { email: 'grace@example.test' }, workspace: { id: workspace.account.id, role: 'viewer' } });
    expect(invitee.cookie).toMatch(/^shortlinks_session=sls_/);
    invitee.csrfToken = accepted.data.csrf_token;
    expect((await invitee.query('auth.me')).data.workspace.role).toBe('viewer');

    // Twice: a clear refusal, for the page and for acceptance alike, by anyone.
    const again = new Browser(server);
    expect(await again.query('invitations.describe', { token: created.token })).toMatchObject({ status: 410, code: 'INVITATION_ACCEPTED' });
    expect(await again.mutate('invitations.accept', { token: created.token, password: 'another long password 9' })).toMatchObject({
      status: 410,
      code: 'INVITATION_ACCEPTED',
    });
    const pending = await ownerBrowser.query('invitations.list');
    expect(pending.data.invitations.map((i: { id: string }) => i.id)).not.toContain(created.invitation.id);
  });

  test('an existing person accepts signed in, or by signing in with their password', async () => {
    const other = await createAccount(server, { name: 'Elsewhere' });
    await addPerson(server, other.account.id, 'member', 'ada@example.test');
    await addPerson(server, other.account.id, 'member', 'linus@example.test');

    // Signed in as the invited email: they join, and work in the new workspace.
    const first = await invite(ownerBrowser, 'ADA@example.test', 'member');
    const ada = new Browser(server);
    await ada.signIn('ada@example.test');
    expect((await ada.query('invitations.describe', { token: first.token })).data.existing_user).toBe(true);
    const joined = await ada.mutate('invitations.accept', { token: first.token });
    expect(joined.status, joined.message).toBe(200);
    expect(joined.data.workspace).toMatchObject({ id: workspace.account.id, role: 'member' });
    expect(joined.data.workspaces.map((w: { id: string }) => w.id).sort()).toEqual([other.account.id, workspace.account.id].sort());

    // Not signed in: the current password, checked like a sign-in; a wrong one changes nothing.
    const second = await invite(ownerBrowser, 'linus@example.test', 'viewer');
    const linus = new Browser(server);
    expect(await linus.mutate('invitations.accept', { token: second.token, password: 'not the password at all' })).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
    });
    expect(await rows('select accepted_at from invitation where id = ?', second.invitation.id)).toEqual([{ accepted_at: null }]);
    const signedIn = await linus.mutate('invitations.accept', { token: second.token, password: PASSWORD });
    expect(signedIn.status, signedIn.message).toBe(200);
    expect(signedIn.data.workspace).toMatchObject({ id: workspace.account.id, role: 'viewer' });
  });

  test('signed in as someone else, the invitation is refused and stays pending', async () => {
    const created = await invite(ownerBrowser, 'someone.else@example.test', 'member');
    const wrong = new Browser(server);
    await wrong.signIn(member);
    expect(await wrong.mutate('invitations.accept', { token: created.token })).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await rows('select accepted_at from invitation where id = ?', created.invitation.id)).toEqual([{ accepted_at: null }]);
  });

  test('an expired invitation is refused with its own error', async () => {
    const created = await invite(ownerBrowser, 'late@example.test', 'member');
    const stored = await rows('select created_at, expires_at from invitation where id = ?', created.invitation.id);
    // 7 days after it was made (the row's clock and the server's may differ by a moment).
    const lifetime = new Date(stored[0].expires_at).getTime() - new Date(stored[0].created_at).getTime();
    expect(Math.abs(lifetime - 7 * 24 * 3_600_000)).toBeLessThan(5_000);
    await rows("update invitation set expires_at = now() - interval '1 second' where id = ?", created.invitation.id);
    const invitee = new Browser(server);
    expect(await invitee.query('invitations.describe', { token: created.token })).toMatchObject({
      status: 410,
      code: 'INVITATION_EXPIRED',
    });
    expect(await invitee.mutate('invitations.accept', { token: created.token, password: PASSWORD })).toMatchObject({
      status: 410,
      code: 'INVITATION_EXPIRED',
    });
    expect(await rows("select 1 from app_user where email = 'late@example.test'")).toHaveLength(0);
  });

  test('a revoked invitation is refused; revoking needs admin, and inviting again replaces the earlier link', async () => {
    const created = await invite(ownerBrowser, 'revoked@example.test', 'member');
    const memberBrowser = new Browser(server);
    await memberBrowser.signIn(member);
    expect((await memberBrowser.mutate('invitations.revoke', { id: created.invitation.id })).status).toBe(403);
    // An admin may not revoke an invitation above their role.
    const ownerInvite = await invite(ownerBrowser, 'future.owner@example.test', 'owner');
    expect((await adminBrowser.mutate('invitations.revoke', { id: ownerInvite.invitation.id })).status).toBe(403);

    expect((await adminBrowser.mutate('invitations.revoke', { id: created.invitation.id })).status).toBe(200);
    const invitee = new Browser(server);
    expect(await invitee.mutate('invitations.accept', { token: created.token, password: PASSWORD })).toMatchObject({
      status: 410,
      code: 'INVITATION_REVOKED',
    });
    expect((await adminBrowser.mutate('invitations.revoke', { id: created.invitation.id })).status).toBe(404);

    const first = await invite(ownerBrowser, 'twice@example.test', 'member');
    const second = await invite(ownerBrowser, 'twice@example.test', 'viewer');
    expect(await invitee.query('invitations.describe', { token: first.token })).toMatchObject({ status: 410, code: 'INVITATION_REVOKED' });
    expect((await invitee.query('invitations.describe', { token: second.token })).data.role).toBe('viewer');
  });

  test('two acceptances at the same moment: exactly one passes', async () => {
    const created = await invite(ownerBrowser, 'race@example.test', 'member');
    const answers = await Promise.all(
      [0, 1, 2].map(() => new Browser(server).mutate('invitations.accept', { token: created.token, password: PASSWORD })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.code)).toEqual(['INVITATION_ACCEPTED', 'INVITATION_ACCEPTED']);
    expect(await rows("select 1 from membership m join app_user u on u.id = m.user_id where u.email = 'race@example.test'")).toHaveLength(
      1,
    );
  });
});

describe('the attacker', () => {
  test('guessed, malformed or altered tokens find nothing, and guessing is limited per address', async () => {
    const limited = await startTestServer({ databaseUrl: server.databaseUrl, signInLimits: { perEmail: 1000, perAddress: 5 } });
    try {
      const created = await invite(ownerBrowser, 'guessed@example.test', 'member');
      const altered = `${created.token.slice(0, -1)}${created.token.endsWith('A') ? 'B' : 'A'}`;
      const guesser = new Browser(limited);
      for (const token of [randomBytes(32).toString('base64url'), altered, 'short', `${created.token}x`, created.invitation.id]) {
        expect(await guesser.query('invitations.describe', { token })).toMatchObject({ status: 404, code: 'INVITATION_NOT_FOUND' });
      }
      const blocked = await guesser.query('invitations.describe', { token: randomBytes(32).toString('base64url') });
      expect(blocked).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      // The real invitation is untouched and still works for its holder from elsewhere.
      expect((await new Browser(server).query('invitations.describe', { token: created.token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  test('cross-site writes are refused: an invitation made, or accepted, from another origin', async () => {
    const evil = { origin: 'https://evil.example' };
    expect(await ownerBrowser.mutate('invitations.create', { email: 'attacker@evil.example', role: 'admin' }, evil)).toMatchObject({
      status: 403,
    });
    expect(
      await ownerBrowser.mutate('invitations.create', { email: 'attacker@evil.example', role: 'admin' }, { 'x-csrf-token': '' }),
    ).toMatchObject({ status: 403 });
    expect(await rows("select 1 from invitation where email = 'attacker@evil.example'")).toHaveLength(0);

    const created = await invite(ownerBrowser, 'victim@example.test', 'member');
    const victim = new Browser(server);
    expect(await victim.mutate('invitations.accept', { token: created.token, password: PASSWORD }, evil)).toMatchObject({ status: 403 });
    expect(await rows('select accepted_at from invitation where id = ?', created.invitation.id)).toEqual([{ accepted_at: null }]);
  });

  test('an API key cannot accept (no browser), and /api/v1 knows no invitations', async () => {
    const response = await fetch(`${server.api}/invitations`, { headers: { authorization: `Bearer ${workspace.key}` } });
    expect(response.status).toBe(404);
  });
});
