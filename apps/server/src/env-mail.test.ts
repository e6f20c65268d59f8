import { describe, expect, test } from 'vitest';
import { readConfig } from './env.ts';

describe('readConfig: SMTP_URL and MAIL_FROM (invitations by mail)', () => {
  test('unset: nothing is mailed', () => {
    expect(readConfig({}).config?.mail).toBeUndefined();
  });

  test('both set: the mailer’s settings', () => {
    const { config, problems } = readConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Shortlinks <links@example.com>' });
    expect(problems).toEqual([]);
    expect(config?.mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'Shortlinks <links@example.com>' });
  });

  test.each([
    ['http://mail.example.com', /SMTP_URL: .*smtp:\/\/ or smtps:\/\//],
    ['smtp://mail.example.com?tls=never', /SMTP_URL: .*tls=/],
    ['smtp://mail.example.com?pool=true', /SMTP_URL: .*unknown option "pool"/],
    ['not a url', /SMTP_URL: .*must be a URL/],
  ])('SMTP_URL=%s is refused with one line', (value, message) => {
    const { config, problems } = readConfig({ SMTP_URL: value, MAIL_FROM: 'links@example.com' });
    expect(config).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(message)]);
  });

  test('SMTP_URL without MAIL_FROM is refused; MAIL_FROM must be one line with an address', () => {
    expect(readConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).problems).toEqual([
      expect.stringMatching(/^MAIL_FROM: is required when SMTP_URL/),
    ]);
    expect(readConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'nobody' }).problems).toEqual([
      expect.stringMatching(/^MAIL_FROM: /),
    ]);
    expect(readConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' }).problems).toEqual([
      expect.stringMatching(/^MAIL_FROM: /),
    ]);
  });
});
