/**
 * The scopes the keys page offers (docs/accounts.md, "The keys page"), in the API's order, with
 * the least role that may give each: a person makes keys within their role, a viewer read-only ones.
 * The server decides (it refuses a scope beyond the maker's role with 403 FORBIDDEN); this list only
 * keeps the page from offering what would be refused. It mirrors the server's `SCOPE_LEAST_ROLE`
 * (packages/api/src/accounts/key-scopes.ts); `scope-choices.test.ts` holds the list to the contract's `SCOPES`, and keys.e2e.ts the roles' offers.
 */
export type Role = 'owner' | 'admin' | 'member' | 'viewer';

export const SCOPE_CHOICES = [
  { scope: 'links.read', leastRole: 'viewer', label: 'Read links' },
  { scope: 'links.write', leastRole: 'member', label: 'Create, change and delete links' },
  { scope: 'tags.read', leastRole: 'viewer', label: 'Read tags' },
  { scope: 'tags.write', leastRole: 'member', label: 'Create, change and delete tags' },
  { scope: 'analytics.read', leastRole: 'viewer', label: 'Read click statistics' },
  { scope: 'keys.write', leastRole: 'member', label: 'Make and revoke keys (within its own scopes)' },
  { scope: 'audit.read', leastRole: 'admin', label: 'Read the audit log' },
  { scope: 'domains.read', leastRole: 'viewer', label: 'Read domains' },
  { scope: 'domains.write', leastRole: 'admin', label: 'Add, verify and remove domains' },
  { scope: 'webhooks.read', leastRole: 'admin', label: 'Read webhooks and their deliveries' },
  { scope: 'webhooks.write', leastRole: 'admin', label: 'Add, change and remove webhooks' },
] as const satisfies readonly { scope: string; leastRole: Role; label: string }[];

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
