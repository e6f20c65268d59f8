import type { CreateLinkBody, Link, LinkPage, ListLinksQuery, TagSummary, UpdateLinkBody, UpsertedLink } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { effectiveLimits } from '../accounts/plans.ts';
import { type AccountRow, type Db, inTransaction, lockAccount, plainReader, readAccount } from '../database/database.ts';
import type { UrlChecks } from '../destinations/bulk-url-checks.ts';
import type { DestinationChecker } from '../destinations/destination-checker.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { attachTags, resolveTags, setLinkTags } from '../tags/tag-resolution.ts';
import { applyExpiry, type ExpiryChange, NO_EXPIRY } from './expiry.ts';
import { insertWithSlug } from './link-insert.ts';
import { countOfMatchingLinks, pageOfMatchingLinks, withPlansForTheSearch } from './link-list-query.ts';
import { type UnfilteredPage, unfilteredPage } from './link-page-query.ts';
import { LinkReadCache } from './link-read-cache.ts';
import {
  findLiveLink,
  findLiveLinkWithTags,
  LINK_COLUMNS,
  LINK_READ_COLUMNS,
  type LinkRow,
  type LinkWithTags,
  sortedTags,
  tagsColumn,
  tagsOfLinks,
  toLink,
} from './link-reads.ts';

/** A create/upsert body after the checks that need no transaction (and must not run inside one). */
export interface PreparedLink {
  body: CreateLinkBody;
  destination: string;
  expiry: ExpiryChange;
}

/** A PATCH body after the same checks: the destination as it will be stored, if it changes. */
export interface PreparedChanges {
  body: UpdateLinkBody;
  destination: string | undefined;
  expiry: ExpiryChange;
}

/** Links: the rules of the spec's POST/GET/PATCH/DELETE /links and POST /links/upsert. */
export class LinkService {
  readonly #orm: Orm;
  readonly #destinations: DestinationChecker;
  readonly #shortDomain: string;
  readonly #changed: (slug: string) => void;
  /** Links and pages read by GET, kept while nothing of their account's links changes. */
  readonly reads: LinkReadCache;

  /**
   * `changed` hears, after commit, of every link whose redirect may have changed (by slug); `reads`
   * keeps what GET read (the server forgets it as changes are announced).
   */
  constructor(
    orm: Orm,
    destinations: DestinationChecker,
    shortDomain: string,
    changed: (slug: string) => void = () => {},
    reads = new LinkReadCache(),
  ) {
    this.#orm = orm;
    this.#destinations = destinations;
    this.#shortDomain = shortDomain;
    this.#changed = changed;
    this.reads = reads;
  }

  /**
   * Runs a write in one transaction, then tells this process at once. Every server process hears
   * of it on commit from the database's triggers (Migration20261127100000_link_slug_changes).
   */
  async #write<T extends { slug: string }>(work: (db: Db) => Promise<T>): Promise<T> {
    const result = await inTransaction(this.#orm, work);
    this.#changed(result.slug);
    return result;
  }

  async create(accountId: string, body: CreateLinkBody): Promise<Link> {
    return this.createPrepared(accountId, await this.prepare(body));
  }

