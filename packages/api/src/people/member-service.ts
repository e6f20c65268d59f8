import { announceCallerChange, type Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import type { Caller } from '../accounts/caller.ts';
import { type Db, inTransaction, reader } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { aRole, type Role, roleAbove } from './roles.ts';
import type { SessionService } from './session-service.ts';

export interface MemberView {
  user_id: string;
  email: string;
  role: Role;
  joined_at: number;
}

/**
 * The people of a workspace and what they may do there (docs/accounts.md, "Roles"): roles change
 * only below the changer's own (an owner changes anyone), and a workspace always keeps an owner.
 * Every change is announced (`shortlinks_caller_changes`), so sessions and keys act with the new
 * role, or not at all, at their next request on every process.
 */
export class MemberService {
  readonly #orm: Orm;
  readonly #sessions: SessionService;
  readonly #changed: (accountId: string) => void;

  constructor(orm: Orm, sessions: SessionService, changed: (accountId: string) => void) {
    this.#orm = orm;
    this.#sessions = sessions;
    this.#changed = changed;
  }

  async list(accountId: string): Promise<MemberView[]> {
    const rows = await reader(this.#orm)
      .selectFrom('membership')
      .innerJoin('app_user', 'app_user.id', 'membership.user_id')
      .select(['membership.user_id', 'app_user.email', 'membership.role', 'membership.created_at'])
      .where('membership.account_id', '=', accountId)
      .orderBy('membership.created_at')
      .orderBy('app_user.email')
      .execute();
    return rows.map((row) => ({ user_id: row.user_id, email: row.email, role: row.role as Role, joined_at: row.created_at.getTime() }));
  }

  /** Adds a person to a workspace (the CLI's `user create`; invitations later). */
  async add(accountId: string, userId: string, role: Role, db?: Db): Promise<void> {
    const insert = async (tx: Db) => {
      await tx
        .insertInto('membership')
        .values({ user_id: userId, account_id: accountId, role })
        .onConflict((c) => c.doNothing())
        .execute();
    };
    if (db) await insert(db);
    else await inTransaction(this.#orm, insert);
  }

  /** Gives `userId` role `role` in the caller's workspace. */
  async changeRole(caller: Caller, userId: string, role: Role): Promise<MemberView> {
    await this.#changing(caller.accountId, async (db) => {
      const current = await this.#roleOf(db, caller.accountId, userId);
      mayManage(caller, current, 'change the role of');
      if (caller.role !== 'owner' && !roleAbove(caller.role, role)) {
        throw new AppError('FORBIDDEN', `${capitalised(aRole(caller.role))} can only give roles below their own`, 'role');
      }
      if (current === 'owner' && role !== 'owner') await keepsAnOwner(db, caller.accountId);
      await db.updateTable('membership').set({ role }).where('user_id', '=', userId).where('account_id', '=', caller.accountId).execute();
    });
    const member = (await this.list(caller.accountId)).find((entry) => entry.user_id === userId);
    if (!member) throw new AppError('NOT_FOUND', 'No such member of this workspace');
    return member;
  }

  /**
   * Removes `userId` from the caller's workspace: their sessions working in it end and the keys
   * they made there are revoked, on every process at once (announced on commit).
   */
  async remove(caller: Caller, userId: string): Promise<void> {
    if (userId === caller.user?.id) throw validationError('user_id', 'To leave a workspace yourself, use "leave"');
    await this.#changing(caller.accountId, async (db) => {
      const current = await this.#roleOf(db, caller.accountId, userId);
      mayManage(caller, current, 'remove');
      await this.#drop(db, caller.accountId, userId, current);
    });
  }

  /** The caller leaves their workspace (not its last owner); their sessions in it end. */
  async leave(caller: Caller): Promise<void> {
    const userId = caller.user?.id;
    if (!userId) throw new AppError('FORBIDDEN', 'Only a signed-in person can leave a workspace');
    await this.#changing(caller.accountId, async (db) => {
      const current = await this.#roleOf(db, caller.accountId, userId);
      await this.#drop(db, caller.accountId, userId, current);
    });
  }

  /** Renames the workspace (owners only, by the procedure's role). */
  async rename(accountId: string, name: string): Promise<{ id: string; name: string }> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 100) throw validationError('name', 'The name must be 1 to 100 characters long');
    await this.#changing(accountId, async (db) => {
      await db.updateTable('account').set({ name: trimmed }).where('id', '=', accountId).execute();
    });
    return { id: accountId, name: trimmed };
  }

  /**
   * Deletes the workspace with everything in it (links, tags, clicks, keys, memberships, sessions
   * in it): the owner types its name to confirm.
   */
  async deleteWorkspace(accountId: string, confirmName: string): Promise<void> {
    await this.#changing(accountId, async (db) => {
      const account = await db.selectFrom('account').select('name').where('id', '=', accountId).executeTakeFirst();
      if (!account) throw new AppError('NOT_FOUND', 'No such workspace');
      if (account.name !== confirmName) throw validationError('confirm_name', 'Type the workspace’s name exactly to delete it');
      await db.deleteFrom('account').where('id', '=', accountId).execute();
    });
  }

  async #drop(db: Db, accountId: string, userId: string, current: Role): Promise<void> {
    if (current === 'owner') await keepsAnOwner(db, accountId);
    await db.deleteFrom('membership').where('user_id', '=', userId).where('account_id', '=', accountId).execute();
    await this.#sessions.endInWorkspace(userId, accountId, db);
    await db
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', accountId)
      .where('created_by_user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async #roleOf(db: Db, accountId: string, userId: string): Promise<Role> {
    const row = await db
      .selectFrom('membership')
      .select('role')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'No such member of this workspace');
    return row.role as Role;
  }

  /**
   * Runs a change of the workspace's people in one transaction, holding the workspace's row so two
   * changes at once cannot both remove "the other" owner, and announces it on commit.
   */
  async #changing(accountId: string, work: (db: Db) => Promise<void>): Promise<void> {
    await inTransaction(this.#orm, async (db) => {
      await db.selectFrom('account').select('id').where('id', '=', accountId).forUpdate().execute();
      await work(db);
      await announceCallerChange(db, accountId);
    });
    this.#changed(accountId);
  }
}

/** Whether the caller may change or remove a member whose role is `target`: below their own, or anyone for an owner. */
function mayManage(caller: Caller, target: Role, what: string): void {
  if (caller.role === 'owner' || roleAbove(caller.role, target)) return;
  throw new AppError('FORBIDDEN', `${capitalised(aRole(caller.role))} cannot ${what} ${aRole(target)}`);
}

async function keepsAnOwner(db: Db, accountId: string): Promise<void> {
  const row = await db
    .selectFrom('membership')
    .select(sql<string>`count(*)`.as('owners'))
    .where('account_id', '=', accountId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  if (Number(row.owners) <= 1) throw new AppError('LAST_OWNER');
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
