import { createHash, randomBytes } from 'node:crypto';
import type { Plan } from '@shortlinks/contract';
import { announceCallerChange, type Orm } from '@shortlinks/db';
import type { Caller } from '../accounts/caller.ts';
import type { CallerCache } from '../accounts/caller-cache.ts';
import { type Db, inTransaction, reader, storable } from '../database/database.ts';
import { isRole } from './roles.ts';

/** Recognisable prefix of a session cookie's secret, so a leaked one can be found by secret scanners. */
export const SESSION_TOKEN_PREFIX = 'sls_';

/** A session unused this long ends; every use (counted at most every {@link TOUCH_EVERY_MS}) starts the time again. */
export const SESSION_IDLE_MS = 30 * 24 * 3_600_000;

/** How often a session's last use is written: a request at most every 5 minutes, so browsing writes almost nothing. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** Where a session was started from, as the sessions page shows it. */
export interface SessionOrigin {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

export interface SessionView {
  id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  ip: string | null;
  /** The session this request was made with. */
  current: boolean;
}

/** A new session: the cookie's secret (shown to the browser once) and when it ends unless used. */
export interface StartedSession {
  id: string;
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Browser sessions, kept in PostgreSQL so they can be listed and revoked (docs/accounts.md,
 * "Sessions"). The cookie holds 256 random bits; only their SHA-256 is stored. A session found live
 * is answered from the process's caller cache for at most CALLER_CACHE_MS; every revocation is
 * announced (`shortlinks_caller_changes`) so every process forgets it at once, this one before it
 * answers.
 */
export class SessionService {
  readonly #orm: Orm;
  readonly #callers: CallerCache;
  readonly #changed: (accountId: string) => void;

  constructor(orm: Orm, callers: CallerCache, changed: (accountId: string) => void) {
    this.#orm = orm;
    this.#callers = callers;
    this.#changed = changed;
  }

