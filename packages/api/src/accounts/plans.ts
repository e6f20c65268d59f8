import type { Plan } from '@shortlinks/contract';

/**
 * Limits per plan. Tag limits are the spec's; link limits are ours (the spec leaves them open):
 * see docs/accounts.md. `null` means unlimited.
 */
export const PLAN_LIMITS: Record<Plan, { links: number | null; tags: number | null }> = {
  starter: { links: 1_000, tags: 25 },
  trial: { links: 1_000, tags: 200 },
  team: { links: 50_000, tags: 200 },
  unlimited: { links: null, tags: null },
};

export interface AccountLimits {
  link_limit: number | null;
  tag_limit: number | null;
}

/** The limits in force: the account's overrides where set, otherwise its plan's. */
export function effectiveLimits(account: {
  plan: string;
  link_limit_override: number | null;
  tag_limit_override: number | null;
}): AccountLimits {
  const plan = PLAN_LIMITS[account.plan as Plan] ?? PLAN_LIMITS.starter;
  return {
    link_limit: account.link_limit_override ?? plan.links,
    tag_limit: account.tag_limit_override ?? plan.tags,
  };
}

/**
 * API requests per minute for each API key, by its account's plan (ours: the spec shows no rate
 * limits; docs/security.md), unless the operator sets others (API_RATE_LIMIT_<PLAN>, or one
 * account's with `pnpm shortlinks account update --rate-limit`). Redirects are limited per visitor
 * IP instead.
 */
export const API_RATE_LIMITS: Record<Plan, number> = {
  starter: 120,
  trial: 120,
  team: 600,
  unlimited: 3_000,
};

/** API requests per minute from one client IP without a valid key (they still cost a key lookup). */
export const ANONYMOUS_RATE_LIMIT = 60;

/** Rate limits of one server process (docs/security.md); every number is requests per window. */
export interface RateLimitSettings {
  /** Per API key, by the account's plan; 0: no limit. */
  apiPerPlan: Record<Plan, number>;
  /** Per client IP, for API requests without a valid key. */
  anonymous: number;
  /** Per client IP, for short-link visits (REDIRECT_RATE_LIMIT). */
  redirects: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  apiPerPlan: API_RATE_LIMITS,
  anonymous: ANONYMOUS_RATE_LIMIT,
  redirects: 1_200,
  windowMs: 60_000,
};

/** The requests per window of one API key: its account's own limit where the operator set one, else its plan's; 0: no limit. */
export function apiRateLimit(caller: { plan: Plan; rateLimit: number | null }, settings: Pick<RateLimitSettings, 'apiPerPlan'>): number {
  return caller.rateLimit ?? settings.apiPerPlan[caller.plan];
}
