import { describe, expect, it } from 'vitest';
import { escapeHtml, invitationEmail } from './invitation-email.ts';

const base = {
  workspaceName: 'Acme',
  inviterName: 'Ada Lovelace',
  inviterEmail: 'ada@acme.com',
  role: 'member',
  acceptUrl: 'https://links.acme.com/invitations/accept?token=abc_DEF-123',
  expiresAt: new Date('2026-12-04T12:00:00.000Z'),
};

describe('invitation email', () => {
  it('names the inviter, the workspace and the role, and carries the link and its expiry in text and HTML', () => {
    const mail = invitationEmail(base);
    expect(mail.subject).toBe('Ada Lovelace invited you to Acme on Shortlinks');
    expect(mail.text).toContain('Ada Lovelace (ada@acme.com) invited you to join the workspace "Acme" on Shortlinks as a member.');
    expect(mail.text).toContain(`\n${base.acceptUrl}\n`);
    expect(mail.text).toContain('expires on 2026-12-04 12:00 UTC');
    expect(mail.html).toContain(`<a href="${base.acceptUrl}"`);
    expect(mail.html).toContain('<strong>Acme</strong>');
    expect(invitationEmail({ ...base, role: 'admin' }).text).toContain('as an admin.');
  });

  it('escapes names in the HTML, keeps them on one line in the subject', () => {
    const mail = invitationEmail({
      ...base,
      workspaceName: '<img src=x onerror=alert(1)> & "Co"',
      inviterName: 'Eve\r\nBcc: victim@example.com',
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(mail.subject).toBe('Eve Bcc: victim@example.com invited you to <img src=x onerror=alert(1)> & "Co" on Shortlinks');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('an inviter without a name is named by their email; a very long name is cut', () => {
    expect(invitationEmail({ ...base, inviterName: '  ' }).subject).toBe('ada@acme.com invited you to Acme on Shortlinks');
    expect(invitationEmail({ ...base, workspaceName: 'W'.repeat(500) }).subject.length).toBeLessThan(140);
  });

  it('the link must be an http(s) address: a javascript: or data: link is refused', () => {
    expect(() => invitationEmail({ ...base, acceptUrl: 'javascript:alert(1)' })).toThrow(/http\(s\)/);
    expect(() => invitationEmail({ ...base, acceptUrl: 'data:text/html,hi' })).toThrow(/http\(s\)/);
    expect(invitationEmail({ ...base, acceptUrl: 'https://x.test/a?b="c"' }).html).toContain('href="https://x.test/a?b=%22c%22"');
  });

  it('escapeHtml escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