  /** Starts a session of `userId` in workspace `accountId` (a new secret each time: sign-in rotates it). */
  async start(userId: string, accountId: string, origin: SessionOrigin, db: Db = reader(this.#orm)): Promise<StartedSession> {
    const token = `${SESSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const csrfToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
    const id = `ses_${randomBytes(12).toString('base64url')}`;
    await db
      .insertInto('user_session')
      .values({
        id,
        token_hash: hashToken(token),
        user_id: userId,
        account_id: accountId,
        csrf_token: csrfToken,
        expires_at: expiresAt,
        user_agent: clip(origin.userAgent, 512),
        ip: clip(origin.ip, 64),
      })
      .execute();
    return { id, token, csrfToken, expiresAt };
  }

  /**
   * The caller a session cookie's secret stands for, or undefined when it is missing, unknown,
   * revoked, expired, or its person is no longer a member of the session's workspace.
   */
  async authenticate(token: string | undefined): Promise<Caller | undefined> {
    if (!token?.startsWith(SESSION_TOKEN_PREFIX) || token.length > 200 || !storable(token)) return undefined;
    const tokenHash = hashToken(token);
    const cached = this.#callers.get(tokenHash);
    if (cached) return cached;
    const snapshot = this.#callers.snapshot();
    const row = await reader(this.#orm)
      .selectFrom('user_session')
      .innerJoin('app_user', 'app_user.id', 'user_session.user_id')
      .innerJoin('membership', (join) =>
        join.onRef('membership.user_id', '=', 'user_session.user_id').onRef('membership.account_id', '=', 'user_session.account_id'),
      )
      .innerJoin('account', 'account.id', 'user_session.account_id')
      .leftJoin('two_factor', 'two_factor.user_id', 'user_session.user_id')
      .select([
        'account.require_two_factor',
        'two_factor.enabled_at as two_factor_on',
        'user_session.id',
        'user_session.user_id',
        'user_session.account_id',
        'user_session.csrf_token',
        'user_session.last_seen_at',
        'app_user.email',
        'membership.role',
        'account.plan',
        'account.api_rate_limit',
      ])
      .where('user_session.token_hash', '=', tokenHash)
      .where('user_session.revoked_at', 'is', null)
      .where('user_session.expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row || !isRole(row.role)) return undefined;
    if (Date.now() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) await this.#touch(row.id);
    const caller: Caller = {
      accountId: row.account_id,
      keyId: null,
      scopes: null,
      role: row.role,
      user: { id: row.user_id, email: row.email },
      session: { id: row.id, csrfToken: row.csrf_token },
      plan: row.plan as Plan,
      rateLimit: row.api_rate_limit,
      twoFactorMissing: row.require_two_factor && !row.two_factor_on,
    };
    this.#callers.set(tokenHash, caller, snapshot);
    return caller;
  }

  /** A person's live sessions, most recently used first. */
  async list(userId: string, currentSessionId: string | null): Promise<SessionView[]> {
    const rows = await reader(this.#orm)
      .selectFrom('user_session')
      .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date())
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      created_at: row.created_at.getTime(),
      last_seen_at: row.last_seen_at.getTime(),
      expires_at: row.expires_at.getTime(),
      user_agent: row.user_agent,
      ip: row.ip,
      current: row.id === currentSessionId,
    }));
  }

  /** Ends one session of `userId`; false when they have no such live session. */
  async end(userId: string, sessionId: string): Promise<boolean> {
    return (await this.#revoke({ userId, sessionId })) > 0;
  }

  /** Ends every session of `userId`, but `keep` when given (a password change keeps the one that made it). */
  async endAll(userId: string, keep?: string): Promise<number> {
    return this.#revoke({ userId, keep });
  }

  /** Ends `userId`'s sessions working in workspace `accountId` (they were removed from it, or left). */
  async endInWorkspace(userId: string, accountId: string, db?: Db): Promise<number> {
    return this.#revoke({ userId, accountId }, db);
  }

  /** Moves a session to another workspace of its person; the caller is looked up again everywhere. */
  async switchWorkspace(sessionId: string, fromAccountId: string, toAccountId: string): Promise<void> {
    await inTransaction(this.#orm, async (db) => {
      await db.updateTable('user_session').set({ account_id: toAccountId }).where('id', '=', sessionId).execute();
      await announceCallerChange(db, fromAccountId);
    });
    this.#changed(fromAccountId);
  }

  /**
   * Revokes the live sessions of a person that `which` selects, and announces it for each
   * workspace they were in, so every process forgets them before its next request. Inside `db`'s
   * transaction when given: announced on its commit and told here at once, which is early but
   * harmless (a lookup that began before the commit is not kept: the cache was cleared after it began).
   */
  async #revoke(which: { userId: string; sessionId?: string; accountId?: string; keep?: string | undefined }, db?: Db): Promise<number> {
    const run = async (tx: Db) => {
      let query = tx
        .updateTable('user_session')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', which.userId)
        .where('revoked_at', 'is', null);
      if (which.sessionId !== undefined) query = query.where('id', '=', which.sessionId);
      if (which.accountId !== undefined) query = query.where('account_id', '=', which.accountId);
      if (which.keep !== undefined) query = query.where('id', '<>', which.keep);
      const rows = await query.returning('account_id').execute();
      const accounts = [...new Set(rows.map((row) => row.account_id))];
      for (const accountId of accounts) await announceCallerChange(tx, accountId);
      return { count: rows.length, accounts };
    };
    const { count, accounts } = db ? await run(db) : await inTransaction(this.#orm, run);
    for (const accountId of accounts) this.#changed(accountId);
    return count;
  }

  async #touch(sessionId: string): Promise<void> {
    const now = new Date();
    await reader(this.#orm)
      .updateTable('user_session')
      .set({ last_seen_at: now, expires_at: new Date(now.getTime() + SESSION_IDLE_MS) })
      .where('id', '=', sessionId)
      .execute();
  }
}

function clip(text: string | undefined, max: number): string | null {
  if (text === undefined || !storable(text)) return null;
  return text.slice(0, max);
}
