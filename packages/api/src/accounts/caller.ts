import type { Plan } from '@shortlinks/contract';

/** Who a request's API key belongs to, as authentication found it: what every procedure is given. */
export interface Caller {
  accountId: string;
  keyId: string;
  /** The account's plan, which sets the key's rate limit unless the operator set the account's own. */
  plan: Plan;
  /** The account's own API rate limit (requests per minute per key; 0: none), or null to follow the plan. */
  rateLimit: number | null;
}
