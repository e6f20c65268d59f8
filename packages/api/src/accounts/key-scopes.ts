import { SCOPE_LEAST_ROLE, SCOPES, type Scope, scopeGranted } from '@shortlinks/contract';
import { type Role, roleAtLeast } from '../people/roles.ts';
import type { Caller } from './caller.ts';

/** The scopes a person of `role` may give a key (the contract's `SCOPE_LEAST_ROLE`). */
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
