import { LONE_SURROGATE } from '@shortlinks/contract';
import type { Database, Orm } from '@shortlinks/db';
import { violatedUniqueIndex } from '@shortlinks/db';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.ts';

export type Db = Kysely<Database>;

/** Values come back as the entities declare them (timestamps as Date, bigint counters as number). */
const KYSELY_OPTIONS = { convertValues: true } as const;

/** Which 409 a unique index stands for, when a concurrent request won a race the pre-checks could not see. */
const CONFLICT_BY_INDEX: Record<string, AppError> = {
  link_slug_live_key: new AppError('SLUG_TAKEN', undefined, 'slug'),
  link_external_id_live_key: new AppError('EXTERNAL_ID_TAKEN', undefined, 'external_id'),
  tag_account_name_key: new AppError('TAG_NAME_TAKEN', undefined, 'name'),
  domain_verified_name_key: new AppError('DOMAIN_TAKEN', undefined, 'name'),
  domain_account_name_key: new AppError('DOMAIN_TAKEN', 'The workspace has already added that domain', 'name'),
  app_user_email_key: new AppError('EMAIL_TAKEN', undefined, 'email'),
};

/**
 * Whether a text can be in PostgreSQL as it is: text values cannot hold NUL, and half a surrogate
 * pair has no UTF-8 form (the driver would send U+FFFD in its place, which another text may hold).
 * An id that cannot be stored names no row; sending it in a query would be an error (NUL) or a
 * match of some other row.
 */
export const storable = (text: string): boolean => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/**
 * Runs `work` in one transaction: on any error nothing it wrote is kept.
 *
 * A Kysely transaction on the process's one query builder, rather than `em.transactional()` or
 * `em.commit()`: both run code inside an AsyncLocalStorage, and on Node 22 the first such run
 * switches on async hooks for every promise of the process, for good. That cost each redirect
 * about a tenth of its CPU (docs/performance.md).
 */
export async function inTransaction<T>(orm: Orm, work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await reader(orm).transaction().execute(work);
  } catch (error) {
    throw asConflict(error);
  }
}

/** A unique-index violation as the 409 it stands for; anything else unchanged. */
function asConflict(error: unknown): unknown {
  const index = violatedUniqueIndex(error);
  const conflict = index ? CONFLICT_BY_INDEX[index] : undefined;
  return conflict ? new AppError(conflict.code, conflict.message, conflict.field) : error;
}

/*
 * Every service reaches PostgreSQL through the two handles below (and `inTransaction` for writes
 * that take several statements), never through `em.fork().getKysely()`. A fork's query builder is
 * the pool's client, the same one these hand out; a fork only keeps the work outside a
 * transaction of the entity manager, and no code here opens one (see `inTransaction`), so the fork
 * bought nothing but its cost: a tenth of a read, and with value conversion a plugin made per call.
 *
 * Two handles, not one: they differ in what comes back. `reader` converts values as the entities
 * declare them, which every service except the hottest paths relies on; `plainReader` converts
 * nothing, at a fraction of the cost, for the reads and writes that select or send plain values
 * (docs/performance.md). Both are made once per ORM.
 */

/** The query builder of each ORM, made once: a fork of the entity manager per call cost a tenth of a read. */
const builders = new WeakMap<Orm, Db>();

/**
 * The query builder for work that needs no transaction, on the ORM's pool, with values converted
 * as the entities declare them (timestamps as Date, bigint counters as number). Queries go to the
 * pool directly: nothing here uses the entity manager's identity map or unit of work, so no fork
 * is made.
 */
export function reader(orm: Orm): Db {
  let db = builders.get(orm);
  if (db === undefined) {
    db = orm.em.getKysely<Database>(KYSELY_OPTIONS);
    builders.set(orm, db);
  }
  return db;
}

/** The plain query builder of each ORM (see {@link plainReader}). */
const plainBuilders = new WeakMap<Orm, Db>();

/**
 * The query builder without the ORM's value conversion, on the ORM's pool, for the hottest reads:
 * their rows come as `pg` gives them (timestamps as text, so such reads select them as Unix ms),
 * at a fraction of the cost of converting every row by the entities' metadata
 * (docs/performance.md). Also the click recorder's, whose statements are single statements in
 * raw SQL (a batch of clicks, the salts, the housekeeping): nothing in them to convert.
 */
export function plainReader(orm: Orm): Db {
  let db = plainBuilders.get(orm);
  if (db === undefined) {
    db = orm.em.getConnection().getClient<Database>();
    plainBuilders.set(orm, db);
  }
  return db;
}

/** The account row, locked until the transaction ends: serialises everything that counts toward a limit. */
export async function lockAccount(db: Db, accountId: string): Promise<AccountRow> {
  return accountQuery(db, accountId).forUpdate().executeTakeFirstOrThrow();
}

/** The account row without a lock, for work that cannot change what counts toward a limit. */
export async function readAccount(db: Db, accountId: string): Promise<AccountRow> {
  return accountQuery(db, accountId).executeTakeFirstOrThrow();
}

/** The columns of {@link AccountRow}, for a statement that locks the account as part of its work (link-insert.ts). */
export const accountColumns = [
  'id',
  'plan',
  'link_limit_override',
  'tag_limit_override',
  'color_cursor',
  'live_link_count',
  'webhook_generation',
] as const;

function accountQuery(db: Db, accountId: string) {
  return db.selectFrom('account').select(accountColumns).where('id', '=', accountId);
}

/**
 * What the limits (with the live links its triggers count) and the tag colour rotation read of an
 * account, and its webhook generation, by which the webhooks' outbox knows without a query that
 * the account has no enabled webhook (webhook-outbox.ts).
 */
export type AccountRow = Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirstOrThrow']>>;
