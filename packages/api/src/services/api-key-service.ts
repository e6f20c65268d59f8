import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Plan } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { newId } from '../domain/ids.ts';
import { AppError } from '../errors.ts';
import { inTransaction, reader, storable } from './database.ts';

/** Recognisable prefix of every secret, so leaked keys can be found by secret scanners. */
export const API_KEY_PREFIX = 'slk_';

export interface ApiKeyView {
  id: string;
  account_id: string;
  /** The first characters of the secret, to tell keys apart. */
  prefix: string;
  created_at: number;
  revoked_at?: number;
}

export interface Caller {
  accountId: string;
  keyId: string;
  /** The account's plan, which sets the key's rate limit unless the operator set the account's own. */
  plan: Plan;
  /** The account's own API rate limit (requests per minute per key; 0: none), or null to follow the plan. */
  rateLimit: number | null;
}

/** Characters of the secret stored in clear (`slk_` + 8): enough to find the key, far too few to guess the rest. */
const STORED_PREFIX_CHARS = 12;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether a secret is the one a stored hash was made of, taking the same time whatever the answer. */
function secretMatches(secret: string, storedHash: string): boolean {
  const stored = Buffer.from(storedHash, 'hex');
  const sent = createHash('sha256').update(secret).digest();
  return stored.length === sent.length && timingSafeEqual(stored, sent);
}

/**
 * API keys: 256 random bits, shown once; only their SHA-256 is stored (a fast hash is enough for
 * secrets of that strength). A key is found by its non-secret prefix, and its hash compared in
 * constant time, so response times say nothing about the secret part.
 */
export class ApiKeyService {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
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

  /** Revokes a key; false when there is no such live key. */
  async revoke(keyId: string): Promise<boolean> {
    const result = await inTransaction(this.#orm, (db) =>
      db.updateTable('api_key').set({ revoked_at: new Date() }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
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

  /** The caller a bearer secret identifies, or undefined for a missing, unknown or revoked key. */
  async authenticate(secret: string | undefined): Promise<Caller | undefined> {
    if (!secret?.startsWith(API_KEY_PREFIX) || secret.length > 200 || !storable(secret)) return undefined;
    const candidates = await reader(this.#orm)
      .selectFrom('api_key')
      .innerJoin('account', 'account.id', 'api_key.account_id')
      .select(['api_key.id', 'api_key.account_id', 'api_key.secret_hash', 'account.plan', 'account.api_rate_limit'])
      .where('api_key.prefix', '=', secret.slice(0, STORED_PREFIX_CHARS))
      .where('api_key.revoked_at', 'is', null)
      .execute();
    const row = candidates.find((candidate) => secretMatches(secret, candidate.secret_hash));
    return row ? { accountId: row.account_id, keyId: row.id, plan: row.plan as Plan, rateLimit: row.api_rate_limit } : undefined;
  }
}

function toView(row: { id: string; account_id: string; prefix: string; created_at: Date; revoked_at: Date | null }): ApiKeyView {
  const view: ApiKeyView = { id: row.id, account_id: row.account_id, prefix: row.prefix, created_at: row.created_at.getTime() };
  if (row.revoked_at) view.revoked_at = row.revoked_at.getTime();
  return view;
}
