import { type CompiledQuery, sql } from 'kysely';
import { filledIn } from '../database/compiled-query.ts';
import { type AccountRow, accountColumns, type Db } from '../database/database.ts';
import type { LinkDomainId } from '../domains/link-domains.ts';
import { AppError } from '../errors.ts';
import { newId, randomSlug } from '../ids.ts';
import type { ExpiryState } from './expiry.ts';
import type { NewLink } from './link-changes.ts';
import { LINK_FIELDS, type LinkRow } from './link-reads.ts';
import { changedSmartFields, NO_SMART_FIELDS } from './smart-link-fields.ts';

/** The columns of `link_slug_live_key`: a slug is unique among the live links of one domain. */
const LIVE_SLUG_PER_DOMAIN = sql`(coalesce(domain_id, '')), slug`;

/** A new link's row as it is inserted, but for its slug. */
export type NewLinkValues = Omit<LinkRow, 'slug' | 'click_count' | 'created_at'> & {
  account_id: string;
  created_at?: Date | undefined;
  /** The branded domain; none: the server's own (docs/domains.md). */
  domain_id?: string | null;
};

/** The row a new link is inserted as, on `domainId`, with its expiry as `newExpiry` checked it. */
export function newLinkValues(accountId: string, link: NewLink, domainId: LinkDomainId, expiry: ExpiryState): NewLinkValues {
  return {
    id: newId('lnk'),
    account_id: accountId,
    domain_id: domainId,
    destination_url: link.destination_url,
    title: link.title,
    external_id: link.external_id ?? null,
    comments: link.comments,
    expires_at: expiry.expires_at,
    expiration_url: expiry.expiration_url,
    ...changedSmartFields(NO_SMART_FIELDS, link.smart),
    ...(link.created_at ? { created_at: link.created_at } : {}),
  };
}

/**
 * Inserts the link under the requested slug, or under a fresh random one, for the API's creates
 * and the import alike. `on conflict do nothing` against the live-slug index keeps the transaction
 * usable when the slug is taken, even by a concurrent request of another account: a requested slug
 * is then SLUG_TAKEN, a random one is drawn again.
 */
export async function insertWithSlug(db: Db, values: NewLinkValues, requested: string | undefined): Promise<LinkRow> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const slug = requested ?? randomSlug();
    const row = await db
      .insertInto('link')
      .values({ ...values, slug })
      .onConflict((conflict) => conflict.expression(LIVE_SLUG_PER_DOMAIN).where('deleted_at', 'is', null).doNothing())
      .returning(LINK_FIELDS)
      .executeTakeFirst();
    if (row) return row;
    if (requested !== undefined) throw new AppError('SLUG_TAKEN', `The slug "${requested}" is already in use`, 'slug');
  }
  throw new AppError('INTERNAL_ERROR', 'Could not find a free random slug');
}

/** A link inserted by {@link insertLockingAccount}, with its account's row as the lock read it. */
export interface LinkInsertedFirst {
  account: AccountRow;
  link: LinkRow;
}

/** Stand-ins for a create's values in the statement of {@link insertLockingAccount}, compiled once. */
const STAND_IN = {
  id: '\u0000id',
  account_id: '\u0000account',
  domain_id: '\u0000domain',
  slug: '\u0000slug',
  destination_url: '\u0000destination',
  title: '\u0000title',
  comments: '\u0000comments',
  expires_at: '\u0000expires',
  expiration_url: '\u0000fallback',
} as const;

/** The timestamps of the row, which `pg` as the ORM sets it up gives as text: returned as Unix ms instead. */
const TIMESTAMPS = ['created_at', 'expires_at'] as const;
type Timestamp = (typeof TIMESTAMPS)[number];

/** The row as the plain statement returns it. */
type InsertedLocked = Omit<LinkRow, Timestamp | 'click_count'> & {
  created_at: number;
  expires_at: number | null;
  click_count: string;
  locked_account: AccountRow;
};

