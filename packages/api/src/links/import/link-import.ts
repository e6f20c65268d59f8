import { createHash } from 'node:crypto';
import type { TagSummary } from '@shortlinks/contract';
import { LINK_CHANGES_CHANNEL, type Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { effectiveLimits } from '../../accounts/plans.ts';
import { type AccountRow, type Db, inTransaction, lockAccount } from '../../database/database.ts';
import { SharedUrlChecks } from '../../destinations/bulk-url-checks.ts';
import type { DestinationChecker } from '../../destinations/destination-checker.ts';
import { AppError, toAppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { resolveTags, setLinkTags } from '../../tags/tag-resolution.ts';
import { insertWithSlug } from '../link-insert.ts';
import { LINK_COLUMNS, type LinkRow, sortedTags, tagsColumn } from '../link-reads.ts';
import { type CheckedLink, checkImportedLink, titleFromDestination } from './import-checks.ts';
import type { ImportRow } from './import-row.ts';

/** What an import does with a row whose slug or external id already names a live link of the account. */
export const CONFLICT_MODES = ['skip', 'update', 'fail'] as const;
export type ConflictMode = (typeof CONFLICT_MODES)[number];

export interface ImportOptions {
  /** `skip` (the default) leaves the existing link; `update` applies the row; `fail` stops and changes nothing. */
  onConflict?: ConflictMode;
  /** Checks every row as the import would, and writes nothing. */
  dryRun?: boolean;
  /** Rows applied per transaction. */
  batchSize?: number;
  /** Hears of each refused row as it is refused. */
  onRefused?: (refusal: RowRefusal) => void;
  /** Hears of the counts after each batch. */
  onProgress?: (counts: ImportCounts) => void;
}

/** A row the import did not apply: its row number in the file and the API's error. */
export interface RowRefusal {
  row: number;
  code: string;
  message: string;
  field?: string | undefined;
}

export interface ImportCounts {
  read: number;
  created: number;
  updated: number;
  /** Rows that matched a live link already holding exactly what they carry (`update`). */
  unchanged: number;
  /** Rows that matched a live link left as it was (`skip`). */
  skipped: number;
  refused: number;
}

export interface ImportResult extends ImportCounts {
  /** Under `--on-conflict fail`: the conflict that stopped the import, which then changed nothing. */
  stoppedAt?: RowRefusal;
  dryRun: boolean;
}

export const IMPORT_BATCH_SIZE = 500;

/** A row ready to apply: its checked link and its final URLs, or why it is refused. */
type PreparedRow =
  | { row: number; link: CheckedLink & { destination_url: string; expiration_url: string | undefined } }
  | { row: number; refusal: RowRefusal };

type ExistingLink = LinkRow & { tags: TagSummary[] };

/** Thrown to undo a dry run, or a `fail` import that met a conflict. */
class Undo extends Error {}

/** One import's state across its batches. */
interface ImportRun {
  mode: ConflictMode;
  counts: ImportCounts;
  refuse: (refusal: RowRefusal) => void;
  /** Under `fail`: the conflict that stopped it. */
  stoppedAt: RowRefusal | undefined;
  /** The links this run created or updated, by id, with the row that did: a later row naming one by slug or external id is checked against it. */
  imported: Map<string, number>;
}

/**
 * `pnpm shortlinks import`: applies the rows of an import file to an account under the API's
 * rules for creating a link (docs/import-export.md). Rows go in batches, one transaction each
 * with the account locked as a create locks it; a refused row is checked before it writes, so it
 * undoes nothing of the others. A dry run, and a `fail` import, run in one transaction that is
 * rolled back at the end (dry run) or at the first conflict (fail), so they change nothing.
 */
export class LinkImportService {
  readonly #orm: Orm;
  readonly #destinations: DestinationChecker;
  readonly #changed: (slug: string) => void;

  constructor(orm: Orm, destinations: DestinationChecker, changed: (slug: string) => void = () => {}) {
    this.#orm = orm;
    this.#destinations = destinations;
    this.#changed = changed;
  }

  async import(
    accountId: string,
    rows: AsyncIterable<ImportRow> | Iterable<ImportRow>,
    options: ImportOptions = {},
  ): Promise<ImportResult> {
    const mode = options.onConflict ?? 'skip';
    const dryRun = options.dryRun ?? false;
    const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
    const counts: ImportCounts = { read: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, refused: 0 };
    const refuse = (refusal: RowRefusal) => {
      counts.refused++;
      options.onRefused?.(refusal);
    };
    const run: ImportRun = { mode, counts, refuse, stoppedAt: undefined, imported: new Map() };

    if (dryRun || mode === 'fail') {
      let committed: string[] = [];
      try {
        committed = await inTransaction(this.#orm, async (db) => {
          const changed: string[] = [];
          for await (const batch of inBatches(rows, batchSize)) {
            counts.read += batch.length;
            changed.push(...(await this.#apply(db, accountId, await this.#prepare(batch), run)));
            options.onProgress?.({ ...counts });
            if (run.stoppedAt) break;
          }
          // A dry run never keeps what it did; a `fail` import only when it met no conflict.
          if (dryRun || run.stoppedAt) throw new Undo();
          return changed;
        });
      } catch (error) {
        if (!(error instanceof Undo)) throw error;
      }
      for (const slug of committed) this.#changed(slug);
    } else {
      for await (const batch of inBatches(rows, batchSize)) {
        counts.read += batch.length;
        const prepared = await this.#prepare(batch);
        const changed = await inTransaction(this.#orm, (db) => this.#apply(db, accountId, prepared, run));
        for (const slug of changed) this.#changed(slug);
        options.onProgress?.({ ...counts });
      }
    }
    // Stopped by a conflict, the `fail` import was undone: it created and updated nothing.
    const written = run.stoppedAt ? { created: 0, updated: 0, unchanged: 0, skipped: 0 } : {};
    const result: ImportResult = { ...counts, ...written, dryRun };
    if (run.stoppedAt) result.stoppedAt = run.stoppedAt;
    return result;
  }

  /** The checks that need no database: the API's field rules, then the destination and fallback URLs. */
  async #prepare(batch: ImportRow[]): Promise<PreparedRow[]> {
    const now = Date.now();
    // A few checks at a time, each distinct URL once, as a bulk call asks them: 500 rows asking a
    // remote URL-safety service at once would be refused by it, or time out, row after row.
    const checks = new SharedUrlChecks(this.#destinations);
    return Promise.all(
      batch.map(async (item): Promise<PreparedRow> => {
        if ('problem' in item) return { row: item.row, refusal: { row: item.row, ...item.problem } };
        try {
          const link = checkImportedLink(item.link, now);
          const destination = await checks.finalDestination('destination_url', link.destination_url, undefined);
          const fallback = link.expiration_url === undefined ? undefined : await checks.fallback(link.expiration_url);
          return { row: item.row, link: { ...link, destination_url: destination, expiration_url: fallback } };
        } catch (error) {
          return { row: item.row, refusal: refusalOf(item.row, error) };
        }
      }),
    );
  }

  /** Applies one batch in `db`'s transaction; returns the slugs whose redirect changed. */
  async #apply(db: Db, accountId: string, batch: PreparedRow[], run: ImportRun): Promise<string[]> {
    const account = await lockAccount(db, accountId);
    const { link_limit } = effectiveLimits(account);
    let liveLinks = link_limit === null ? 0 : await countLiveLinks(db, accountId);
    const { bySlug, byExternalId, byDestination } = await this.#existing(db, accountId, batch);
    // Tags found or created in this transaction, by name ignoring case; locked by resolveTags until it ends.
    const knownTags = new Map<string, TagSummary>();
    // The new links' tags, written in one statement at the end of the batch: a round trip less per link.
    let newLinkTags: { link_id: string; tag_id: string }[] = [];
    const writeNewLinkTags = async () => {
      for (let start = 0; start < newLinkTags.length; start += 10_000) {
        await db
          .insertInto('link_tag')
          .values(newLinkTags.slice(start, start + 10_000))
          .execute();
      }
      newLinkTags = [];
    };
    const changed: string[] = [];

    for (const prepared of batch) {
      if ('refusal' in prepared) {
        run.refuse(prepared.refusal);
        continue;
      }
      const { row, link } = prepared;
      try {
        const existing = this.#conflict(link, bySlug, byExternalId, byDestination);
        const earlierRow = existing && named(link) ? run.imported.get(existing.id) : undefined;
        if (existing && earlierRow !== undefined) {
          // Two rows of the file name one link by its slug or external id. The same link listed
          // twice is nothing new; two different ones cannot both be kept (other tools keep a slug
          // per domain, which an import leaves out), so the later is refused, not quietly dropped.
          if (changesOf(existing, link).same) {
            run.counts[run.mode === 'update' ? 'unchanged' : 'skipped']++;
            continue;
          }
          const taken = conflictRefusal(row, existing.slug === link.slug ? 'SLUG_TAKEN' : 'EXTERNAL_ID_TAKEN', link, earlierRow);
          run.refuse(taken);
          if (run.mode === 'fail') {
            run.stoppedAt = taken;
            return changed;
          }
          continue;
        }
        if (existing && run.mode === 'fail') {
          const taken = conflictRefusal(row, conflictCode(existing, link), link);
          run.refuse(taken);
          run.stoppedAt = taken;
          return changed;
        }
        if (existing && run.mode === 'skip') {
          run.counts.skipped++;
          continue;
        }
        if (existing) {
          // A link this batch created (the file names it twice) carries its tags before it changes.
          if (newLinkTags.some((pair) => pair.link_id === existing.id)) await writeNewLinkTags();
          const updated = await this.#update(db, account, existing, link, knownTags);
          if (!updated) {
            run.counts.unchanged++;
            continue;
          }
          if (existing.external_id !== null) byExternalId.delete(existing.external_id);
          if (updated.external_id !== null) byExternalId.set(updated.external_id, updated);
          bySlug.set(updated.slug, updated);
          if (byDestination.get(existing.destination_url)?.id === existing.id) byDestination.delete(existing.destination_url);
          if (!byDestination.has(updated.destination_url)) byDestination.set(updated.destination_url, updated);
          run.imported.set(updated.id, row);
          run.counts.updated++;
          changed.push(updated.slug);
          continue;
        }
        if (link_limit !== null && liveLinks >= link_limit) {
          throw new AppError('LINK_LIMIT_REACHED', `The account is at its plan's limit of ${link_limit} links`);
        }
        const created = await this.#create(db, account, link, knownTags);
        for (const tag of created.tags) newLinkTags.push({ link_id: created.id, tag_id: tag.id });
        liveLinks++;
        bySlug.set(created.slug, created);
        if (created.external_id !== null) byExternalId.set(created.external_id, created);
        if (!byDestination.has(created.destination_url)) byDestination.set(created.destination_url, created);
        run.imported.set(created.id, row);
        run.counts.created++;
        changed.push(created.slug);
      } catch (error) {
        run.refuse(refusalOf(row, error));
      }
    }
    await writeNewLinkTags();
    await announce(db, changed);
    return changed;
  }

  /**
   * The live links of the account that the batch's rows name, locked: by slug or external id, and
   * for a row with neither, by its final destination (the oldest such link), as POST /links/upsert
   * matches, so that running such a row again finds the link it made instead of making another.
   */
  async #existing(db: Db, accountId: string, batch: PreparedRow[]) {
    const slugs = new Set<string>();
    const externalIds = new Set<string>();
    const destinations = new Set<string>();
    for (const prepared of batch) {
      if ('refusal' in prepared) continue;
      const { link } = prepared;
      if (link.slug !== undefined) slugs.add(link.slug);
      if (link.external_id !== undefined) externalIds.add(link.external_id);
      if (!named(link)) destinations.add(link.destination_url);
    }
    const bySlug = new Map<string, ExistingLink>();
    const byExternalId = new Map<string, ExistingLink>();
    const byDestination = new Map<string, ExistingLink>();
    if (slugs.size === 0 && externalIds.size === 0 && destinations.size === 0) return { bySlug, byExternalId, byDestination };
    const rows = await db
      .selectFrom('link')
      .select(LINK_COLUMNS)
      .select(tagsColumn)
      .where('link.account_id', '=', accountId)
      .where('link.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          ...(slugs.size > 0 ? [eb('link.slug', 'in', [...slugs])] : []),
          ...(externalIds.size > 0 ? [eb('link.external_id', 'in', [...externalIds])] : []),
          // md5 of the URL is what link_account_destination_idx holds (URLs may be long).
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
    for (const row of rows) {
      const existing = { ...row, tags: sortedTags(row.tags) };
      if (slugs.has(existing.slug)) bySlug.set(existing.slug, existing);
      if (existing.external_id !== null && externalIds.has(existing.external_id)) byExternalId.set(existing.external_id, existing);
      if (destinations.has(existing.destination_url) && !byDestination.has(existing.destination_url)) {
        byDestination.set(existing.destination_url, existing);
      }
    }
    return { bySlug, byExternalId, byDestination };
  }

  /**
   * The live link of the account the row names, by slug or by external id (by its destination when
   * it has neither). When slug and external id name two different links the row can be neither:
   * its external id belongs to another link.
   */
  #conflict(
    link: CheckedLink,
    bySlug: Map<string, ExistingLink>,
    byExternalId: Map<string, ExistingLink>,
    byDestination: Map<string, ExistingLink>,
  ): ExistingLink | undefined {
    if (!named(link)) return byDestination.get(link.destination_url);
    const atSlug = link.slug === undefined ? undefined : bySlug.get(link.slug);
    const withExternalId = link.external_id === undefined ? undefined : byExternalId.get(link.external_id);
    if (atSlug && withExternalId && atSlug.id !== withExternalId.id) {
      throw new AppError('EXTERNAL_ID_TAKEN', `external_id "${link.external_id}" belongs to another link`, 'external_id');
    }
    return atSlug ?? withExternalId;
  }

  /** Inserts the link and finds or creates its tags; the caller writes which tags it carries. */
  async #create(db: Db, account: AccountRow, link: PreparedLinkOf, knownTags: Map<string, TagSummary>): Promise<ExistingLink> {
    // The link first: a slug taken (by another account) is refused before any tag is created.
    const inserted = await insertWithSlug(
      db,
      {
        id: newId('lnk'),
        account_id: account.id,
        destination_url: link.destination_url,
        title: link.title ?? titleFromDestination(link.destination_url),
        external_id: link.external_id ?? null,
        comments: link.comments ?? null,
        expires_at: link.expires_at ?? null,
        expiration_url: link.expiration_url ?? null,
        ...(link.created_at ? { created_at: link.created_at } : {}),
      },
      link.slug,
    );
    let tags: TagSummary[];
    try {
      tags = await tagsNamed(db, account, link.tag_names ?? [], knownTags);
    } catch (error) {
      // Only the tag limit fails here, before any tag was written: the link alone is undone.
      await db.deleteFrom('link').where('id', '=', inserted.id).execute();
      throw error;
    }
    return { ...inserted, tags };
  }

  /** Applies the row's fields to the link (those it does not carry stay); undefined when nothing would change. */
  async #update(db: Db, account: AccountRow, existing: ExistingLink, link: PreparedLinkOf, knownTags: Map<string, TagSummary>) {
    const { next, sameTags, same } = changesOf(existing, link);
    if (same) return undefined;

    const tags = sameTags ? existing.tags : await tagsNamed(db, account, link.tag_names ?? [], knownTags);
    if (!sameTags) await setLinkTags(db, existing.id, tags);
    const updated = await db
      .updateTable('link')
      .set({ ...next, updated_at: new Date() })
      .where('id', '=', existing.id)
      .returning(LINK_COLUMNS.map((column) => column.replace('link.', '') as 'id'))
      .executeTakeFirstOrThrow();
    return { ...(updated as unknown as LinkRow), tags };
  }
}

