import type { RoleName } from '@shortlinks/contract';
import { type Scope as ContractScope, SCOPE_LEAST_ROLE } from '@shortlinks/contract/scopes';

/**
 * The scopes the keys page offers (docs/accounts.md, "The keys page"), in the API's order, with
 * the least role that may give each: a person makes keys within their role, a viewer read-only ones.
 * The server decides (it refuses a scope beyond the maker's role with 403 FORBIDDEN); the least
 * roles come from the contract's `SCOPE_LEAST_ROLE`, the table the server enforces, so the page
 * never offers what would be refused. `scope-choices.test.ts` holds the list to the contract's `SCOPES`.
 */
export type Role = RoleName;

export const SCOPE_CHOICES = [
  { scope: 'links.read', leastRole: SCOPE_LEAST_ROLE['links.read'], label: 'Read links' },
  { scope: 'links.write', leastRole: SCOPE_LEAST_ROLE['links.write'], label: 'Create, change and delete links' },
  { scope: 'tags.read', leastRole: SCOPE_LEAST_ROLE['tags.read'], label: 'Read tags' },
  { scope: 'tags.write', leastRole: SCOPE_LEAST_ROLE['tags.write'], label: 'Create, change and delete tags' },
  { scope: 'analytics.read', leastRole: SCOPE_LEAST_ROLE['analytics.read'], label: 'Read click statistics' },
  { scope: 'keys.write', leastRole: SCOPE_LEAST_ROLE['keys.write'], label: 'Make and revoke keys (within its own scopes)' },
  { scope: 'audit.read', leastRole: SCOPE_LEAST_ROLE['audit.read'], label: 'Read the audit log' },
  { scope: 'domains.read', leastRole: SCOPE_LEAST_ROLE['domains.read'], label: 'Read domains' },
  { scope: 'domains.write', leastRole: SCOPE_LEAST_ROLE['domains.write'], label: 'Add, verify and remove domains' },
  { scope: 'webhooks.read', leastRole: SCOPE_LEAST_ROLE['webhooks.read'], label: 'Read webhooks and their deliveries' },
  { scope: 'webhooks.write', leastRole: SCOPE_LEAST_ROLE['webhooks.write'], label: 'Add, change and remove webhooks' },
] as const satisfies readonly { scope: ContractScope; leastRole: Role; label: string }[];

export type Scope = (typeof SCOPE_CHOICES)[number]['scope'];

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The scopes a person of `role` may give a key, in the API's order. */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPE_CHOICES.filter((choice) => RANK[role] >= RANK[choice.leastRole]).map((choice) => choice.scope);
}

/** `X.write` includes `X.read`: the read scope a write scope brings with it, if any. */
export function readScopeOf(scope: Scope): Scope | undefined {
  if (!scope.endsWith('.write')) return undefined;
  const read = `${scope.slice(0, -'.write'.length)}.read`;
  return SCOPE_CHOICES.some((choice) => choice.scope === read) ? (read as Scope) : undefined;
}

/** Whether `scope` is already given by another chosen one (its `.write`). */
export function includedByWrite(scope: Scope, chosen: readonly Scope[]): boolean {
  return chosen.some((other) => other !== scope && readScopeOf(other) === scope);
}

/** What is sent: the chosen scopes without a read that a chosen write includes, in the API's order. */
export function scopesToSend(chosen: readonly Scope[]): Scope[] {
  return SCOPE_CHOICES.map((choice) => choice.scope).filter((scope) => chosen.includes(scope) && !includedByWrite(scope, chosen));
}
