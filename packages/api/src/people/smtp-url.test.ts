import { describe, expect, it } from 'vitest';
import { parseSmtpUrl, SmtpUrlError } from './mailer.ts';

describe('SMTP_URL', () => {
  it('smtps:// is TLS from the start, port 465 unless named; the credentials are read decoded', () => {
    expect(parseSmtpUrl('smtps://mailer%40acme.com:p%40ss%3Aword@mail.acme.com')).toEqual({
      host: 'mail.acme.com',
      port: 465,
      implicitTls: true,
      requireStartTls: false,
      auth: { user: 'mailer@acme.com', pass: 'p@ss:word' },
      redacted: 'smtps://mailer%40acme.com:***@mail.acme.com',
    });
  });

  it('smtp:// to another machine requires STARTTLS (port 587 by default); tls=optional allows plain', () => {
    expect(parseSmtpUrl('smtp://user:pw@mail.acme.com')).toMatchObject({ port: 587, implicitTls: false, requireStartTls: true });
    expect(parseSmtpUrl('smtp://relay.internal:25?tls=optional')).toMatchObject({ port: 25, requireStartTls: false, auth: null });
  });

  it('smtp:// to a loopback address may be plain, unless tls=required', () => {
    for (const host of ['127.0.0.1', '127.0.0.53', 'localhost', '[::1]']) {
      expect(parseSmtpUrl(`smtp://${host}:2525`).requireStartTls).toBe(false);
    }
    expect(parseSmtpUrl('smtp://127.0.0.1:2525?tls=required').requireStartTls).toBe(true);
    // A name that only starts like loopback is another machine.
    expect(parseSmtpUrl('smtp://127.0.0.1.evil.example:25').requireStartTls).toBe(true);
  });

  it('the password never appears in the redacted form', () => {
    expect(parseSmtpUrl('smtp://u:s3cret@mail.acme.com').redacted).not.toContain('s3cret');
  });

  it('refuses what it cannot use, with a clear message', () => {
    expect(() => parseSmtpUrl('mail.acme.com')).toThrow(SmtpUrlError);
    expect(() => parseSmtpUrl('http://mail.acme.com')).toThrow('SMTP_URL must start with smtp:// or smtps://');
    expect(() => parseSmtpUrl('smtp://mail.acme.com?tls=never')).toThrow('tls= may be "required" or "optional"');
    expect(() => parseSmtpUrl('smtp://mail.acme.com?pool=true')).toThrow('unknown option "pool"');
  });
});
