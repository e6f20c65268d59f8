import { PLANS, type Plan } from '@shortlinks/contract';
import { announceCallerChange, type Orm } from '@shortlinks/db';
import { inTransaction, reader } from '../database/database.ts';
import { validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { recordChange } from '../events/record-change.ts';
import { newId } from '../ids.ts';
import { effectiveLimits } from './plans.ts';

export interface AccountView {
  id: string;
  name: string;
  plan: Plan;
  link_limit: number | null;
  tag_limit: number | null;
  /** API requests per minute per key set for this account (0: none), or null: the plan's, from the server's settings. */
  api_rate_limit: number | null;
  created_at: number;
}

/**
 * What `account update` changes; an absent field stays as it is. For the limits, `null` goes back
 * to the plan's.
 */
export interface AccountChanges {
  name?: string | undefined;
  plan?: Plan | undefined;
  link_limit?: number | null | undefined;
  tag_limit?: number | null | undefined;
  /** Requests per minute per key; 0: no limit; null: the plan's. */
  api_rate_limit?: number | null | undefined;
}

export interface NewAccount {
  name: string;
  plan: Plan;
  /** Overrides the plan's link limit. */
  link_limit?: number | undefined;
  /** Overrides the plan's tag limit. */
  tag_limit?: number | undefined;
  /** Overrides the plan's API rate limit (requests per minute per key; 0: none). */
  api_rate_limit?: number | undefined;
}

/** Accounts, managed by the operator (the spec leaves issuing open: docs/accounts.md). */
export class AccountService {
  readonly #orm: Orm;
  readonly #changed: (accountId: string) => void;
  /** Where the operator's changes of a workspace are recorded (`workspace.updated`), in their transaction. */
  readonly #changes: Changes;

  /** `changed` hears, after commit, of every account whose callers (plan, rate limit) changed. */
  constructor(orm: Orm, changed: (accountId: string) => void = () => {}, changes = new Changes()) {
    this.#orm = orm;
    this.#changed = changed;
    this.#changes = changes;
  }

  async create(request: NewAccount): Promise<AccountView> {
    const name = checkedName(request.name);
    checkPlan(request.plan);
    checkLimits(request);
    return inTransaction(this.#orm, async (db) => {
      const row = await db
        .insertInto('account')
        .values({
          id: newId('acc'),
          name,
          plan: request.plan,
          link_limit_override: request.link_limit ?? null,
          tag_limit_override: request.tag_limit ?? null,
          api_rate_limit: request.api_rate_limit ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toView(row);
    });
  }

  /** Changes an account; undefined when there is none. Its keys' callers see the change at their next request. */
  async update(id: string, changes: AccountChanges): Promise<AccountView | undefined> {
    const name = changes.name === undefined ? undefined : checkedName(changes.name);
    if (changes.plan !== undefined) checkPlan(changes.plan);
    checkLimits(changes);
    const updated = await inTransaction(this.#orm, async (db) => {
      const before = await db.selectFrom('account').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) return undefined;
      const row = await db
        .updateTable('account')
        .set({
          ...(name === undefined ? {} : { name }),
          ...(changes.plan === undefined ? {} : { plan: changes.plan }),
          ...(changes.link_limit === undefined ? {} : { link_limit_override: changes.link_limit }),
          ...(changes.tag_limit === undefined ? {} : { tag_limit_override: changes.tag_limit }),
          ...(changes.api_rate_limit === undefined ? {} : { api_rate_limit: changes.api_rate_limit }),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      // Every process's cached callers carry the plan and rate limit: announced on commit.
      if (!row) return undefined;
      await announceCallerChange(db, row.id);
      const view = toView(row);
      await recordChange(this.#changes, db, row.id, 'workspace.updated', view, toView(before));
      return view;
    });
    if (updated) this.#changed(id);
    return updated;
  }

  async list(): Promise<AccountView[]> {
    const rows = await reader(this.#orm).selectFrom('account').selectAll().orderBy('created_at').execute();
    return rows.map(toView);
  }

  async get(id: string): Promise<AccountView | undefined> {
    const row = await reader(this.#orm).selectFrom('account').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toView(row) : undefined;
  }

  async count(): Promise<number> {
    const { n } = await reader(this.#orm)
      .selectFrom('account')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw validationError('name', 'name must not be empty');
  return trimmed;
}

function checkPlan(plan: Plan): void {
  if (!PLANS.includes(plan)) throw validationError('plan', `plan must be one of ${PLANS.join(', ')}`);
}

function checkLimits(limits: {
  link_limit?: number | null | undefined;
  tag_limit?: number | null | undefined;
  api_rate_limit?: number | null | undefined;
}) {
  for (const field of ['link_limit', 'tag_limit', 'api_rate_limit'] as const) {
    const value = limits[field];
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0)) {
      throw validationError(field, `${field} must be a whole number from 0`);
    }
  }
}

function toView(row: {
  id: string;
  name: string;
  plan: string;
  link_limit_override: number | null;
  tag_limit_override: number | null;
  api_rate_limit: number | null;
  created_at: Date;
}): AccountView {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    ...effectiveLimits(row),
    api_rate_limit: row.api_rate_limit,
    created_at: row.created_at.getTime(),
  };
}
