import { createHash } from 'node:crypto';
import type { TagSummary } from '@shortlinks/contract';
import { effectiveLimits } from '../accounts/plans.ts';
import type { AccountRow, Db } from '../database/database.ts';
import type { LinkDomainId, LinkDomains } from '../domains/link-domains.ts';
import { AppError } from '../errors.ts';
import { startCounting, stopCounting } from '../redirects/click-limit.ts';
import { redirectKey } from '../redirects/redirect-key.ts';
import { byName, createTags, findTags, setLinkTags } from '../tags/tag-resolution.ts';
import { changedFields, keepsTags, type LinkChange, type NewLink, newExpiry, type TaggedLink } from './link-changes.ts';
import { insertWithSlug, newLinkValues } from './link-insert.ts';
import { findLiveLink, LINK_COLUMNS, LINK_FIELDS, type LinkRow, sortedTags, tagsColumn, tagsOfLinks } from './link-reads.ts';

/**
 * What a transaction of link writes changed, for the change log (events/change-log.ts): the
 * caller turns each into its record, the object as the API returns it.
 */
export type LinkWriteChange =
  | { type: 'link.created' | 'link.deleted'; link: TaggedLink }
  /** `before`: the link as it was, with its tags, for the audit log's changes (audit/audit-changes.ts). */
  | { type: 'link.updated'; link: TaggedLink; before: TaggedLink }
  | { type: 'tag.created'; tag: TagSummary };

/** The live links a batch names: by slug, by external id, and (rows with neither) by final destination. */
export interface LinkNames {
  slugs: ReadonlySet<string>;
  externalIds: ReadonlySet<string>;
  destinations: ReadonlySet<string>;
}

/**
 * Every write to an account's links, in one transaction: POST, PATCH, DELETE and upsert (one write
 * each), the bulk calls (one transaction per item) and the import (a batch of rows). The rules that
 * need the database live here once: the link limit, a free external id, the tags (found, limited,
 * created), the slug. The caller (LinkService) opens the transaction, locks the account as `account`
 * says, calls {@link finish} before commit and announces {@link slugs} after it.
 *
 * Creating, and anything that may create tags, needs the account locked (`lockAccount`): the
 * account's live links are then counted once, from the count its triggers keep
 * (`account.live_link_count`), and followed here.
 */
export class LinkWrites {
  readonly #db: Db;
  readonly #account: AccountRow;
  readonly #linkLimit: number | null;
  #liveLinks: number;
  /** Tags found or created in this transaction, by name ignoring case: locked (FOR KEY SHARE) or new until it ends. */
  readonly #tagsByName = new Map<string, TagSummary>();
  /**
   * The live link holding each external id this transaction knows of (undefined: none): the ones
   * {@link liveLinksNamed} looked up and the ones it wrote. The account's lock keeps it true.
   */
  readonly #externalIds = new Map<string, string | undefined>();
  /** The tags of the links created here, written in one statement by {@link finish}: a round trip less per link. */
  readonly #newLinkTags = new Map<string, TagSummary[]>();
  /** The slugs whose redirect this transaction changed, as the redirect cache keys them (redirect-key.ts). */
  readonly slugs = new Set<string>();
  readonly #domains: LinkDomains | undefined;
  /** The domains this transaction read, by name as sent ('' for the default). */
  readonly #domainIds = new Map<string, LinkDomainId>();
  /** What this transaction changed, in order, when {@link #recording} (see {@link LinkWriteChange}). */
  readonly changes: LinkWriteChange[] = [];
  /**
   * Whether someone listens to the changes (always, now that the audit log is on): a deleted
   * link's tags are then read before they go, and an update's tags before it replaces them.
   */
  readonly #recording: boolean;

  /**
   * Whether tags named in `tag_names` that do not exist yet may be created: not for an API key
   * without `tags.write`, which may still attach existing ones (docs/accounts.md, "Keys and scopes").
   */
  readonly #mayCreateTags: boolean;

