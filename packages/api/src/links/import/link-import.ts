import type { ConflictMode, ImportOutcome } from '@shortlinks/contract';
import { SharedUrlChecks } from '../../destinations/bulk-url-checks.ts';
import type { DestinationChecker } from '../../destinations/destination-checker.ts';
import { toAppError } from '../../errors.ts';
import { changesNothing, type LinkChange, type NewLink, type TaggedLink } from '../link-changes.ts';
import type { LinkService } from '../link-service.ts';
import type { LinkWrites } from '../link-writes.ts';
import { preparedSmartChange } from '../smart-link-fields.ts';
import { type CheckedLink, checkImportedLink, titleFromDestination } from './import-checks.ts';
import { conflictCode, conflictRefusal, NamedLinks, named, namesOf, type RowRefusal } from './import-conflicts.ts';
import type { ImportRow } from './import-row.ts';

// The modes are the contract's: the API's `on_conflict` takes them too.
export { CONFLICT_MODES, type ConflictMode } from '@shortlinks/contract';
export type { RowRefusal } from './import-conflicts.ts';

export interface ImportOptions {
  /** `skip` (the default) leaves the existing link; `update` applies the row; `fail` stops and changes nothing. */
  onConflict?: ConflictMode;
  /** Checks every row as the import would, and writes nothing. */
  dryRun?: boolean;
  /** Rows applied per transaction. */
  batchSize?: number;
  /** Hears of each refused row as it is refused. */
  onRefused?: (refusal: RowRefusal) => void;
  /** Hears of each row applied (or, in a dry run, that would be), with the link it made or matched. */
  onApplied?: (applied: AppliedRow) => void;
  /** Hears of the counts after each batch. */
  onProgress?: (counts: ImportCounts) => void;
  /** False for a key without `tags.write`: a row naming a tag that does not exist is refused (FORBIDDEN). */
  mayCreateTags?: boolean;
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

/** A row applied: what became of it, and the slug and destination of the link it made or matched. */
export interface AppliedRow {
  row: number;
  outcome: ImportOutcome;
  slug: string;
  destination_url: string;
  /** Whether the slug was drawn at random for this row (a dry run's is not the one the import will draw). */
  randomSlug: boolean;
}

export interface ImportResult extends ImportCounts {
  /** Said once per domain: rows naming a domain the workspace has not verified went to its default domain. */
  notes: string[];
  /** Under `--on-conflict fail`: the conflict that stopped the import, which then changed nothing. */
  stoppedAt?: RowRefusal;
  dryRun: boolean;
}

export const IMPORT_BATCH_SIZE = 500;

/** A row ready to apply: its checked link with its final URLs, or why it is refused. */
type PreparedRow = { row: number; link: CheckedLink } | { row: number; refusal: RowRefusal };

/** Thrown to undo a dry run, or a `fail` import that met a conflict. */
class Undo extends Error {}

/** One import's state across its batches. */
interface ImportRun {
  mode: ConflictMode;
  counts: ImportCounts;
  refuse: (refusal: RowRefusal) => void;
  /** Counts a row applied, and tells `onApplied`. */
  applied: (row: number, outcome: ImportOutcome, link: TaggedLink, randomSlug?: boolean) => void;
  /** Under `fail`: the conflict that stopped it. */
  stoppedAt: RowRefusal | undefined;
  /** The links this run created or updated, by id, with the row that did: a later row naming one by slug or external id is checked against it. */
  imported: Map<string, number>;
  /** Domains rows named that the workspace has not verified (their rows went to the default domain). */
  unknownDomains: Set<string>;
}

/**
 * `pnpm shortlinks import`: applies the rows of an import file to an account under the API's
 * rules for creating a link (docs/import-export.md), through the link service's writes
 * (link-writes.ts), so the rules, the limits and the announcements are the API's own. Rows go in
 * batches, one transaction each with the account locked as a create locks it; a refused row is
 * checked before it writes, so it undoes nothing of the others. A dry run, and a `fail` import, run
 * in one transaction that is rolled back at the end (dry run) or at the first conflict (fail), so
 * they change nothing.
 */
export class LinkImportService {
  readonly #links: LinkService;
  readonly #destinations: DestinationChecker;

