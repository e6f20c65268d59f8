import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the test SMTP server took it: the SMTP envelope and the parsed message. */
export interface ReceivedMail {
  /** `MAIL FROM` and `RCPT TO` as the client sent them (what was really delivered, whatever the headers say). */
  envelope: { from: string | null; to: string[] };
  /** The user the client signed in as, when the server asked for a sign-in. */
  user: string | null;
  /** The message read by mailparser: `subject`, `to`, `from`, `text`, `html`, headers. */
  message: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://[user:password@]127.0.0.1:<port>`: what `SMTP_URL` is set to. */
  url: string;
  port: number;
  /** Every message received so far, oldest first. */
  received: ReceivedMail[];
  /** The first message (received already or yet to come) that `matches`; rejects after `timeoutMs`. */
  waitForMail(matches?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface TestSmtpServerOptions {
  /** Require this sign-in (AUTH PLAIN/LOGIN); without it, the server takes mail from anyone. */
  credentials?: { username: string; password: string };
}

/**
 * A real SMTP server (nodemailer's smtp-server) on a free loopback port, for one test file, keeping
 * what it receives in memory. Plain SMTP without STARTTLS: it has no certificate, and the mailer
 * allows plain SMTP to a loopback address only.
 */
export async function startSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<(mail: ReceivedMail) => void>();
  const { credentials } = options;

  const server = new SMTPServer({
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    // Loopback only, so a password in clear never leaves the machine.
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.username && auth.password === credentials.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((message) => {
          const mail: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            user: typeof session.user === 'string' ? session.user : null,
            message,
          };
          received.push(mail);
          for (const waiter of waiters) waiter(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  const auth = credentials ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@` : '';

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    port,
    received,
    waitForMail(matches = () => true, timeoutMs = 10_000) {
      const already = received.find(matches);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail reached the test SMTP server within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        const waiter = (mail: ReceivedMail) => {
          if (!matches(mail)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
