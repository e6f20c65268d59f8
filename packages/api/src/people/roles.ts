/**
 * The roles of a workspace, from most to least trusted (docs/accounts.md, "Roles"). What each may
 * do is declared once per procedure, in its meta's `role`: the least role that may call it.
 */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** Whether `role` is strictly above `other`: an admin manages members and viewers, an owner everyone. */
export function roleAbove(role: Role, other: Role): boolean {
  return RANK[role] > RANK[other];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** "an owner", "a member": how a message names a role. */
export function aRole(role: Role): string {
  return `${role === 'owner' || role === 'admin' ? 'an' : 'a'} ${role}`;
}