let insertingLocked: CompiledQuery<InsertedLocked> | undefined;

/**
 * The statement of {@link insertLockingAccount}, built once without the ORM's value conversion:
 * building it with Kysely and converting its row by the entities' metadata cost more than the rest
 * of a create's work in the process (docs/performance.md, "Creates"). Its values are plain (text,
 * a timestamp, nulls); of its row, the timestamps are read as Unix ms and the bigint click count
 * (text from `pg`) as a number, as the ORM would give them.
 */
function insertingLockedStatement(db: Db) {
  insertingLocked ??= db
    .withoutPlugins()
    .with('locked', (qb) => qb.selectFrom('account').select(accountColumns).where('id', '=', STAND_IN.account_id).forUpdate())
    .insertInto('link')
    // The expiry's stand-in is text where a timestamp goes: only its place in the parameters matters.
    .values({ ...STAND_IN, expires_at: STAND_IN.expires_at as unknown as Date, external_id: null })
    .onConflict((conflict) => conflict.expression(LIVE_SLUG_PER_DOMAIN).where('deleted_at', 'is', null).doNothing())
    .returning(
      LINK_FIELDS.filter((field) => !TIMESTAMPS.includes(field as Timestamp)) as Exclude<(typeof LINK_FIELDS)[number], Timestamp>[],
    )
    .returning(TIMESTAMPS.map((field) => sql<number>`floor(extract(epoch from ${sql.ref(`link.${field}`)}) * 1000)::float8`.as(field)))
    .returning(sql<AccountRow>`(select row_to_json(locked) from locked)`.as('locked_account'))
    .compile() as CompiledQuery<InsertedLocked>;
  return insertingLocked;
}

/**
 * Whether a new link's row can be the first statement of its create ({@link insertLockingAccount}):
 * no smart field (their values need the ORM's conversion) and no date of its own (an import's).
 */
export function insertsFirst(values: NewLinkValues): boolean {
  return (
    values.external_id === null &&
    values.created_at === undefined &&
    values.password_hash === null &&
    values.max_clicks === null &&
    values.rules === null &&
    values.preview === null
  );
}

/**
 * The first statement of a plain create (docs/performance.md, "Creates"): the link inserted under a
 * random slug and the account's row locked and read, in one round trip instead of two. The lock is
 * the same `for update` as `lockAccount`'s, taken as the statement returns the row, so everything
 * after it runs under the lock as before; the link's limit is then checked against the live links
 * the lock read (without this link, whose count the triggers add at the statement's end), and a
 * refusal rolls the link back with the transaction. Undefined when the random slug was taken
 * (nothing inserted, nothing locked): the caller goes the usual way.
 *
 * Only for a link that needs nothing read before its insert ({@link insertsFirst}, and the caller
 * checks the rest): a random slug (a requested one could wait on another transaction's insert of
 * it while that one waits for this account), on a domain known without a query, with no external
 * id and no tags.
 */
export async function insertLockingAccount(db: Db, values: NewLinkValues): Promise<LinkInsertedFirst | undefined> {
  const { rows } = await db.withoutPlugins().executeQuery(
    filledIn(insertingLockedStatement(db), [
      [STAND_IN.id, values.id],
      [STAND_IN.account_id, values.account_id],
      [STAND_IN.domain_id, values.domain_id ?? null],
      [STAND_IN.slug, randomSlug()],
      [STAND_IN.destination_url, values.destination_url],
      [STAND_IN.title, values.title],
      [STAND_IN.comments, values.comments],
      [STAND_IN.expires_at, values.expires_at],
      [STAND_IN.expiration_url, values.expiration_url],
    ]),
  );
  const row = rows[0];
  if (!row) return undefined;
  const { locked_account: account, click_count, created_at, expires_at, ...link } = row;
  return {
    account,
    link: {
      ...link,
      click_count: Number(click_count),
      created_at: new Date(created_at),
      expires_at: expires_at === null ? null : new Date(expires_at),
    },
  };
}
