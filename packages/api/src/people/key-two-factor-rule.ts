import type { Orm } from '@shortlinks/db';
import type { Caller } from '../accounts/caller.ts';
import { reader } from '../database/database.ts';

/**
 * A workspace that requires two-factor sign-in requires it of the people behind its API keys too
 * (docs/accounts.md, "Two-factor sign-in"): a key made by a person who has not turned it on answers
 * 403 TWO_FACTOR_ENROLMENT_REQUIRED, as that person's session does, until they turn it on. Without
 * the rule, someone refusing to enrol could keep working through a key made before the rule.
 *
 * Operator keys (no maker) cost nothing here. A person's key costs one small query the first time
 * its caller is seen: the answer is kept on that caller object, which the key cache holds for at
 * most 1 s and drops at once when the rule or the person's two-factor changes (both announced), so
 * a change is seen by every instance as a revocation is.
 */
export class KeyTwoFactorRule {
  readonly #orm: Orm;
  readonly #judged = new WeakMap<Caller, Caller>();

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** The caller of an API key, marked `twoFactorMissing` when the rule refuses its maker. */
  async apply(caller: Caller): Promise<Caller> {
    if (caller.user === null || caller.session !== null) return caller;
    const judged = this.#judged.get(caller);
    if (judged) return judged;
    const row = await reader(this.#orm)
      .selectFrom('account')
      .leftJoin('two_factor', (join) =>
        join.on('two_factor.user_id', '=', caller.user?.id ?? '').on('two_factor.enabled_at', 'is not', null),
      )
      .select(['account.require_two_factor', 'two_factor.user_id'])
      .where('account.id', '=', caller.accountId)
      .executeTakeFirst();
    const missing = row?.require_two_factor === true && row.user_id === null;
    const result = missing ? { ...caller, twoFactorMissing: true } : caller;
    this.#judged.set(caller, result);
    return result;
  }
}
