import type { CreateLinkBody, Link, LinkPage, ListLinksQuery, UpdateLinkBody, UpsertedLink } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { effectiveLimits } from '../accounts/plans.ts';
import { inTransaction, lockAccount, plainReader, readAccount } from '../database/database.ts';
import type { UrlChecks } from '../destinations/bulk-url-checks.ts';
import { checkedInOrder } from '../destinations/checked-in-order.ts';
import type { DestinationChecker } from '../destinations/destination-checker.ts';
import type { LinkDomains } from '../domains/link-domains.ts';
import type { ShortUrls } from '../domains/short-urls.ts';
import { AppError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import type { ExpiryChange } from './expiry.ts';
import { type NewLink, newExpiry, type TaggedLink } from './link-changes.ts';
import { insertLockingAccount, insertsFirst, type LinkInsertedFirst, type NewLinkValues, newLinkValues } from './link-insert.ts';
import { countOfMatchingLinks, pageOfMatchingLinks, withPlansForTheSearch } from './link-list-query.ts';
import { type UnfilteredPage, unfilteredPage } from './link-page-query.ts';
import { LinkReadCache } from './link-read-cache.ts';
import { findLiveLinkWithTags, LINK_READ_COLUMNS, type LinkWithTags, sortedTags, tagsColumn, toLink } from './link-reads.ts';
import { LinkWrites } from './link-writes.ts';
import { preparedSmartChange, type SmartChange } from './smart-link-fields.ts';

/** A create/upsert body after the checks that need no transaction (and must not run inside one). */
export interface PreparedLink {
  body: CreateLinkBody;
  destination: string;
  expiry: ExpiryChange;
  /** The smart fields (smart-link-fields.ts): rules and preview checked, the password hashed. */
  smart: SmartChange;
}

/** A PATCH body after the same checks: the destination as it will be stored, if it changes. */
export interface PreparedChanges {
  body: UpdateLinkBody;
  destination: string | undefined;
  expiry: ExpiryChange;
  smart: SmartChange;
}

/** Links: the rules of the spec's POST/GET/PATCH/DELETE /links and POST /links/upsert. */
export class LinkService {
  readonly #orm: Orm;
  readonly #destinations: DestinationChecker;
  readonly #urls: ShortUrls;
  readonly #domains: LinkDomains | undefined;
  readonly #changed: (slug: string) => void;
  readonly #changes: Changes;
  /** Links and pages read by GET, kept while nothing of their account's links changes. */
  readonly reads: LinkReadCache;

  /**
   * `changed` hears, after commit, of every link whose redirect may have changed (by slug); `reads`
   * keeps what GET read (the server forgets it as changes are announced).
   */
  constructor(
    orm: Orm,
    destinations: DestinationChecker,
    urls: ShortUrls,
    changed: (slug: string) => void = () => {},
    reads = new LinkReadCache(),
    domains?: LinkDomains,
    changes = new Changes(),
  ) {
    this.#changes = changes;
    this.#orm = orm;
    this.#destinations = destinations;
    this.#urls = urls;
    this.#domains = domains;
    this.#changed = changed;
    this.reads = reads;
  }

  /**
   * Runs link writes in one transaction, the account locked (`lock`) or only read, then tells this
   * process at once of the slugs whose redirect changed. Every server process hears of them on
   * commit from the database's triggers (Migration20261127100000_link_slug_changes), whoever wrote.
   */
  async #writing<T>(
    accountId: string,
    lock: boolean,
    work: (writes: LinkWrites, first?: LinkInsertedFirst) => Promise<T>,
    mayCreateTags = true,
    insertFirst?: NewLinkValues,
  ): Promise<T> {
    const { result, slugs } = await inTransaction(this.#orm, async (db) => {
      // A plain create inserts its link as it locks the account: a round trip less under the lock (link-insert.ts).
      const first = insertFirst && (await insertLockingAccount(db, insertFirst));
      const account = first ? first.account : lock ? await lockAccount(db, accountId) : await readAccount(db, accountId);
      const log = await this.#changes.open(db, accountId, account);
      const writes = new LinkWrites(db, account, this.#domains, log.wants(), mayCreateTags);
      const result = await work(writes, first);
      await writes.finish();
      // What changed, in this transaction (events/change-log.ts): one record per link, bulk or import.
      for (const change of writes.changes) {
        if (change.type === 'tag.created') log.add(change.type, { ...change.tag, link_count: 0 });
        else log.add(change.type, this.#link(change.link), change.type === 'link.updated' ? this.#link(change.before) : undefined);
      }
      await log.flush();
      return { result, slugs: writes.slugs };
    });
    for (const slug of slugs) this.#changed(slug);
    return result;
  }

  /**
   * Many writes in one transaction with the account locked, as POST /links locks it: an import's
   * batch of rows. A failure thrown out of `work` undoes the whole batch; one caught inside it
   * undoes nothing, since every write is checked completely before it writes (link-writes.ts).
   */
  writeBatch<T>(accountId: string, work: (writes: LinkWrites) => Promise<T>, mayCreateTags = true): Promise<T> {
    return this.#writing(accountId, true, work, mayCreateTags);
  }

  /** `mayCreateTags`, in every write below: false for a key without `tags.write` (link-writes.ts). */
  async create(accountId: string, body: CreateLinkBody, mayCreateTags = true): Promise<Link> {
    return this.createPrepared(accountId, await this.prepare(body), mayCreateTags);
  }

  /** POST /links once its URLs are checked ({@link prepare}): a bulk call checks all its items' first. */
  async createPrepared(accountId: string, prepared: PreparedLink, mayCreateTags = true): Promise<Link> {
    const link = newLinkOf(prepared);
    const now = Date.now();
    return this.#writing(
      accountId,
      true,
      async (writes, first) => this.#link(await writes.create(link, now, first?.link)),
      mayCreateTags,
      this.#insertedFirst(accountId, link, now),
    );
  }

  /**
   * The row of a link that needs nothing read before its insert (link-insert.ts,
   * insertLockingAccount): a random slug, no external id, no tags, a domain known without a query.
   */
  #insertedFirst(accountId: string, link: NewLink, now: number): NewLinkValues | undefined {
    if (link.slug !== undefined || link.external_id !== undefined || link.tag_ids?.length || link.tag_names?.length) return undefined;
    const domainId = this.#domains ? this.#domains.knownForNewLink(accountId, link.domain) : null;
    if (domainId === undefined) return undefined;
    const values = newLinkValues(accountId, link, domainId, newExpiry(link, now));
    return insertsFirst(values) ? values : undefined;
  }

  /** Creates the link, or returns the live link with the same final destination (updated per the spec). */
  async upsert(accountId: string, body: CreateLinkBody, mayCreateTags = true): Promise<UpsertedLink> {
    const prepared = await this.prepare(body);
    return this.#writing(
      accountId,
      true,
      async (writes) => {
        const existing = await writes.oldestLiveLinkTo(prepared.destination);
        if (!existing) return { ...this.#link(await writes.create(newLinkOf(prepared))), created: true };
        const { body: request } = prepared;
        const link = await writes.update(existing, {
          title: request.title,
          external_id: request.external_id,
          tag_ids: request.tag_ids,
          tag_names: request.tag_names,
          comments: request.comments,
          expiry: prepared.expiry,
          smart: prepared.smart,
        });
        return { ...this.#link(link), created: false };
      },
      mayCreateTags,
    );
  }

  /** GET /links/{id}: from memory while nothing of the account's links changed (link-read-cache.ts). */
  async get(accountId: string, ref: string): Promise<Link> {
    // A reference starts `lnk_` or `ext_`, never `?` as a page's key does.
    const cached = this.reads.get(accountId, ref) as Link | undefined;
    if (cached) return cached;
    const snapshot = this.reads.snapshot(accountId);
    const row = await findLiveLinkWithTags(plainReader(this.#orm), accountId, ref);
    if (!row) throw new AppError('LINK_NOT_FOUND');
    await this.#urls.ensure([row]);
    const link = toLink(row, sortedTags(row.tags), this.#urls);
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
    const domainKey = query.domain === undefined ? undefined : await this.#domainFilter(accountId, query.domain);
    if (!query.search && !query.tag_ids?.length && domainKey === undefined) {
      const page = await unfilteredPage(db, accountId, query);
      if (!page) throw new AppError('UNAUTHORIZED');
      await this.#urls.ensure(page.links);
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
        (db): Promise<{ total: string | number }> => countOfMatchingLinks(db, accountId, query, domainKey).executeTakeFirstOrThrow(),
      ),
      withPlansForTheSearch(db, query, (db) =>
        pageOfMatchingLinks(db, accountId, query, domainKey).select(LINK_READ_COLUMNS).select(tagsColumn).execute(),
      ),
    ]);
    await this.#urls.ensure(rows);
    return this.#page(rows, query, Number(counted.total), account);
  }

  /** The list's `domain` filter as `coalesce(domain_id, '')` holds it (link-domains.ts). */
  #domainFilter(accountId: string, domain: string): Promise<string> {
    if (!this.#domains) return Promise.resolve('');
    return this.#domains.filterKey(plainReader(this.#orm), accountId, domain);
  }

  #page(rows: readonly LinkWithTags[], query: ListLinksQuery, total: number, account: UnfilteredPage['account']): LinkPage {
    return {
      links: rows.map((row) => toLink(row, sortedTags(row.tags), this.#urls)),
      page: query.page,
      per_page: query.per_page,
      total,
      link_limit: effectiveLimits(account).link_limit,
    };
  }

  /** PATCH: only the fields sent change (spec: PATCH /links/{id}). */
  async update(accountId: string, ref: string, body: UpdateLinkBody, mayCreateTags = true): Promise<Link> {
    return this.updatePrepared(accountId, ref, await this.prepareChanges(body), mayCreateTags);
  }

  /** PATCH /links/{id} once its URLs are checked ({@link prepareChanges}): a bulk call checks its one change once. */
  async updatePrepared(
    accountId: string,
    ref: string,
    { body, destination, expiry, smart }: PreparedChanges,
    mayCreateTags = true,
  ): Promise<Link> {
    // New tags may count toward the tag limit: then the account is locked, always before the link.
    return this.#writing(
      accountId,
      Boolean(body.tag_names?.length),
      async (writes) => {
        const row = await writes.liveLink(ref);
        if (!row) throw new AppError('LINK_NOT_FOUND');
        const link = await writes.update(row, {
          title: body.title,
          destination_url: destination,
          tag_ids: body.tag_ids,
          tag_names: body.tag_names,
          comments: body.comments,
          expiry,
          smart,
        });
        return this.#link(link);
      },
      mayCreateTags,
    );
  }

  async delete(accountId: string, ref: string): Promise<void> {
    // The account first, as every write that locks both does: the deletion changes its count of
    // live links (a trigger), and taking the link first could deadlock with an edit.
    await this.#writing(accountId, true, async (writes) => {
      const row = await writes.liveLink(ref);
      if (!row) throw new AppError('LINK_NOT_FOUND');
      await writes.delete(row);
    });
  }

  /**
   * The URL checks of a create body (`urls`: a bulk call's shared ones), which wait on the
   * reputation service and so are done before the transaction.
   */
  async prepare(body: CreateLinkBody, urls: UrlChecks = this.#destinations): Promise<PreparedLink> {
    const checked = checkedInOrder<[string, ExpiryChange]>([
      urls.finalDestination('destination_url', body.destination_url, body.utm),
      this.#expiryChange(urls, body.expires_at, body.expiration_url),
    ]);
    // Every URL of the body asked together (bulk-url-checks.ts counts on it); the first refused, in order, answers.
    const [[destination, expiry], smart] = await checkedInOrder<[[string, ExpiryChange], SmartChange]>([
      checked,
      preparedSmartChange(body, urls, checked),
    ]);
    return { body, destination, expiry, smart };
  }

  /** The URL checks of a PATCH body, as {@link prepare}'s. */
  async prepareChanges(body: UpdateLinkBody, urls: UrlChecks = this.#destinations): Promise<PreparedChanges> {
    const checked = checkedInOrder<[string | undefined, ExpiryChange]>([
      body.destination_url === undefined
        ? Promise.resolve(undefined)
        : urls.finalDestination('destination_url', body.destination_url, body.utm),
      this.#expiryChange(urls, body.expires_at, body.expiration_url),
    ]);
    const [[destination, expiry], smart] = await checkedInOrder<[[string | undefined, ExpiryChange], SmartChange]>([
      checked,
      preparedSmartChange(body, urls, checked),
    ]);
    return { body, destination, expiry, smart };
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

  #link(link: TaggedLink): Link {
    return toLink(link, link.tags, this.#urls);
  }
}

/** The link a create or upsert body makes, its URLs checked. */
function newLinkOf({ body, destination, expiry, smart }: PreparedLink) {
  return {
    slug: body.slug,
    domain: body.domain,
    destination_url: destination,
    title: body.title,
    external_id: body.external_id,
    comments: body.comments ? body.comments : null,
    expiry,
    tag_ids: body.tag_ids,
    tag_names: body.tag_names,
    smart,
  };
}