/**
 * What the row makes of the link, as a PATCH would: the fields it carries replace the link's,
 * those it does not (an empty cell, a `null`, a column the format lacks) stay, a new expiry keeps
 * the fallback URL unless the row brings one; and whether anything changes at all.
 */
function changesOf(existing: ExistingLink, link: PreparedLinkOf) {
  const next = {
    title: link.title ?? existing.title,
    destination_url: link.destination_url,
    external_id: link.external_id ?? existing.external_id,
    comments: link.comments === undefined ? existing.comments : link.comments,
    expires_at: link.expires_at === undefined ? existing.expires_at : link.expires_at,
    expiration_url: link.expiration_url ?? existing.expiration_url,
  };
  const sameTags =
    link.tag_names === undefined ||
    sameNames(
      link.tag_names,
      existing.tags.map((tag) => tag.name),
    );
  const same =
    sameTags &&
    next.title === existing.title &&
    next.destination_url === existing.destination_url &&
    next.external_id === existing.external_id &&
    next.comments === existing.comments &&
    next.expires_at?.getTime() === existing.expires_at?.getTime() &&
    next.expiration_url === existing.expiration_url;
  return { next, sameTags, same };
}

/** Whether the row names its link by slug or external id (a row with neither is matched by destination). */
function named(link: CheckedLink): boolean {
  return link.slug !== undefined || link.external_id !== undefined;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

type PreparedLinkOf = Extract<PreparedRow, { link: unknown }>['link'];

/** Tags by name, created when missing (counting toward the tag limit); those already known in this transaction need no query. */
async function tagsNamed(db: Db, account: AccountRow, names: readonly string[], known: Map<string, TagSummary>): Promise<TagSummary[]> {
  if (names.length === 0) return [];
  const found = names.map((name) => known.get(name.toLowerCase()));
  if (found.every((tag) => tag !== undefined)) return resolveFrom(found as TagSummary[]);
  const cursor = account.color_cursor;
  try {
    const tags = await resolveTags(db, account, undefined, names);
    for (const tag of tags) known.set(tag.name.toLowerCase(), tag);
    return tags;
  } catch (error) {
    account.color_cursor = cursor;
    throw error;
  }
}

/** Known tags, deduplicated and in the API's order (by name), as resolveTags would give them. */
function resolveFrom(tags: TagSummary[]): TagSummary[] {
  const unique = [...new Map(tags.map((tag) => [tag.id, tag])).values()];
  return sortedTags(unique);
}

function sameNames(left: readonly string[], right: readonly string[]): boolean {
  const a = new Set(left.map((name) => name.toLowerCase()));
  const b = new Set(right.map((name) => name.toLowerCase()));
  return a.size === b.size && [...a].every((name) => b.has(name));
}

async function countLiveLinks(db: Db, accountId: string): Promise<number> {
  const { count } = await db
    .selectFrom('link')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Tells every server process, on commit, that these slugs' redirects changed: one statement for the batch. */
async function announce(db: Db, slugs: readonly string[]): Promise<void> {
  if (slugs.length === 0) return;
  await sql`select pg_notify(${LINK_CHANGES_CHANNEL}, slug) from unnest(${[...new Set(slugs)]}::text[]) as slug`.execute(db);
}

/** Which of the row's names the existing link holds: its slug, its external id, or (a row with neither) its destination. */
function conflictCode(existing: ExistingLink, link: CheckedLink): ConflictCode {
  if (!named(link)) return 'LINK_EXISTS';
  return existing.slug === link.slug ? 'SLUG_TAKEN' : 'EXTERNAL_ID_TAKEN';
}

type ConflictCode = 'SLUG_TAKEN' | 'EXTERNAL_ID_TAKEN' | 'LINK_EXISTS';

/** A conflict with a link of the account; `earlierRow` when a row of this run made or changed that link. */
function conflictRefusal(row: number, code: ConflictCode, link: CheckedLink, earlierRow?: number): RowRefusal {
  const holder = earlierRow === undefined ? 'a live link of this account' : `the link imported from row ${earlierRow}, which differs`;
  switch (code) {
    case 'SLUG_TAKEN':
      return { row, code, message: `The slug "${link.slug}" already names ${holder}`, field: 'slug' };
    case 'EXTERNAL_ID_TAKEN':
      return { row, code, message: `external_id "${link.external_id}" already names ${holder}`, field: 'external_id' };
    case 'LINK_EXISTS':
      return {
        row,
        code,
        message: `A live link of this account already goes to ${link.destination_url} (a row without slug or external_id is matched by its destination)`,
        field: 'destination_url',
      };
  }
}

function refusalOf(row: number, error: unknown): RowRefusal {
  const app = toAppError(error);
  // An unexpected failure is the import's to report, not one row's.
  if (app.code === 'INTERNAL_ERROR') throw error;
  return { row, code: app.code, message: app.message, field: app.field };
}

async function* inBatches<T>(items: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
