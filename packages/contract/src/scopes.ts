import type { RoleName } from './people.ts';

// Without zod: the dashboard imports these values (packages/contract's `./scopes` entry) and its
// bundle stays free of the schemas.

/**
 * API keys with scopes (docs/accounts.md, "Keys and scopes"). A key may call a procedure only when
 * it holds the procedure's scope; `X.write` includes `X.read`. A person's session is governed by
 * the person's role alone.
 */
export const SCOPES = [
  'links.read',
  'links.write',
  'tags.read',
  'tags.write',
  'analytics.read',
  'keys.write',
  'audit.read',
  'domains.read',
  'domains.write',
  'webhooks.read',
  'webhooks.write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The least role whose holder may give a key each scope (docs/accounts.md, "Keys and scopes"): the
 * least role that may call that scope's procedures, so a key never does more than its maker's
 * role. A viewer makes read-only keys; only owners and admins give the scopes of domains' writes,
 * webhooks and the audit log. One table for the server, which enforces it, and the dashboard's
 * keys page, which offers only what it allows.
 */
export const SCOPE_LEAST_ROLE: Record<Scope, RoleName> = {
  'links.read': 'viewer',
  'links.write': 'member',
  'tags.read': 'viewer',
  'tags.write': 'member',
  'analytics.read': 'viewer',
  'keys.write': 'member',
  'audit.read': 'admin',
  'domains.read': 'viewer',
  'domains.write': 'admin',
  'webhooks.read': 'admin',
  'webhooks.write': 'admin',
};

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether a key holding `held` may do what `needed` allows: `X.write` includes `X.read`. */
export function scopeGranted(held: Iterable<Scope>, needed: Scope): boolean {
  for (const scope of held) {
    if (scope === needed) return true;
    if (needed.endsWith('.read') && scope === `${needed.slice(0, -'.read'.length)}.write`) return true;
  }
  return false;
}

/**
 * The scopes the browser extension asks for when it connects (docs/accounts.md, "Connect"): it
 * shortens and edits links, picks and creates tags, shows a link's clicks, and picks a branded
 * domain. Nothing else: no keys, webhooks, audit log or domain changes.
 */
export const EXTENSION_SCOPES = ['links.write', 'tags.write', 'analytics.read', 'domains.read'] as const satisfies readonly Scope[];
