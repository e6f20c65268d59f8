import { createHash, randomBytes } from 'node:crypto';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { inTransaction, reader, storable } from '../database/database.ts';
import { AppError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { actingAsPerson, addMember } from './member-service.ts';
import type { UserService } from './user-service.ts';

/** How long a link made for the first owner (printed at start) can be used. */
export const SETUP_LINK_MS = 7 * 24 * 3_600_000;
/** How long a link that sets an existing person's password (`user create`, `user reset-password`) can be used. */
export const PASSWORD_LINK_MS = 24 * 3_600_000;

export type PasswordLinkPurpose = 'setup' | 'password';

/** What a one-time link's page shows before it is used. */
export interface PasswordLinkView {
  purpose: PasswordLinkPurpose;
  /** The person whose password it sets; null for a first owner, who gives theirs. */
  email: string | null;
  /** The workspace a first owner will own. */
  workspace: string | null;
  expires_at: number;
}

/** The dashboard page a link opens; the secret is in the fragment, which browsers never send in requests or `Referer`. */
export function passwordLinkUrl(dashboardUrl: string, purpose: PasswordLinkPurpose, token: string): string {
  return `${dashboardUrl}/${purpose === 'setup' ? 'setup' : 'set-password'}#${token}`;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * One-time links that set a password: the first owner's (`setup`), and an existing person's
 * (`password`). 256 random bits; only their SHA-256 is stored; a link is used once, and expires.
 */
export class PasswordLinkService {
  readonly #orm: Orm;
  readonly #users: UserService;
  /** Where the first owner joining is recorded (`member.added`), in its transaction. */
  readonly #changes: Changes;

  constructor(orm: Orm, users: UserService, changes = new Changes()) {
    this.#orm = orm;
    this.#users = users;
    this.#changes = changes;
  }

  /** A link that creates the first owner of workspace `accountId`. */
  issueSetup(accountId: string): Promise<string> {
    return this.#issue({ purpose: 'setup', account_id: accountId, user_id: null }, SETUP_LINK_MS);
  }

  /** A link that sets `userId`'s password; earlier unused ones of theirs stop working. */
  async issuePassword(userId: string): Promise<string> {
    await reader(this.#orm)
      .updateTable('password_link')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    return this.#issue({ purpose: 'password', user_id: userId, account_id: null }, PASSWORD_LINK_MS);
  }

  /** What a live link is for; ONE_TIME_LINK_INVALID when it was used, expired or never existed. */
  async describe(token: string): Promise<PasswordLinkView> {
    const row = await this.#live(token);
    return {
      purpose: row.purpose as PasswordLinkPurpose,
      email: row.email,
      workspace: row.workspace,
      expires_at: row.expires_at.getTime(),
    };
  }

  /**
   * Uses a link once: a first owner is created (with `email`) as owner of its workspace, or the
   * person's password is set (ending their sessions). The person's id and the workspace to start
   * a session in.
   */
  async use(
    token: string,
    password: string,
    email: string | undefined,
    address: string | null = null,
  ): Promise<{ userId: string; accountId: string | null }> {
    return inTransaction(this.#orm, async (db) => {
      const row = await this.#live(token, db);
      // Used at most once, even by two requests at the same moment.
      const claimed = await db
        .updateTable('password_link')
        .set({ used_at: new Date() })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!claimed) throw new AppError('ONE_TIME_LINK_INVALID');
      if (row.purpose === 'setup') {
        if (email === undefined) throw new AppError('VALIDATION_ERROR', 'Enter your email', 'email');
        if (!row.account_id) throw new AppError('ONE_TIME_LINK_INVALID');
        const user = await this.#users.create(email, password, db);
        const workspace = row.account_id;
        // Recorded as the new owner (`member.added`), from where they used the link.
        await actingAsPerson(user, address, () => addMember(this.#changes, db, workspace, user.id, 'owner'));
        return { userId: user.id, accountId: row.account_id };
      }
      if (!row.user_id) throw new AppError('ONE_TIME_LINK_INVALID');
      await this.#users.setPassword(row.user_id, password, undefined, db);
      const first = await db
        .selectFrom('membership')
        .innerJoin('account', 'account.id', 'membership.account_id')
        .select('account.id')
        .where('membership.user_id', '=', row.user_id)
        .orderBy('account.created_at')
        .executeTakeFirst();
      return { userId: row.user_id, accountId: first?.id ?? null };
    });
  }

  async #issue(values: { purpose: PasswordLinkPurpose; user_id: string | null; account_id: string | null }, lifetimeMs: number) {
    const token = `slp_${randomBytes(32).toString('base64url')}`;
    await reader(this.#orm)
      .insertInto('password_link')
      .values({
        id: `pwl_${randomBytes(12).toString('base64url')}`,
        token_hash: hashToken(token),
        expires_at: new Date(Date.now() + lifetimeMs),
        ...values,
      })
      .execute();
    return token;
  }

  async #live(token: string, db = reader(this.#orm)) {
    if (token.length > 200 || !storable(token)) throw new AppError('ONE_TIME_LINK_INVALID');
    const row = await db
      .selectFrom('password_link')
      .leftJoin('app_user', 'app_user.id', 'password_link.user_id')
      .leftJoin('account', 'account.id', 'password_link.account_id')
      .select([
        'password_link.id',
        'password_link.purpose',
        'password_link.user_id',
        'password_link.account_id',
        'password_link.expires_at',
        'app_user.email',
        'account.name as workspace',
      ])
      .where('password_link.token_hash', '=', hashToken(token))
      .where('password_link.used_at', 'is', null)
      .where('password_link.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!row) throw new AppError('ONE_TIME_LINK_INVALID');
    return row;
  }
}
