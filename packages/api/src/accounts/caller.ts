import type { Plan, Scope } from '@shortlinks/contract';
import type { Role } from '../people/roles.ts';

/** The person behind a caller: who signed in, or who made the API key. */
export interface CallerUser {
  id: string;
  email: string;
}

/** The browser session a caller signed in with (only ever on tRPC: `/api/v1` takes keys alone). */
export interface CallerSession {
  id: string;
  /** What the dashboard must send in `X-CSRF-Token` with every write (docs/security.md). */
  csrfToken: string;
}

/**
 * Who a request comes from, as authentication found it: an API key's, or a signed-in person's
 * session. What every procedure is given.
 */
export interface Caller {
  /** The workspace (today's account) the request acts in. */
  accountId: string;
  /** The API key used; null for a session. */
  keyId: string | null;
  /** The API key's name, as its maker chose it: what the audit log names the key by (absent for a session). */
  keyName?: string;
  /**
   * What the caller may do in the workspace (docs/accounts.md, "Roles"). A key made by the operator
   * (no maker) acts as an owner; a key made by a person, with that person's role there now.
   */
  role: Role;
  /**
   * What the API key may do (docs/accounts.md, "Keys and scopes"), checked before a procedure
   * runs; null for a session, which its role alone governs.
   */
  scopes: readonly Scope[] | null;
  /** The person: who signed in, or who made the key; null for an operator's key. */
  user: CallerUser | null;
  /** The session, when the caller signed in; null for a key. */
  session: CallerSession | null;
  /**
   * The workspace requires two-factor sign-in and this signed-in person has not turned it on: only
   * the `auth.*` and `twoFactor.*` procedures answer them (docs/accounts.md, "Two-factor sign-in").
   */
  twoFactorMissing?: boolean;
  /** The account's plan, which sets the key's rate limit unless the operator set the account's own. */
  plan: Plan;
  /** The account's own API rate limit (requests per minute per key; 0: none), or null to follow the plan. */
  rateLimit: number | null;
}
