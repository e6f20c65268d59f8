import { createHash } from 'node:crypto';
import { PASSWORD_GUESS_WINDOW_MS } from '@shortlinks/api/redirects';
import type { FastifyReply } from 'fastify';

/**
 * The pages of smart links (issue #30, docs/redirects.md): a password-protected link's form, and a
 * link preview for the bots that unfurl links. No script on either, and a Content-Security-Policy
 * that would refuse one: nothing loads from anywhere, the one inline style is allowed by its hash,
 * the page cannot be framed (clickjacking a password form), and the form may be sent only to this
 * origin, or be sent on from it by its redirect to the link's destination (Chromium checks
 * `form-action` against the redirect too, so the destination's scheme must be allowed).
 */
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;color:#1e293b;display:grid;place-items:center;min-height:90vh;margin:0}' +
  'main{max-width:24rem;padding:2rem;text-align:center}h1{font-size:1.5rem;margin:0 0 .5rem}p{color:#475569;margin:0 0 1rem}' +
  'input{font:inherit;padding:.5rem;border:1px solid #94a3b8;border-radius:.375rem;width:100%;box-sizing:border-box;margin:0 0 .75rem}' +
  'button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:#4f46e5;color:#fff;width:100%}.error{color:#b91c1c}';

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

export const SMART_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "img-src 'none'",
  "form-action 'self' https: http:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What the password form says above the field. */
export type PasswordPageState = 'ask' | 'wrong' | 'refused' | 'cross-site';

const MESSAGES: Record<PasswordPageState, string> = {
  ask: '',
  wrong: '<p class="error" role="alert">That password is not right. Try again.</p>',
  refused: `<p class="error" role="alert">Too many wrong passwords. Try again in ${PASSWORD_GUESS_WINDOW_MS / 60_000} minutes.</p>`,
  'cross-site': '<p class="error" role="alert">The password must be sent from this page itself. Try again.</p>',
};

/** The password form. It posts to the page's own address (no `action`), query string included, so rules still see it. */
export function passwordPage(state: PasswordPageState): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="same-origin"><title>Password required</title>
<style>${STYLE}</style>
</head><body><main><h1>Password required</h1><p>This short link is protected by a password.</p>${MESSAGES[state]}
<form method="post"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required minlength="4" maxlength="128" autofocus>
<button type="submit">Continue</button></form></main></body></html>
`;
}

/** A smart link's page: never cached, never indexed, no script, not framed, no Referer given to another site (`same-origin`: a stricter policy would make the form's own POST say `Origin: null`, which is refused as cross-site). */
export function sendSmartPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('content-security-policy', SMART_PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .send(html);
}
