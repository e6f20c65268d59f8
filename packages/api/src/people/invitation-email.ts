/**
 * The invitation email: plain text and HTML, in the words the dashboard uses. Every name in it
 * comes from a user (the inviter's, the workspace's), so the HTML escapes them and the subject
 * keeps them on one line.
 */

export interface InvitationEmailInput {
  workspaceName: string;
  inviterName: string;
  inviterEmail: string;
  /** The role offered (owner, admin, member, viewer). */
  role: string;
  /** The link that accepts, carrying the token; built by the caller from the dashboard's public URL. */
  acceptUrl: string;
  expiresAt: Date;
}

export interface InvitationEmail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** A name on one line and of a sane length: no header folding tricks, no page-long subject. */
function oneLine(value: string, max = 80): string {
  const flat = value.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `2026-12-04 12:00 UTC`: one reading for every recipient, whatever their time zone. */
function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function invitationEmail(input: InvitationEmailInput): InvitationEmail {
  const link = new URL(input.acceptUrl);
  // The link goes into an href: only a web address, never javascript: or data:.
  if (link.protocol !== 'https:' && link.protocol !== 'http:') throw new Error('an invitation link must be an http(s) URL');
  const acceptUrl = link.toString();
  const workspace = oneLine(input.workspaceName);
  const inviter = oneLine(input.inviterName) || oneLine(input.inviterEmail);
  const inviterEmail = oneLine(input.inviterEmail, 254);
  const role = oneLine(input.role, 20);
  const expires = utcMinute(input.expiresAt);
  const article = /^[aeiou]/i.test(role) ? 'an' : 'a';

  const subject = `${inviter} invited you to ${workspace} on Shortlinks`;
  const text = [
    `${inviter} (${inviterEmail}) invited you to join the workspace "${workspace}" on Shortlinks as ${article} ${role}.`,
    '',
    'Accept the invitation:',
    acceptUrl,
    '',
    `The link works once and expires on ${expires}.`,
    'If you did not expect this invitation, ignore this email: nothing happens until the link is opened.',
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111;">
<p>${escapeHtml(inviter)} (${escapeHtml(inviterEmail)}) invited you to join the workspace <strong>${escapeHtml(workspace)}</strong> on Shortlinks as ${article} <strong>${escapeHtml(role)}</strong>.</p>
<p><a href="${escapeHtml(acceptUrl)}" style="display: inline-block; padding: 8px 16px; background: #2563eb; color: #fff; border-radius: 6px; text-decoration: none;">Accept the invitation</a></p>
<p style="font-size: 14px; color: #555;">Or open this link: ${escapeHtml(acceptUrl)}<br>
It works once and expires on ${escapeHtml(expires)}. If you did not expect this invitation, ignore this email.</p>
</body>
</html>
`;
  return { subject, text, html };
}
