import { SCOPES, type Scope, scopeGranted } from '@shortlinks/contract';
import { type Role, roleAtLeast } from '../people/roles.ts';
import type { Caller } from './caller.ts';

/**
 * The least role whose holder may give a key each scope (docs/accounts.md, "Keys and scopes"): the
 * least role that may call that scope's procedures, so a key never does more than its maker's
 * role. A viewer makes read-only keys; only owners and admins give the scopes of domains' writes,
 * webhooks and the audit log. A key made by a person still acts with that person's role of the
 * moment, so a demoted maker's keys shrink with them.
 */
export const SCOPE_LEAST_ROLE: Record<Scope, Role> = {
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

/** The scopes a person of `role` may give a key. */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPES.filter((scope) => roleAtLeast(role, SCOPE_LEAST_ROLE[scope]));
}

/**
 * The first of `wanted` the caller may not give a new key, or undefined when it may give them all:
 * a person within their role, a key within its own scopes (`X.write` gives `X.read`) and its
 * maker's role (an operator's key acts as owner).
 */
export function scopeNotGrantable(caller: Caller, wanted: readonly Scope[]): Scope | undefined {
  return wanted.find(
    (scope) => !roleAtLeast(caller.role, SCOPE_LEAST_ROLE[scope]) || (caller.scopes !== null && !scopeGranted(caller.scopes, scope)),
  );
}
