import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isScope, type ApiKeyView as KeyAnswer, type Plan, SCOPES, type Scope } from '@shortlinks/contract';
import { announceCallerChange, type Orm } from '@shortlinks/db';
import { LRUCache } from 'lru-cache';
import { type Db, inTransaction, reader, storable } from '../database/database.ts';
import { AppError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { recordChange } from '../events/record-change.ts';
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
  name: string;
  scopes: Scope[];
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  /** Who made it; null for the operator's CLI. */
  created_by_user_id: string | null;
  revoked_at?: number;
}

/** What a new key is: who made it, its name, its scopes and when it expires. */
export interface NewKey {
  name?: string;
  /** Every scope unless given (the operator's CLI without `--scopes`). */
  scopes?: readonly Scope[];
  /** Epoch ms, or null for never. */
  expiresAt?: number | null;
  /** The person who makes it (null: the operator). */
  createdByUserId?: string | null;
}

/** How often a key's `last_used_at` is written at most: a busy key costs no write per request. */
export const LAST_USED_EVERY_MS = 60_000;

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
  /** When this process last wrote each key's `last_used_at` (bounded: at most the keys used lately). */
  readonly #lastUsed = new LRUCache<string, number>({ max: 10_000 });
  /** Where each key made or revoked is recorded, in its transaction (events/change-log.ts): the audit log. */
  readonly #changes: Changes;

  /** `changed` hears, after commit, of every account whose key was revoked: it forgets `callers` (cache-coherence.ts). */
  constructor(orm: Orm, callers: CallerCache, changed: (accountId: string) => void, changes = new Changes()) {
    this.#orm = orm;
    this.callers = callers;
    this.#changed = changed;
    this.#changes = changes;
  }

  /**
   * Makes a key; in `within`'s transaction when given (a Connect claim), else in its own. Recorded
   * as `key.created` without its secret, whoever makes it (a person, a key, Connect, the CLI).
   */
  async create(accountId: string, options: NewKey = {}, within?: Db): Promise<{ key: ApiKeyView; secret: string }> {
    const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const { name = 'API key', scopes = SCOPES, expiresAt = null, createdByUserId = null } = options;
    const work = async (db: Db) => {
      const account = await db.selectFrom('account').select('id').where('id', '=', accountId).executeTakeFirst();
      if (!account) throw new AppError('NOT_FOUND', `No account ${accountId}`);
      const row = await db
        .insertInto('api_key')
        .values({
          id: newId('key'),
          account_id: accountId,
          prefix: secret.slice(0, STORED_PREFIX_CHARS),
          secret_hash: hashSecret(secret),
          name,
          scopes: [...scopes],
          expires_at: expiresAt === null ? null : new Date(expiresAt),
          created_by_user_id: createdByUserId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const key = toView(row);
      await recordChange(this.#changes, db, accountId, 'key.created', keyAnswer(key));
      return { key, secret };
    };
    return within ? work(within) : inTransaction(this.#orm, work);
  }

  /**
   * Revokes a key; false when there is no such live key. Every process forgets its cached callers
   * when the revocation commits (announced), this one at once.
   */
  async revoke(keyId: string, within?: KeyOwnership): Promise<boolean> {
    const accountId = await inTransaction(this.#orm, async (db) => {
      let update = db.updateTable('api_key').set({ revoked_at: new Date() }).where('id', '=', keyId).where('revoked_at', 'is', null);
      if (within) {
        update = update.where('account_id', '=', within.accountId);
        if (within.madeBy !== undefined) update = update.where('created_by_user_id', '=', within.madeBy);
      }
      const row = await update.returningAll().executeTakeFirst();
      if (!row) return undefined;
      await announceCallerChange(db, row.account_id);
      // The key as it was (revoked: no longer listed), never its secret nor its hash.
      await recordChange(this.#changes, db, row.account_id, 'key.revoked', keyAnswer(toView(row)));
      return row.account_id;
    });
    if (accountId === undefined) return false;
    this.#changed(accountId);
    return true;
  }

  /** Every key of the account (the operator's CLI), oldest first; or, `live`, those not revoked, only `madeBy`'s if given. */
  async list(accountId: string, { live = false, madeBy }: { live?: boolean; madeBy?: string } = {}): Promise<ApiKeyView[]> {
    let query = reader(this.#orm).selectFrom('api_key').selectAll().where('account_id', '=', accountId);
    if (live) query = query.where('revoked_at', 'is', null);
    if (madeBy !== undefined) query = query.where('created_by_user_id', '=', madeBy);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toView);
  }

  /**
   * The caller a bearer secret identifies, or undefined for a missing, unknown or revoked key.
   * A key found live is answered from memory for at most {@link CallerCache}'s bound.
   */
  async authenticate(secret: string | undefined): Promise<Caller | undefined> {
    if (!secret?.startsWith(API_KEY_PREFIX) || secret.length > 200 || !storable(secret)) return undefined;
    const sentHash = hashSecret(secret);
    const cached = this.callers.get(sentHash) as KeyCaller | undefined;
    if (cached && (cached.expiresAt === null || cached.expiresAt > Date.now())) {
      this.#used(cached);
      return cached;
    }
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
        'api_key.name',
        'api_key.account_id',
        'api_key.secret_hash',
        'api_key.created_by_user_id',
        'api_key.scopes',
        'api_key.expires_at',
        'api_key.last_used_at',
        'account.plan',
        'account.api_rate_limit',
        'membership.role',
        'app_user.email',
      ])
      .where('api_key.prefix', '=', secret.slice(0, STORED_PREFIX_CHARS))
      .where('api_key.revoked_at', 'is', null)
      // An expired key is refused like an unknown one.
      .where((eb) => eb.or([eb('api_key.expires_at', 'is', null), eb('api_key.expires_at', '>', new Date())]))
      .execute();
    const row = candidates.find((candidate) => hashMatches(sentHash, candidate.secret_hash));
    if (!row) return undefined;
    const madeByPerson = row.created_by_user_id !== null;
    // A person's key whose maker left the workspace is revoked with the removal; never trust it meanwhile.
    if (madeByPerson && !isRole(row.role)) return undefined;
    const caller: KeyCaller = {
      accountId: row.account_id,
      keyId: row.id,
      keyName: row.name,
      scopes: row.scopes.filter(isScope),
      expiresAt: row.expires_at?.getTime() ?? null,
      role: madeByPerson && isRole(row.role) ? row.role : 'owner',
      user: madeByPerson && row.email ? { id: row.created_by_user_id as string, email: row.email } : null,
      session: null,
      plan: row.plan as Plan,
      rateLimit: row.api_rate_limit,
    };
    this.callers.set(sentHash, caller, snapshot);
    if (row.last_used_at) this.#lastUsed.set(row.id, row.last_used_at.getTime());
    this.#used(caller);
    return caller;
  }

  /**
   * Notes that a key was used: `last_used_at` is written at most once a minute per key, after the
   * answer's work is under way (never awaited: a failed write costs the request nothing), and only
   * when the row's own value is a minute old, so several processes do not each write.
   */
  #used(caller: Caller): void {
    const keyId = caller.keyId;
    if (keyId === null) return;
    const now = Date.now();
    const last = this.#lastUsed.get(keyId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    this.#lastUsed.set(keyId, now);
    const stale = new Date(now - LAST_USED_EVERY_MS);
    void reader(this.#orm)
      .updateTable('api_key')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', stale)]))
      .execute()
      .catch(() => this.#lastUsed.delete(keyId));
  }
}

/** Which keys a caller may manage (docs/accounts.md, "Keys and scopes"): the account's, and only `madeBy`'s if given. */
export interface KeyOwnership {
  accountId: string;
  madeBy?: string;
}

/** A key's caller, with when it expires, so one answered from memory is refused once it has. */
type KeyCaller = Caller & { expiresAt: number | null };

export interface ApiKeyRow {
  id: string;
  account_id: string;
  prefix: string;
  name: string;
  scopes: string[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_by_user_id: string | null;
  revoked_at: Date | null;
}

/** A key as the API answers it (`GET /keys`) and the audit log records it: never its secret, nor its hash. */
export function keyAnswer(key: ApiKeyView): KeyAnswer {
  const { id, name, scopes, created_at, expires_at, last_used_at } = key;
  return { id, name, scopes, created_at, expires_at, last_used_at };
}

export function toView(row: ApiKeyRow): ApiKeyView {
  const view: ApiKeyView = {
    id: row.id,
    account_id: row.account_id,
    prefix: row.prefix,
    name: row.name,
    scopes: row.scopes.filter(isScope),
    created_at: row.created_at.getTime(),
    expires_at: row.expires_at?.getTime() ?? null,
    last_used_at: row.last_used_at?.getTime() ?? null,
    created_by_user_id: row.created_by_user_id,
  };
  if (row.revoked_at) view.revoked_at = row.revoked_at.getTime();
  return view;
}
