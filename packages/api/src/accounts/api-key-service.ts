import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Plan } from '@shortlinks/contract';
import { announceCallerChange, type Orm } from '@shortlinks/db';
import { inTransaction, reader, storable } from '../database/database.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { isRole } from '../people/roles.ts';
import type { Caller } from './caller.ts';
import type { CallerCache } from './caller-cache.ts';

/** Recognisable prefix of every secret, so leaked keys can be found by secret scanners. */
export const API_KEY_PREFIX = 'slk_';

export type { Caller } from './caller.ts';

export interface ApiKeyView {
  id: string;
  account_id: string;
  /** The first characters of the secret, to tell keys apart. */
  prefix: string;
  created_at: number;
  revoked_at?: number;
}

/** Characters of the secret stored in clear (`slk_` + 8): enough to find the key, far too few to guess the rest. */
const STORED_PREFIX_CHARS = 12;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether a sent secret's hash is a stored one, taking the same time whatever the answer. */
function hashMatches(sentHash: string, storedHash: string): boolean {
  const stored = Buffer.from(storedHash, 'hex');
  const sent = Buffer.from(sentHash, 'hex');
  return stored.length === sent.length && timingSafeEqual(stored, sent);
}

/**
 * API keys: 256 random bits, shown once; only their SHA-256 is stored (a fast hash is enough for
 * secrets of that strength). A key is found by its non-secret prefix, and its hash compared in
 * constant time, so response times say nothing about the secret part.
 */
export class ApiKeyService {
  /** Callers recently found, so most requests cost no key lookup (docs/security.md: within 1 s). */
  readonly callers: CallerCache;
  readonly #orm: Orm;
  readonly #changed: (accountId: string) => void;

  /** `changed` hears, after commit, of every account whose key was revoked: it forgets `callers` (cache-coherence.ts). */
  constructor(orm: Orm, callers: CallerCache, changed: (accountId: string) => void) {
    this.#orm = orm;
    this.callers = callers;
    this.#changed = changed;
  }

  async create(accountId: string): Promise<{ key: ApiKeyView; secret: string }> {
    const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    return inTransaction(this.#orm, async (db) => {
      const account = await db.selectFrom('account').select('id').where('id', '=', accountId).executeTakeFirst();
      if (!account) throw new AppError('NOT_FOUND', `No account ${accountId}`);
      const row = await db
        .insertInto('api_key')
        .values({ id: newId('key'), account_id: accountId, prefix: secret.slice(0, STORED_PREFIX_CHARS), secret_hash: hashSecret(secret) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { key: toView(row), secret };
    });
  }

  /**
   * Revokes a key; false when there is no such live key. Every process forgets its cached callers
   * when the revocation commits (announced), this one at once.
   */
  async revoke(keyId: string): Promise<boolean> {
    const accountId = await inTransaction(this.#orm, async (db) => {
      const row = await db
        .updateTable('api_key')
        .set({ revoked_at: new Date() })
        .where('id', '=', keyId)
        .where('revoked_at', 'is', null)
        .returning('account_id')
        .executeTakeFirst();
      if (row) await announceCallerChange(db, row.account_id);
      return row?.account_id;
    });
    if (accountId === undefined) return false;
    this.#changed(accountId);
    return true;
  }

  async list(accountId: string): Promise<ApiKeyView[]> {
    const rows = await reader(this.#orm)
      .selectFrom('api_key')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    return rows.map(toView);
  }

  /**
   * The caller a bearer secret identifies, or undefined for a missing, unknown or revoked key.
   * A key found live is answered from memory for at most {@link CallerCache}'s bound.
   */
  async authenticate(secret: string | undefined): Promise<Caller | undefined> {
    if (!secret?.startsWith(API_KEY_PREFIX) || secret.length > 200 || !storable(secret)) return undefined;
    const sentHash = hashSecret(secret);
    const cached = this.callers.get(sentHash);
    if (cached) return cached;
    const snapshot = this.callers.snapshot();
    const candidates = await reader(this.#orm)
      .selectFrom('api_key')
      .innerJoin('account', 'account.id', 'api_key.account_id')
      // A key made by a person acts with that person's role in its workspace now.
      .leftJoin('membership', (join) =>
        join.onRef('membership.user_id', '=', 'api_key.created_by_user_id').onRef('membership.account_id', '=', 'api_key.account_id'),
      )
      .leftJoin('app_user', 'app_user.id', 'api_key.created_by_user_id')
      .select([
        'api_key.id',
        'api_key.account_id',
        'api_key.secret_hash',
        'api_key.created_by_user_id',
        'account.plan',
        'account.api_rate_limit',
        'membership.role',
        'app_user.email',
      ])
      .where('api_key.prefix', '=', secret.slice(0, STORED_PREFIX_CHARS))
      .where('api_key.revoked_at', 'is', null)
      .execute();
    const row = candidates.find((candidate) => hashMatches(sentHash, candidate.secret_hash));
    if (!row) return undefined;
    const madeByPerson = row.created_by_user_id !== null;
    // A person's key whose maker left the workspace is revoked with the removal; never trust it meanwhile.
    if (madeByPerson && !isRole(row.role)) return undefined;
    const caller: Caller = {
      accountId: row.account_id,
      keyId: row.id,
      role: madeByPerson && isRole(row.role) ? row.role : 'owner',
      user: madeByPerson && row.email ? { id: row.created_by_user_id as string, email: row.email } : null,
      session: null,
      plan: row.plan as Plan,
      rateLimit: row.api_rate_limit,
    };
    this.callers.set(sentHash, caller, snapshot);
    return caller;
  }
}

function toView(row: { id: string; account_id: string; prefix: string; created_at: Date; revoked_at: Date | null }): ApiKeyView {
  const view: ApiKeyView = { id: row.id, account_id: row.account_id, prefix: row.prefix, created_at: row.created_at.getTime() };
  if (row.revoked_at) view.revoked_at = row.revoked_at.getTime();
  return view;
}