  constructor(db: Db, account: AccountRow, domains?: LinkDomains, recording = false, mayCreateTags = true) {
    this.#db = db;
    this.#mayCreateTags = mayCreateTags;
    this.#recording = recording;
    this.#account = account;
    this.#domains = domains;
    this.#linkLimit = effectiveLimits(account).link_limit;
    this.#liveLinks = Number(account.live_link_count);
  }

  /**
   * Creates the link (spec: POST /links); the account must be locked. `insertedFirst`: its row,
   * inserted as the lock was taken (link-insert.ts, insertLockingAccount) since it needed nothing
   * read before; every check runs here all the same, and a refusal undoes it with the transaction.
   */
  async create(link: NewLink, now = Date.now(), insertedFirst?: LinkRow): Promise<TaggedLink> {
    const expiry = newExpiry(link, now);
    if (this.#linkLimit !== null && this.#liveLinks >= this.#linkLimit) {
      throw new AppError('LINK_LIMIT_REACHED', `The account is at its plan's limit of ${this.#linkLimit} links`);
    }
    if (link.external_id !== undefined) await this.#assertExternalIdFree(link.external_id, undefined);
    const domainId =
      link.domainId !== undefined
        ? link.domainId
        : this.#domains
          ? await this.#domains.forNewLink(this.#db, this.#account.id, link.domain, this.#domainIds)
          : null;
    const tags = await this.#findTags(link.tag_ids, link.tag_names);
    // The link before any new tag: a slug taken (by another account) is refused having created none,
    // so a batch goes on without that row's tags.
    const inserted = insertedFirst ?? (await insertWithSlug(this.#db, newLinkValues(this.#account.id, link, domainId, expiry), link.slug));
    this.#liveLinks++;
    if (inserted.max_clicks !== null) await startCounting(this.#db, inserted.id, 0);
    const carried = await this.#created(tags);
    if (carried.length > 0) this.#newLinkTags.set(inserted.id, carried);
    if (inserted.external_id !== null) this.#externalIds.set(inserted.external_id, inserted.id);
    this.slugs.add(redirectKey(inserted.domain_id, inserted.slug));
    const created = { ...inserted, tags: carried };
    if (this.#recording) this.changes.push({ type: 'link.created', link: created });
    return created;
  }

  /**
   * Applies the change to the link, locked by the caller (spec: PATCH /links/{id}). `link.tags`,
   * when the caller read them, spares reading them again, and rewriting the same ones.
   */
  async update(link: LinkRow & { tags?: TagSummary[] }, change: LinkChange, now = Date.now()): Promise<TaggedLink> {
    const next = changedFields(link, change, now);
    if (change.external_id !== undefined && change.external_id !== link.external_id) {
      await this.#assertExternalIdFree(change.external_id, link.id);
    }
    const pending = this.#newLinkTags.get(link.id);
    const touchesTags = change.tag_ids !== undefined || change.tag_names !== undefined;
    // The tags before the change, which the change log records: read here only when the change may
    // replace them and the caller did not read them; they also spare rewriting the same tags.
    let current = pending ?? link.tags;
    if (current === undefined && touchesTags && this.#recording) current = (await tagsOfLinks(this.#db, [link.id])).get(link.id) ?? [];
    let tags: TagSummary[];
    if (touchesTags && !(current && keepsTags(current, change))) {
      tags = await this.#created(await this.#findTags(change.tag_ids, change.tag_names));
      this.#newLinkTags.delete(link.id);
      await setLinkTags(this.#db, link.id, tags);
    } else {
      tags = current ?? (await tagsOfLinks(this.#db, [link.id])).get(link.id) ?? [];
    }
    const updated = await this.#db
      .updateTable('link')
      .set({ ...next, updated_at: new Date() })
      .where('id', '=', link.id)
      .returning(LINK_FIELDS)
      .executeTakeFirstOrThrow();
    if (updated.max_clicks === null ? link.max_clicks !== null : link.max_clicks === null) {
      await (updated.max_clicks === null ? stopCounting(this.#db, link.id) : startCounting(this.#db, link.id, Number(updated.click_count)));
    }
    if (link.external_id !== null && link.external_id !== updated.external_id) this.#externalIds.set(link.external_id, undefined);
    if (updated.external_id !== null) this.#externalIds.set(updated.external_id, updated.id);
    this.slugs.add(redirectKey(updated.domain_id, updated.slug));
    if (this.#recording) {
      const { tags: _read, ...before } = link;
      this.changes.push({ type: 'link.updated', link: { ...updated, tags }, before: { ...before, tags: current ?? tags } });
    }
    return { ...updated, tags };
  }

  /** Deletes the link, locked by the caller, after the account (spec: DELETE /links/{id}). */
  async delete(link: LinkRow): Promise<void> {
    if (this.#recording) {
      const tags = this.#newLinkTags.get(link.id) ?? (await tagsOfLinks(this.#db, [link.id])).get(link.id) ?? [];
      this.changes.push({ type: 'link.deleted', link: { ...link, tags } });
    }
    // The row stays (deleted_at) so its click history survives; deleting detaches its tags.
    await this.#db.updateTable('link').set({ deleted_at: new Date() }).where('id', '=', link.id).execute();
    await this.#db.deleteFrom('link_tag').where('link_id', '=', link.id).execute();
    this.#newLinkTags.delete(link.id);
    this.#liveLinks--;
    if (link.external_id !== null) this.#externalIds.set(link.external_id, undefined);
    this.slugs.add(redirectKey(link.domain_id, link.slug));
  }

  /**
   * The domain an imported row goes on (docs/domains.md): the one it names when that is one of the
   * workspace's verified domains or the server's own; else (or naming none) the workspace's
   * default, as a link without `domain`, and `unknown` is the name it could not keep.
   */
  async importedDomain(name: string | undefined): Promise<{ domainId: LinkDomainId; unknown?: string }> {
    if (!this.#domains) return { domainId: null };
    if (name !== undefined) {
      try {
        return { domainId: await this.#domains.forNewLink(this.#db, this.#account.id, name, this.#domainIds) };
      } catch (error) {
        if (!(error instanceof AppError) || error.field !== 'domain') throw error;
        const fallback = await this.#domains.forNewLink(this.#db, this.#account.id, undefined, this.#domainIds);
        return { domainId: fallback, unknown: name.trim().toLowerCase() };
      }
    }
    return { domainId: await this.#domains.forNewLink(this.#db, this.#account.id, undefined, this.#domainIds) };
  }

  /** Writes what the transaction left to its end (the new links' tags); the caller calls it before commit. */
  async finish(): Promise<void> {
    await this.#writeNewLinkTags();
  }

  async #writeNewLinkTags(): Promise<void> {
    const pairs = [...this.#newLinkTags].flatMap(([link_id, tags]) => tags.map((tag) => ({ link_id, tag_id: tag.id })));
    this.#newLinkTags.clear();
    for (let start = 0; start < pairs.length; start += 10_000) {
      await this.#db
        .insertInto('link_tag')
        .values(pairs.slice(start, start + 10_000))
        .execute();
    }
  }

  /** The live link of the account `ref` names (a `lnk_` id or `ext_` + external id), locked. */
  liveLink(ref: string): Promise<LinkRow | undefined> {
    return findLiveLink(this.#db, this.#account.id, ref, true);
  }

  /**
   * The oldest live link of the account going exactly to `destination`, locked: what POST
   * /links/upsert updates instead of creating another.
   */
  async oldestLiveLinkTo(destination: string): Promise<LinkRow | undefined> {
    return (
      this.#db
        .selectFrom('link')
        .select(LINK_COLUMNS)
        .where('link.account_id', '=', this.#account.id)
        .where('link.deleted_at', 'is', null)
        // md5 of the URL is what link_account_destination_idx holds (URLs may be long).
        .where((eb) => eb(eb.fn('md5', ['link.destination_url']), '=', eb.fn('md5', [eb.val(destination)])))
        .where('link.destination_url', '=', destination)
        .orderBy('link.created_at')
        .limit(1)
        .forUpdate()
        .executeTakeFirst()
    );
  }

  /**
   * The live links of the account with any of these slugs, external ids or destinations, with their
   * tags, locked, oldest first: what an import batch's rows may name, read in one statement.
   */
  async liveLinksNamed({ slugs, externalIds, destinations }: LinkNames): Promise<TaggedLink[]> {
    if (slugs.size === 0 && externalIds.size === 0 && destinations.size === 0) return [];
    // Links created earlier in this transaction are read with their tags.
    await this.#writeNewLinkTags();
    const rows = await this.#db
      .selectFrom('link')
      .select(LINK_COLUMNS)
      .select(tagsColumn)
      .where('link.account_id', '=', this.#account.id)
      .where('link.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          ...(slugs.size > 0 ? [eb('link.slug', 'in', [...slugs])] : []),
          ...(externalIds.size > 0 ? [eb('link.external_id', 'in', [...externalIds])] : []),
          ...(destinations.size > 0
            ? [
                eb.and([
                  eb(eb.fn('md5', ['link.destination_url']), 'in', [...destinations].map(md5)),
                  eb('link.destination_url', 'in', [...destinations]),
                ]),
              ]
            : []),
        ]),
      )
      .orderBy('link.created_at')
      .orderBy('link.id')
      .forUpdate()
      .execute();
    for (const externalId of externalIds) this.#externalIds.set(externalId, undefined);
    return rows.map((row) => {
      if (row.external_id !== null) this.#externalIds.set(row.external_id, row.id);
      return { ...row, tags: sortedTags(row.tags) };
    });
  }

  async #assertExternalIdFree(externalId: string, exceptLinkId: string | undefined): Promise<void> {
    let holder: string | undefined;
    if (this.#externalIds.has(externalId)) {
      holder = this.#externalIds.get(externalId);
    } else {
      const row = await this.#db
        .selectFrom('link')
        .select('id')
        .where('account_id', '=', this.#account.id)
        .where('external_id', '=', externalId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      holder = row?.id;
    }
    if (holder !== undefined && holder !== exceptLinkId) throw new AppError('EXTERNAL_ID_TAKEN', undefined, 'external_id');
  }

  /** The tags a link should carry, checked (tag-resolution.ts), those missing not yet created; by name from memory when known. */
  async #findTags(tagIds: readonly string[] | undefined, tagNames: readonly string[] | undefined) {
    if (tagIds === undefined && tagNames !== undefined) {
      const known = tagNames.map((name) => this.#tagsByName.get(name.toLowerCase()));
      if (known.every((tag) => tag !== undefined)) return { found: [...new Set(known)], missing: [] };
    }
    const tags = await findTags(this.#db, this.#account, tagIds, tagNames);
    // Refused here, before the write that needs them: an import's row is then refused having written nothing.
    if (tags.missing.length > 0 && !this.#mayCreateTags) throw new AppError('FORBIDDEN', NO_TAG_CREATION);
    for (const tag of tags.found) this.#tagsByName.set(tag.name.toLowerCase(), tag);
    return tags;
  }

  /** The tags found, with the missing ones created now, in the API's order. */
  async #created({ found, missing }: { found: TagSummary[]; missing: string[] }): Promise<TagSummary[]> {
    const created = await createTags(this.#db, this.#account, missing);
    for (const tag of created) {
      this.#tagsByName.set(tag.name.toLowerCase(), tag);
      if (this.#recording) this.changes.push({ type: 'tag.created', tag });
    }
    return [...found, ...created].sort(byName);
  }
}

/** Why a key without `tags.write` may not name a tag that does not exist yet. */
export const NO_TAG_CREATION = 'This key lacks the scope tags.write';

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
