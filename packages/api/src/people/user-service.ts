import { randomBytes } from 'node:crypto';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { type Db, inTransaction, reader } from '../database/database.ts';
import { AppError } from '../errors.ts';
import { checkedEmail } from './emails.ts';
import { checkNewPassword, hashPassword, passwordMatches, verifyAgainstDummy } from './passwords.ts';
import type { Role } from './roles.ts';
import type { SessionService } from './session-service.ts';

export interface UserView {
  id: string;
  email: string;
  created_at: number;
  /** Whether the person has a password yet (one is set through a one-time link). */
  has_password: boolean;
}

export interface WorkspaceView {
  id: string;
  name: string;
  role: Role;
}

export function newUserId(): string {
  return `usr_${randomBytes(12).toString('base64url')}`;
}

/** People: who they are, their passwords, and the workspaces they belong to (docs/accounts.md). */
export class UserService {
  readonly #orm: Orm;
  readonly #sessions: SessionService;

  constructor(orm: Orm, sessions: SessionService) {
    this.#orm = orm;
    this.#sessions = sessions;
  }

  /**
   * The person whose email and password these are, or undefined. An unknown email (or a person
   * without a password) costs one argon2id verification too, against a dummy hash, so neither the
   * answer nor its time tells an unknown email from a wrong password (docs/security.md).
   */
  async verifyCredentials(email: string, password: string): Promise<UserView | undefined> {
    const row = await this.#byEmail(email.trim());
    if (!row?.password_hash) {
      await verifyAgainstDummy(password);
      return undefined;
    }
    return (await passwordMatches(row.password_hash, password)) ? toView(row) : undefined;
  }

  /** A new person, with a password or without one (set later through a one-time link). */
  async create(email: string, password: string | undefined, db?: Db): Promise<UserView> {
    const address = checkedEmail(email);
    const hash = password === undefined ? null : await hashPassword(checkNewPassword(password));
    const insert = (tx: Db) =>
      tx
        .insertInto('app_user')
        .values({ id: newUserId(), email: address, password_hash: hash, password_changed_at: hash ? new Date() : null })
        .returningAll()
        .executeTakeFirstOrThrow();
    return toView(db ? await insert(db) : await inTransaction(this.#orm, insert));
  }

  async find(email: string): Promise<UserView | undefined> {
    const row = await this.#byEmail(email.trim());
    return row ? toView(row) : undefined;
  }

  async get(userId: string): Promise<UserView | undefined> {
    const row = await reader(this.#orm).selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirst();
    return row ? toView(row) : undefined;
  }

  async count(): Promise<number> {
    const row = await reader(this.#orm).selectFrom('app_user').select(sql<string>`count(*)`.as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Every person, oldest first, with their workspaces (the operator's `user list`). */
  async list(): Promise<(UserView & { workspaces: WorkspaceView[] })[]> {
    const users = await reader(this.#orm).selectFrom('app_user').selectAll().orderBy('created_at').orderBy('id').execute();
    const memberships = await reader(this.#orm)
      .selectFrom('membership')
      .innerJoin('account', 'account.id', 'membership.account_id')
      .select(['membership.user_id', 'account.id', 'account.name', 'membership.role'])
      .orderBy('account.created_at')
      .execute();
    return users.map((user) => ({
      ...toView(user),
      workspaces: memberships
        .filter((membership) => membership.user_id === user.id)
        .map(({ id, name, role }) => ({ id, name, role: role as Role })),
    }));
  }

  /** The workspaces a person belongs to, with their role in each, oldest first. */
  async workspaces(userId: string): Promise<WorkspaceView[]> {
    const rows = await reader(this.#orm)
      .selectFrom('membership')
      .innerJoin('account', 'account.id', 'membership.account_id')
      .select(['account.id', 'account.name', 'membership.role'])
      .where('membership.user_id', '=', userId)
      .orderBy('account.created_at')
      .orderBy('account.id')
      .execute();
    return rows.map(({ id, name, role }) => ({ id, name, role: role as Role }));
  }

  /**
   * Changes a person's password after checking their current one (a stolen session alone cannot),
   * and ends their other sessions: whoever else was signed in as them is signed out.
   */
  async changePassword(userId: string, current: string, next: string, keepSession: string | undefined): Promise<void> {
    checkNewPassword(next, 'new_password');
    const row = await reader(this.#orm).selectFrom('app_user').select('password_hash').where('id', '=', userId).executeTakeFirst();
    const matches = row?.password_hash ? await passwordMatches(row.password_hash, current) : await verifyAgainstDummy(current);
    if (!matches) throw new AppError('VALIDATION_ERROR', 'The current password is wrong', 'current_password');
    await this.setPassword(userId, next, keepSession);
  }

  /** Sets a password (checked) and ends every session of the person but `keepSession`. */
  async setPassword(userId: string, password: string, keepSession?: string, db?: Db): Promise<void> {
    const hash = await hashPassword(checkNewPassword(password));
    const write = (tx: Db) =>
      tx.updateTable('app_user').set({ password_hash: hash, password_changed_at: new Date() }).where('id', '=', userId).execute();
    if (db) await write(db);
    else await inTransaction(this.#orm, write);
    await this.#sessions.endAll(userId, keepSession);
  }

  #byEmail(email: string) {
    return reader(this.#orm)
      .selectFrom('app_user')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }
}

function toView(row: { id: string; email: string; created_at: Date; password_hash: string | null }): UserView {
  return { id: row.id, email: row.email, created_at: row.created_at.getTime(), has_password: row.password_hash !== null };
}
