import { PLANS, type Plan } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { newId } from '../domain/ids.ts';
import { effectiveLimits } from '../domain/plans.ts';
import { validationError } from '../errors.ts';
import { inTransaction, reader } from './database.ts';

export interface AccountView {
  id: string;
  name: string;
  plan: Plan;
  link_limit: number | null;
  tag_limit: number | null;
  created_at: number;
}

export interface NewAccount {
  name: string;
  plan: Plan;
  /** Overrides the plan's link limit. */
  link_limit?: number | undefined;
  /** Overrides the plan's tag limit. */
  tag_limit?: number | undefined;
}

/** Accounts, managed by the operator (the spec leaves issuing open: docs/accounts.md). */
export class AccountService {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async create(request: NewAccount): Promise<AccountView> {
    const name = request.name.trim();
    if (name === '') throw validationError('name', 'name must not be empty');
    if (!PLANS.includes(request.plan)) throw validationError('plan', `plan must be one of ${PLANS.join(', ')}`);
    for (const field of ['link_limit', 'tag_limit'] as const) {
      const value = request[field];
      if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
        throw validationError(field, `${field} must be a whole number from 0`);
      }
    }
    return inTransaction(this.#orm, async (db) => {
      const row = await db
        .insertInto('account')
        .values({
          id: newId('acc'),
          name,
          plan: request.plan,
          link_limit_override: request.link_limit ?? null,
          tag_limit_override: request.tag_limit ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toView(row);
    });
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

function toView(row: {
  id: string;
  name: string;
  plan: string;
  link_limit_override: number | null;
  tag_limit_override: number | null;
  created_at: Date;
}): AccountView {
  return { id: row.id, name: row.name, plan: row.plan as Plan, ...effectiveLimits(row), created_at: row.created_at.getTime() };
}
