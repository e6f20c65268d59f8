import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { createMailer, invitationEmail, MailDeliveryError } from '@shortlinks/api/mailer';
import { startSmtpServer, type TestSmtpServer } from '@shortlinks/testing/smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FROM = 'Shortlinks <links@acme.test>';
const ACCEPT_URL = 'https://links.acme.test/invitations/accept?token=Q2hlY2sgdGhlIGxpbmsgYXJyaXZlcyB3aG9sZQ';

const invitation = () =>
  invitationEmail({
    workspaceName: 'Acme <Marketing>',
    inviterName: 'Ada Lovelace',
    inviterEmail: 'ada@acme.test',
    role: 'viewer',
    acceptUrl: ACCEPT_URL,
    expiresAt: new Date('2026-12-04T12:00:00.000Z'),
  });

/** A TCP server that accepts and never says a word: an SMTP server that hangs. */
async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('mailer: invitations through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.close());

  it('the invitation arrives with the right recipient, subject and link', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 5_000 });
    try {
      const mail = invitation();
      const sent = await mailer.send({ to: 'grace@example.test', ...mail });
      const received = await smtp.waitForMail((m) => m.envelope.to.includes('grace@example.test'), 5_000);
      expect(received.envelope).toEqual({ from: 'links@acme.test', to: ['grace@example.test'] });
      expect(received.message.messageId).toBe(sent.messageId);
      expect(received.message.subject).toBe('Ada Lovelace invited you to Acme <Marketing> on Shortlinks');
      expect(received.message.from?.value).toEqual([{ name: 'Shortlinks', address: 'links@acme.test' }]);
      expect(received.message.to && !Array.isArray(received.message.to) ? received.message.to.text : '').toBe('grace@example.test');
      expect(received.message.text).toContain(ACCEPT_URL);
      expect(received.message.html).toContain(`href="${ACCEPT_URL}"`);
      // The workspace's name is text in the HTML, not markup.
      expect(received.message.html).toContain('Acme &lt;Marketing&gt;');
      expect(received.message.html).not.toContain('<Marketing>');
    } finally {
      mailer.close();
    }
  });
});

describe('mailer: one recipient only', () => {
  it('a recipient that is a list or carries a name is refused before anything is sent', async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 5_000 });
    try {
      for (const to of [
        'grace@example.test, eve@evil.test',
        'grace@example.test;eve@evil.test',
        'Eve <eve@evil.test>',
        'grace@example.test\r\nBcc: eve@evil.test',
        '',
      ]) {
        const failure = await mailer.send({ to, ...invitation() }).catch((error: unknown) => error);
        expect(failure, to).toBeInstanceOf(MailDeliveryError);
        expect((failure as Error).message).toContain('is not one email address');
      }
      expect(smtp.received).toHaveLength(0);
      // An apostrophe is an ordinary character of an address.
      await mailer.send({ to: "o'brien@example.test", ...invitation() });
      expect((await smtp.waitForMail(undefined, 5_000)).envelope.to).toEqual(["o'brien@example.test"]);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});

describe('mailer: an SMTP server that asks for a sign-in', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ credentials: { username: 'shortlinks', password: 'p@ss word:1' } });
  });
  afterAll(() => smtp.close());

  it('signs in with the user and password of SMTP_URL', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 5_000 });
    try {
      await mailer.send({ to: 'grace@example.test', ...invitation() });
      expect((await smtp.waitForMail(undefined, 5_000)).user).toBe('shortlinks');
    } finally {
      mailer.close();
    }
  });

  it('a wrong password is a clear error that does not repeat the password', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://shortlinks:wrong-secret@127.0.0.1:${smtp.port}`, from: FROM, timeoutMs: 5_000 });
    try {
      const failure = await mailer.send({ to: 'grace@example.test', ...invitation() }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MailDeliveryError);
      expect((failure as Error).message).toContain('refused the sign-in');
      expect((failure as Error).message).not.toContain('wrong-secret');
    } finally {
      mailer.close();
    }
  });

  it('with tls=required, a server without STARTTLS is refused before anything is sent', async () => {
    const before = smtp.received.length;
    const mailer = createMailer({ smtpUrl: `${smtp.url}?tls=required`, from: FROM, timeoutMs: 5_000 });
    try {
      const failure = await mailer.send({ to: 'grace@example.test', ...invitation() }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MailDeliveryError);
      expect((failure as Error).message).toMatch(/TLS/);
      expect(smtp.received.length).toBe(before);
    } finally {
      mailer.close();
    }
  });
});

describe('mailer: a mail server that is down', () => {
  it('nothing listening: a clear error naming the server', async () => {
    const closed = await startSilentServer();
    await closed.close(); // its port is now free: nothing listens there
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${closed.port}`, from: FROM, timeoutMs: 2_000 });
    const failure = await mailer.send({ to: 'grace@example.test', ...invitation() }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toContain(`could not reach the mail server at smtp://127.0.0.1:${closed.port}`);
    mailer.close();
  });

  it('a server that accepts and never answers: an error once the timeout has passed, not a hang', async () => {
    const silent = await startSilentServer();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${silent.port}`, from: FROM, timeoutMs: 500 });
    try {
      const started = performance.now();
      const failure = await mailer.send({ to: 'grace@example.test', ...invitation() }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MailDeliveryError);
      expect((failure as Error).message).toBe(`the mail server at smtp://127.0.0.1:${silent.port} did not answer within 500 ms`);
      // Bounded by the timeout (with room for a loaded machine), not by the test's own.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      mailer.close();
      await silent.close();
    }
  });
});