  constructor(links: LinkService, destinations: DestinationChecker) {
    this.#links = links;
    this.#destinations = destinations;
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
    const applied = (row: number, outcome: ImportOutcome, link: TaggedLink, randomSlug = false) => {
      counts[outcome]++;
      options.onApplied?.({ row, outcome, slug: link.slug, destination_url: link.destination_url, randomSlug });
    };
    const run: ImportRun = { mode, counts, refuse, applied, stoppedAt: undefined, imported: new Map(), unknownDomains: new Set() };

    if (dryRun || mode === 'fail') {
      try {
        await this.#links.writeBatch(
          accountId,
          async (writes) => {
            for await (const batch of inBatches(rows, batchSize)) {
              counts.read += batch.length;
              await this.#apply(writes, await this.#prepare(batch), run);
              options.onProgress?.({ ...counts });
              if (run.stoppedAt) break;
            }
            // A dry run never keeps what it did; a `fail` import only when it met no conflict.
            if (dryRun || run.stoppedAt) throw new Undo();
          },
          options.mayCreateTags,
        );
      } catch (error) {
        if (!(error instanceof Undo)) throw error;
      }
    } else {
      for await (const batch of inBatches(rows, batchSize)) {
        counts.read += batch.length;
        const prepared = await this.#prepare(batch);
        await this.#links.writeBatch(accountId, (writes) => this.#apply(writes, prepared, run), options.mayCreateTags);
        options.onProgress?.({ ...counts });
      }
    }
    // Stopped by a conflict, the `fail` import was undone: it created and updated nothing.
    const written = run.stoppedAt ? { created: 0, updated: 0, unchanged: 0, skipped: 0 } : {};
    const notes = [...run.unknownDomains].map(
      (domain) => `Rows naming ${domain} went to the default domain: it is not one of the workspace's verified domains`,
    );
    const result: ImportResult = { ...counts, ...written, dryRun, notes };
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
          const smart = await preparedSmartChange(link.smart, checks);
          if (link.password_hash !== undefined) smart.password_hash = link.password_hash;
          return { row: item.row, link: { ...link, destination_url: destination, expiration_url: fallback, checkedSmart: smart } };
        } catch (error) {
          return { row: item.row, refusal: refusalOf(item.row, error) };
        }
      }),
    );
  }

  /** Applies one batch with `writes`, in its transaction. */
  async #apply(writes: LinkWrites, batch: PreparedRow[], run: ImportRun): Promise<void> {
    const now = Date.now();
    // Each row's domain first: its slug is matched on that domain only.
    for (const prepared of batch) {
      if (!('link' in prepared)) continue;
      const { domainId, unknown } = await writes.importedDomain(prepared.link.domain);
      prepared.link.domainId = domainId;
      if (unknown !== undefined) run.unknownDomains.add(unknown);
    }
    const names = namesOf(batch.flatMap((prepared) => ('link' in prepared ? [prepared.link] : [])));
    const links = new NamedLinks(await writes.liveLinksNamed(names), names);

    for (const prepared of batch) {
      if ('refusal' in prepared) {
        run.refuse(prepared.refusal);
        continue;
      }
      const { row, link } = prepared;
      try {
        const existing = links.conflict(link);
        const earlierRow = existing && named(link) ? run.imported.get(existing.id) : undefined;
        if (existing && earlierRow !== undefined) {
          // Two rows of the file name one link by its slug or external id. The same link listed
          // twice is nothing new; two different ones cannot both be kept (other tools keep a slug
          // per domain, which an import leaves out), so the later is refused, not quietly dropped.
          if (changesNothing(existing, changeOf(link), now)) {
            run.applied(row, run.mode === 'update' ? 'unchanged' : 'skipped', existing);
            continue;
          }
          const taken = conflictRefusal(row, conflictCode(existing, link), link, earlierRow);
          run.refuse(taken);
          if (run.mode === 'fail') {
            run.stoppedAt = taken;
            return;
          }
          continue;
        }
        if (existing && run.mode === 'fail') {
          const taken = conflictRefusal(row, conflictCode(existing, link), link);
          run.refuse(taken);
          run.stoppedAt = taken;
          return;
        }
        if (existing && run.mode === 'skip') {
          run.applied(row, 'skipped', existing);
          continue;
        }
        if (existing) {
          const change = changeOf(link);
          if (changesNothing(existing, change, now)) {
            run.applied(row, 'unchanged', existing);
            continue;
          }
          const updated = await writes.update(existing, change, now);
          links.updated(existing, updated);
          run.imported.set(updated.id, row);
          run.applied(row, 'updated', updated);
          continue;
        }
        const created = await writes.create(newLinkOf(link), now);
        links.created(created);
        run.imported.set(created.id, row);
        run.applied(row, 'created', created, link.slug === undefined);
      } catch (error) {
        run.refuse(refusalOf(row, error));
      }
    }
  }
}

/** The link a row makes, with what an import keeps that the API would not (docs/import-export.md). */
function newLinkOf(link: CheckedLink): NewLink {
  return {
    slug: link.slug,
    domainId: link.domainId,
    destination_url: link.destination_url,
    title: link.title ?? titleFromDestination(link.destination_url),
    external_id: link.external_id,
    comments: link.comments ?? null,
    expiry: { expires_at: link.expires_at?.getTime(), expiration_url: link.expiration_url },
    tag_names: link.tag_names,
    created_at: link.created_at,
    smart: link.checkedSmart,
    pastExpiryKept: true,
  };
}

/**
 * What the row makes of the link it names, as a PATCH would: the fields it carries replace the
 * link's, those it does not (an empty cell, a `null`, a column the format lacks) stay, a new expiry
 * keeps the fallback URL unless the row brings one. The slug and `created_at` stay the link's.
 */
function changeOf(link: CheckedLink): LinkChange {
  return {
    title: link.title,
    destination_url: link.destination_url,
    external_id: link.external_id,
    comments: link.comments,
    expiry: { expires_at: link.expires_at?.getTime(), expiration_url: link.expiration_url },
    tag_names: link.tag_names,
    smart: link.checkedSmart,
    pastExpiryKept: true,
  };
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
