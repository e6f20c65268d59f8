import { announceCallerChange, type Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { keyAnswer, toView as toKeyView } from '../accounts/api-key-service.ts';
import type { Caller } from '../accounts/caller.ts';
import { actingAs } from '../audit/acting.ts';
import { type Db, inTransaction, reader } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { type RecordedChange, recordChange, recordChanges } from '../events/record-change.ts';
import { aRole, type Role, roleAbove } from './roles.ts';
import type { SessionService } from './session-service.ts';

export interface MemberView {
  user_id: string;
  email: string;
  role: Role;
  joined_at: number;
}

/**
 * Runs `work` as `person` from `ip` for the audit log: a change a person makes with no caller yet
 * (accepting an invitation, joining through single sign-on, becoming the first owner) is theirs.
 */
export function actingAsPerson<T>(person: { id: string; email: string }, ip: string | null, work: () => Promise<T>): Promise<T> {
  return actingAs({ type: 'user', id: person.id, name: person.email }, ip, work);
}

/** The workspace as the change log records it (`workspace.updated`): its name and its owner's settings. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  require_two_factor: boolean;
}

/** The workspace as the change log records it, read in `db`. */
export function workspaceRecord(db: Db, accountId: string): Promise<WorkspaceRecord> {
  return db.selectFrom('account').select(['id', 'name', 'require_two_factor']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

/** A member of a workspace as the API shows it, read in `db`; undefined for someone who is not one. */
export async function memberOf(db: Db, accountId: string, userId: string): Promise<MemberView | undefined> {
  const row = await db
    .selectFrom('membership')
    .innerJoin('app_user', 'app_user.id', 'membership.user_id')
    .select(['membership.user_id', 'app_user.email', 'membership.role', 'membership.created_at'])
    .where('membership.account_id', '=', accountId)
    .where('membership.user_id', '=', userId)
    .executeTakeFirst();
  return row && { user_id: row.user_id, email: row.email, role: row.role as Role, joined_at: row.created_at.getTime() };
}

/**
 * Adds a person to a workspace in `db`'s transaction and records `member.added`; a member already
 * keeps the role they have, and nothing is recorded. Whether they were added.
 */
export async function addMember(changes: Changes, db: Db, accountId: string, userId: string, role: Role): Promise<boolean> {
  const added = await db
    .insertInto('membership')
    .values({ user_id: userId, account_id: accountId, role })
    .onConflict((c) => c.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (!added) return false;
  const member = await memberOf(db, accountId, userId);
  if (member) await recordChange(changes, db, accountId, 'member.added', member);
  return true;
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
  /** Where each change of members and of the workspace is recorded, in its transaction (events/change-log.ts). */
  readonly #changes: Changes;

  constructor(orm: Orm, sessions: SessionService, changed: (accountId: string) => void, changes = new Changes()) {
    this.#orm = orm;
    this.#sessions = sessions;
    this.#changed = changed;
    this.#changes = changes;
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
    const insert = (tx: Db) => addMember(this.#changes, tx, accountId, userId, role);
    if (db) await insert(db);
    else await inTransaction(this.#orm, insert);
  }

  /** Gives `userId` role `role` in the caller's workspace. */
  /**
   * Gives `userId` role `role` in the caller's workspace, recorded as `member.updated` with the
   * member before and after (a role given again is recorded too: the call was made and allowed).
   */
  async changeRole(caller: Caller, userId: string, role: Role): Promise<MemberView> {
    return this.#changing(caller.accountId, async (db) => {
      const before = await this.#member(db, caller.accountId, userId);
      mayManage(caller, before.role, 'change the role of');
      if (caller.role !== 'owner' && !roleAbove(caller.role, role)) {
        throw new AppError('FORBIDDEN', `${capitalised(aRole(caller.role))} can only give roles below their own`, 'role');
      }
      if (before.role === 'owner' && role !== 'owner') await keepsAnOwner(db, caller.accountId);
      await db.updateTable('membership').set({ role }).where('user_id', '=', userId).where('account_id', '=', caller.accountId).execute();
      const after = { ...before, role };
      await recordChange(this.#changes, db, caller.accountId, 'member.updated', after, before);
      return after;
    });
  }

  /**
   * Removes `userId` from the caller's workspace: their sessions working in it end and the keys
   * they made there are revoked, on every process at once (announced on commit).
   */
  async remove(caller: Caller, userId: string): Promise<void> {
    if (userId === caller.user?.id) throw validationError('user_id', 'To leave a workspace yourself, use "leave"');
    await this.#changing(caller.accountId, async (db) => {
      const member = await this.#member(db, caller.accountId, userId);
      mayManage(caller, member.role, 'remove');
      await this.#drop(db, caller.accountId, member);
    });
  }

  /** The caller leaves their workspace (not its last owner); their sessions in it end. */
  async leave(caller: Caller): Promise<void> {
    const userId = caller.user?.id;
    if (!userId) throw new AppError('FORBIDDEN', 'Only a signed-in person can leave a workspace');
    await this.#changing(caller.accountId, async (db) => {
      await this.#drop(db, caller.accountId, await this.#member(db, caller.accountId, userId));
    });
  }

  /** Renames the workspace (owners only, by the procedure's role), recorded as `workspace.updated`. */
  async rename(accountId: string, name: string): Promise<{ id: string; name: string }> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 100) throw validationError('name', 'The name must be 1 to 100 characters long');
    await this.#changing(accountId, async (db) => {
      const before = await workspaceRecord(db, accountId);
      await db.updateTable('account').set({ name: trimmed }).where('id', '=', accountId).execute();
      await recordChange(this.#changes, db, accountId, 'workspace.updated', { ...before, name: trimmed }, before);
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

  /** Removes a member, recorded as `member.removed`, and revokes the keys they made there, each recorded as `key.revoked`. */
  async #drop(db: Db, accountId: string, member: MemberView): Promise<void> {
    if (member.role === 'owner') await keepsAnOwner(db, accountId);
    await db.deleteFrom('membership').where('user_id', '=', member.user_id).where('account_id', '=', accountId).execute();
    await this.#sessions.endInWorkspace(member.user_id, accountId, db);
    const revoked = await db
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', accountId)
      .where('created_by_user_id', '=', member.user_id)
      .where('revoked_at', 'is', null)
      .returningAll()
      .execute();
    const recorded: RecordedChange[] = [{ type: 'member.removed', data: member }];
    for (const key of revoked) recorded.push({ type: 'key.revoked', data: keyAnswer(toKeyView(key)) });
    await recordChanges(this.#changes, db, accountId, recorded);
  }

  /** A member of the workspace, read in the change's transaction; NOT_FOUND for anyone else. */
  async #member(db: Db, accountId: string, userId: string): Promise<MemberView> {
    const member = await memberOf(db, accountId, userId);
    if (!member) throw new AppError('NOT_FOUND', 'No such member of this workspace');
    return member;
  }

  /**
   * Runs a change of the workspace's people in one transaction, holding the workspace's row so two
   * changes at once cannot both remove "the other" owner, and announces it on commit.
   */
  async #changing<T>(accountId: string, work: (db: Db) => Promise<T>): Promise<T> {
    const result = await inTransaction(this.#orm, async (db) => {
      await db.selectFrom('account').select('id').where('id', '=', accountId).forUpdate().execute();
      const result = await work(db);
      await announceCallerChange(db, accountId);
      return result;
    });
    this.#changed(accountId);
    return result;
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
