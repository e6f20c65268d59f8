import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';

/**
 * Sends the service's few emails (invitations, one-time links) through the operator's SMTP server,
 * named by `SMTP_URL`. docs/security.md, "Mailer".
 *
 * - `smtps://user:password@host:465`: TLS from the first byte.
 * - `smtp://user:password@host:587`: STARTTLS, required: a server that does not offer it is refused,
 *   so a password or an invitation link (a secret) never crosses the network in clear.
 * - `smtp://host:25?tls=optional`: STARTTLS when offered, plain otherwise; for a relay on a private
 *   network that has no certificate. Plain SMTP is always allowed to a loopback address (a local relay).
 *
 * Certificates are always verified (a private CA goes into `NODE_EXTRA_CA_CERTS`).
 */

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the start (smtps://). */
  implicitTls: boolean;
  /** STARTTLS must succeed before anything else is sent (smtp:// unless `tls=optional` or loopback). */
  requireStartTls: boolean;
  auth: { user: string; pass: string } | null;
  /** The URL without its password, for messages and logs. */
  redacted: string;
}

/** Why `SMTP_URL` cannot be used; env.ts reports it as the setting's one line. */
export class SmtpUrlError extends Error {
  override name = 'SmtpUrlError';
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return LOOPBACK_NAMES.has(host) || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/** Reads `SMTP_URL` (see the module's comment); throws SmtpUrlError with what is wrong. */
export function parseSmtpUrl(value: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SmtpUrlError('SMTP_URL must be a URL such as smtps://user:password@mail.example.com:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new SmtpUrlError('SMTP_URL must start with smtp:// or smtps://');
  if (!url.hostname) throw new SmtpUrlError('SMTP_URL must name the mail server');
  const tls = url.searchParams.get('tls');
  if (tls !== null && tls !== 'required' && tls !== 'optional') throw new SmtpUrlError('SMTP_URL: tls= may be "required" or "optional"');
  for (const key of url.searchParams.keys()) {
    if (key !== 'tls') throw new SmtpUrlError(`SMTP_URL: unknown option "${key}" (only tls= is read)`);
  }
  const implicitTls = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const redactedUrl = new URL(url);
  if (redactedUrl.password) redactedUrl.password = '***';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
    implicitTls,
    requireStartTls: !implicitTls && (tls === 'required' || (tls === null && !isLoopback(url.hostname))),
    auth: user ? { user, pass } : null,
    redacted: redactedUrl.toString(),
  };
}

export interface MailerSettings {
  /** SMTP_URL. */
  smtpUrl: string;
  /** The From header, such as `Shortlinks <links@example.com>`. */
  from: string;
  /** The whole of one send, connecting included, in milliseconds. */
  timeoutMs: number;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail that could not be handed to the SMTP server, with the reason in words (never the password). */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}

export interface Mailer {
  /** Hands the mail to the SMTP server; resolves with its Message-ID once the server took it. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** One bare address: no list separators, display names, comments, quotes or spaces. */
const SINGLE_ADDRESS = /^[^\s@,;:<>()"[\]\\]+@[^\s@,;:<>()"[\]\\]+$/;

export function createMailer(settings: MailerSettings): Mailer {
  const smtp = parseSmtpUrl(settings.smtpUrl);
  const transport = createTransport(
    {
      host: smtp.host,
      port: smtp.port,
      secure: smtp.implicitTls,
      requireTLS: smtp.requireStartTls,
      ...(smtp.auth ? { auth: smtp.auth } : {}),
      // Each step bounded; the signal below bounds the whole send.
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
      dnsTimeout: settings.timeoutMs,
      // Our mails carry no attachments: nothing in one may make nodemailer read a file or fetch a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { from: settings.from },
  );

  return {
    async send(mail) {
      // nodemailer reads `to` as a list ("a@x, b@y", "Name <a@x>"): a recipient typed by a user must
      // not be able to add others, so it must be exactly one bare address.
      if (!SINGLE_ADDRESS.test(mail.to)) throw new MailDeliveryError(`"${mail.to}" is not one email address`);
      try {
        const info = await transport.sendMail({ ...mail, signal: AbortSignal.timeout(settings.timeoutMs) });
        return { messageId: info.messageId };
      } catch (error) {
        throw new MailDeliveryError(describeFailure(error, smtp, settings.timeoutMs), { cause: error });
      }
    },
    close: () => transport.close(),
  };
}

/** nodemailer's error codes, said in the operator's words. */
function describeFailure(error: unknown, smtp: SmtpSettings, timeoutMs: number): string {
  const code = (error as { code?: string }).code;
  const server = `the mail server at ${smtp.redacted}`;
  switch (code) {
    case 'EABORT':
    case 'ETIMEDOUT':
      return `${server} did not answer within ${timeoutMs} ms`;
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'EDNS':
      return `could not reach ${server}: ${(error as Error).message}`;
    case 'EAUTH':
      return `${server} refused the sign-in (check the user and password in SMTP_URL)`;
    case 'ETLS':
      return `${server} did not offer a usable TLS connection (STARTTLS is required; see tls= in SMTP_URL)`;
    case 'EENVELOPE':
      return `${server} refused the sender or the recipient: ${(error as Error).message}`;
    default:
      return `${server} did not take the mail: ${(error as Error).message}`;
  }
}

export { type InvitationEmail, type InvitationEmailInput, invitationEmail } from './invitation-email.ts';