  /** POST /links once its URLs are checked ({@link prepare}): a bulk call checks all its items' first. */
  async createPrepared(accountId: string, prepared: PreparedLink): Promise<Link> {
    return this.#write(async (db) => {
      const account = await lockAccount(db, accountId);
      return this.#insert(db, account, prepared, Date.now());
    });
  }

  /** Creates the link, or returns the live link with the same final destination (updated per the spec). */
  async upsert(accountId: string, body: CreateLinkBody): Promise<UpsertedLink> {
    const prepared = await this.prepare(body);
    return this.#write(async (db) => {
      const account = await lockAccount(db, accountId);
      const existing = await db
        .selectFrom('link')
        .select(LINK_COLUMNS)
        .where('link.account_id', '=', accountId)
        .where('link.deleted_at', 'is', null)
        .where((eb) => eb(eb.fn('md5', ['link.destination_url']), '=', eb.fn('md5', [eb.val(prepared.destination)])))
        .where('link.destination_url', '=', prepared.destination)
        .orderBy('link.created_at')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
      if (!existing) return { ...(await this.#insert(db, account, prepared, Date.now())), created: true };

      const { body: request } = prepared;
      const link = await this.#applyChanges(db, account, existing, {
        title: request.title,
        external_id: request.external_id,
        tag_ids: request.tag_ids,
        tag_names: request.tag_names,
        comments: request.comments,
        expiry: prepared.expiry,
      });
      return { ...link, created: false };
    });
  }

  /** GET /links/{id}: from memory while nothing of the account's links changed (link-read-cache.ts). */
  async get(accountId: string, ref: string): Promise<Link> {
    // A reference starts `lnk_` or `ext_`, never `?` as a page's key does.
    const cached = this.reads.get(accountId, ref) as Link | undefined;
    if (cached) return cached;
    const snapshot = this.reads.snapshot(accountId);
    const row = await findLiveLinkWithTags(plainReader(this.#orm), accountId, ref);
    if (!row) throw new AppError('LINK_NOT_FOUND');
    const link = toLink(row, sortedTags(row.tags), this.#shortDomain);
    this.reads.set(accountId, ref, link, snapshot);
    return link;
  }

  /**
   * GET /links: one page of the live links the filters match, in the order asked, and how many
   * match; from memory while nothing of the account's links changed (link-read-cache.ts).
   */
  async list(accountId: string, query: ListLinksQuery): Promise<LinkPage> {
    // The query as its schema parsed it: the same fields in the same order for the same page.
    const key = `?${JSON.stringify(query)}`;
    const cached = this.reads.get(accountId, key) as LinkPage | undefined;
    if (cached) return cached;
    const snapshot = this.reads.snapshot(accountId);
    const page = await this.#readPage(accountId, query);
    this.reads.set(accountId, key, page, snapshot);
    return page;
  }

  async #readPage(accountId: string, query: ListLinksQuery): Promise<LinkPage> {
    // Up to 100 links a page: read without the ORM's per-row conversion.
    const db = plainReader(this.#orm);
    if (!query.search && !query.tag_ids?.length) {
      const page = await unfilteredPage(db, accountId, query);
      if (!page) throw new AppError('UNAUTHORIZED');
      return this.#page(page.links, query, page.total, page.account);
    }
    const [account, counted, rows] = await Promise.all([
      db
        .selectFrom('account')
        .select(['plan', 'link_limit_override', 'tag_limit_override'])
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow(),
      withPlansForTheSearch(
        db,
        query,
        (db): Promise<{ total: string | number }> => countOfMatchingLinks(db, accountId, query).executeTakeFirstOrThrow(),
      ),
      withPlansForTheSearch(db, query, (db) =>
        pageOfMatchingLinks(db, accountId, query).select(LINK_READ_COLUMNS).select(tagsColumn).execute(),
      ),
    ]);
    return this.#page(rows, query, Number(counted.total), account);
  }

  #page(rows: readonly LinkWithTags[], query: ListLinksQuery, total: number, account: UnfilteredPage['account']): LinkPage {
    return {
      links: rows.map((row) => toLink(row, sortedTags(row.tags), this.#shortDomain)),
      page: query.page,
      per_page: query.per_page,
      total,
      link_limit: effectiveLimits(account).link_limit,
    };
  }

  /** PATCH: only the fields sent change (spec: PATCH /links/{id}). */
  async update(accountId: string, ref: string, body: UpdateLinkBody): Promise<Link> {
    return this.updatePrepared(accountId, ref, await this.prepareChanges(body));
  }

  /** PATCH /links/{id} once its URLs are checked ({@link prepareChanges}): a bulk call checks its one change once. */
  async updatePrepared(accountId: string, ref: string, { body, destination, expiry }: PreparedChanges): Promise<Link> {
    return this.#write(async (db) => {
      // New tags may count toward the tag limit: then the account is locked, always before the link.
      const account = body.tag_names?.length ? await lockAccount(db, accountId) : await readAccount(db, accountId);
      const row = await findLiveLink(db, accountId, ref, true);
      if (!row) throw new AppError('LINK_NOT_FOUND');
      return this.#applyChanges(db, account, row, {
        title: body.title,
        destination_url: destination,
        tag_ids: body.tag_ids,
        tag_names: body.tag_names,
        comments: body.comments,
        expiry,
      });
    });
  }

  async delete(accountId: string, ref: string): Promise<void> {
    await this.#write(async (db) => {
      // The account first, as every write that locks both does: the deletion changes its count of
      // live links (a trigger), and taking the link first could deadlock with an edit.
      await lockAccount(db, accountId);
      const row = await findLiveLink(db, accountId, ref, true);
      if (!row) throw new AppError('LINK_NOT_FOUND');
      // Deleting detaches its tags; the row stays (deleted_at) so its click history survives.
      await db.updateTable('link').set({ deleted_at: new Date() }).where('id', '=', row.id).execute();
      await db.deleteFrom('link_tag').where('link_id', '=', row.id).execute();
      return row;
    });
  }

  /**
   * The URL checks of a create body (`urls`: a bulk call's shared ones), which wait on the
   * reputation service and so are done before the transaction.
   */
  async prepare(body: CreateLinkBody, urls: UrlChecks = this.#destinations): Promise<PreparedLink> {
    const [destination, expiry] = await bothChecked(
      urls.finalDestination('destination_url', body.destination_url, body.utm),
      this.#expiryChange(urls, body.expires_at, body.expiration_url),
    );
    return { body, destination, expiry };
  }

  /** The URL checks of a PATCH body, as {@link prepare}'s. */
  async prepareChanges(body: UpdateLinkBody, urls: UrlChecks = this.#destinations): Promise<PreparedChanges> {
    const [destination, expiry] = await bothChecked(
      body.destination_url === undefined
        ? Promise.resolve(undefined)
        : urls.finalDestination('destination_url', body.destination_url, body.utm),
      this.#expiryChange(urls, body.expires_at, body.expiration_url),
    );
    return { body, destination, expiry };
  }

  /** The expiry fields of a request, with the fallback URL checked; '' means "remove", like null. */
  async #expiryChange(
    urls: UrlChecks,
    expiresAt: number | null | undefined,
    expirationUrl: string | null | undefined,
  ): Promise<ExpiryChange> {
    const change: ExpiryChange = {};
    if (expiresAt !== undefined) change.expires_at = expiresAt;
    if (expirationUrl !== undefined) {
      change.expiration_url = expirationUrl === null || expirationUrl === '' ? null : await urls.fallback(expirationUrl);
    }
    return change;
  }

  async #insert(db: Db, account: AccountRow, prepared: PreparedLink, now: number): Promise<Link> {
    const { body } = prepared;
    const expiry = applyExpiry(NO_EXPIRY, prepared.expiry, now);

    const { link_limit } = effectiveLimits(account);
    if (link_limit !== null) {
      const { count } = await db
        .selectFrom('link')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('account_id', '=', account.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(count) >= link_limit) {
        throw new AppError('LINK_LIMIT_REACHED', `The account is at its plan's limit of ${link_limit} links`);
      }
    }
    if (body.external_id !== undefined) await this.#assertExternalIdFree(db, account.id, body.external_id, undefined);
    const tags = await resolveTags(db, account, body.tag_ids, body.tag_names);

    const comments = body.comments ? body.comments : null;
    const values = {
      id: newId('lnk'),
      account_id: account.id,
      destination_url: prepared.destination,
      title: body.title,
      external_id: body.external_id ?? null,
      comments,
      expires_at: expiry.expires_at,
      expiration_url: expiry.expiration_url,
    };
    const inserted = await insertWithSlug(db, values, body.slug);
    await attachTags(db, inserted.id, tags);
    return toLink(inserted, tags, this.#shortDomain);
  }

  async #assertExternalIdFree(db: Db, accountId: string, externalId: string, exceptLinkId: string | undefined) {
    let query = db
      .selectFrom('link')
      .select('id')
      .where('account_id', '=', accountId)
      .where('external_id', '=', externalId)
      .where('deleted_at', 'is', null);
    if (exceptLinkId) query = query.where('id', '!=', exceptLinkId);
    if (await query.executeTakeFirst()) {
      throw new AppError('EXTERNAL_ID_TAKEN', undefined, 'external_id');
    }
  }

  /** Applies the update rules shared by PATCH and a matching upsert; omitted means unchanged. */
  async #applyChanges(
    db: Db,
    account: AccountRow,
    row: LinkRow,
    change: {
      title?: string | undefined;
      destination_url?: string | undefined;
      external_id?: string | undefined;
      tag_ids?: string[] | undefined;
      tag_names?: string[] | undefined;
      comments?: string | null | undefined;
      expiry: ExpiryChange;
    },
  ): Promise<Link> {
    const expiry = applyExpiry({ expires_at: row.expires_at, expiration_url: row.expiration_url }, change.expiry, Date.now());
    if (change.external_id !== undefined && change.external_id !== row.external_id) {
      await this.#assertExternalIdFree(db, account.id, change.external_id, row.id);
    }
    const replaceTags = change.tag_ids !== undefined || change.tag_names !== undefined;
    let tags: TagSummary[];
    if (replaceTags) {
      tags = await resolveTags(db, account, change.tag_ids, change.tag_names);
      await setLinkTags(db, row.id, tags);
    } else {
      tags = (await tagsOfLinks(db, [row.id])).get(row.id) ?? [];
    }
    const updated = await db
      .updateTable('link')
      .set({
        title: change.title ?? row.title,
        destination_url: change.destination_url ?? row.destination_url,
        external_id: change.external_id ?? row.external_id,
        comments: change.comments === undefined ? row.comments : change.comments || null,
        expires_at: expiry.expires_at,
        expiration_url: expiry.expiration_url,
        updated_at: new Date(),
      })
      .where('id', '=', row.id)
      .returning(LINK_COLUMNS.map((column) => column.replace('link.', '') as 'id'))
      .executeTakeFirstOrThrow();
    return toLink(updated as unknown as LinkRow, tags, this.#shortDomain);
  }
}

/**
 * The destination's and the fallback's checks, run at once so a request waits on the reputation
 * service once, not twice; when both are refused, the destination's refusal is the answer, as
 * when they ran one after the other.
 */
async function bothChecked<D, E>(destination: Promise<D>, expiry: Promise<E>): Promise<[D, E]> {
  const [checkedDestination, checkedExpiry] = await Promise.allSettled([destination, expiry]);
  if (checkedDestination.status === 'rejected') throw checkedDestination.reason;
  if (checkedExpiry.status === 'rejected') throw checkedExpiry.reason;
  return [checkedDestination.value, checkedExpiry.value];
}
