import type {
  BulkCreateItem,
  BulkCreateLinksBody,
  BulkCreateResult,
  BulkDeleteItem,
  BulkDeleteLinksQuery,
  BulkDeleteResult,
  BulkUpdateItem,
  BulkUpdateLinksBody,
  BulkUpdateResult,
  CreateLinkBody,
  ErrorBody,
} from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { ZodError } from 'zod';
import { plainReader } from '../database/database.ts';
import { SharedUrlChecks, type UrlChecks } from '../destinations/bulk-url-checks.ts';
import { AppError, fromZodError } from '../errors.ts';
import { liveLinkIdsByRef } from './link-reads.ts';
import type { LinkService } from './link-service.ts';

type Failure = { ok: false; status: number; error: ErrorBody };

/**
 * What one item's single call answered: its value, or the error it refused the item with. Only
 * the API's own refusals are an item's result; anything unexpected (the database gone) ends the
 * bulk call as a 500, as it would end the single call.
 */
async function attempt<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | Failure> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'INTERNAL_ERROR') throw error;
    return refused(error);
  }
}

const refused = (error: AppError): Failure => ({ ok: false, status: error.status, error: error.toBody() });

const tally = <T extends { ok: boolean }>(results: T[]) => {
  const succeeded = results.filter((result) => result.ok).length;
  return { succeeded, failed: results.length - succeeded, results };
};

/** The URLs a create body asks checks for: its destination, fallback, rules' destinations and preview image. */
function urlsOf(body: CreateLinkBody): number {
  return 1 + (body.expiration_url ? 1 : 0) + (body.rules?.length ?? 0) + (body.preview?.image_url === undefined ? 0 : 1);
}

/**
 * Bulk calls (issue #14): each item is its single call (POST, PATCH or DELETE /links/{id}), done
 * in request order, in a transaction of its own, with the same limits, locks and redirect
 * announcements, so a refused item saves nothing and undoes nothing of the others.
 *
 * The URL checks of every item come first, together (bulk-url-checks.ts): one after the other,
 * 100 items waiting on a slow reputation service would outlast the connection's idle timeout, and
 * the client would never hear of the links made.
 */
export class LinkBulkService {
  readonly #orm: Orm;
  readonly #links: LinkService;
  readonly #urls: UrlChecks;

  constructor(orm: Orm, links: LinkService, urls: UrlChecks) {
    this.#orm = orm;
    this.#links = links;
    this.#urls = urls;
  }

  /** `mayCreateTags`: false for a key without `tags.write` (link-writes.ts). */
  async create(accountId: string, { links }: BulkCreateLinksBody, mayCreateTags = true): Promise<BulkCreateResult> {
    // As many places as the URLs the items carry need to fit the call's time (bulk-url-checks.ts).
    const urls = new SharedUrlChecks(
      this.#urls,
      links.reduce((count, item) => count + (item.ok ? urlsOf(item.value) : 0), 0),
    );
    const items = links.map((item) => (item.ok ? { ok: true as const, prepared: this.#links.prepare(item.value, urls) } : item));
    // Every item's checks, started together, are awaited before the first transaction. Each refusal
    // is read when its item's turn comes (attempt); settled here, one left unread when an unexpected
    // failure ends the call is no unhandled rejection.
    await Promise.allSettled(items.map((item) => (item.ok ? item.prepared : undefined)));
    const results: BulkCreateItem[] = [];
    for (const [index, item] of items.entries()) {
      // An item that breaks the body's rules gets the error its single call would have answered.
      const result = item.ok
        ? await attempt(async () => this.#links.createPrepared(accountId, await item.prepared, mayCreateTags))
        : refused(fromZodError(new ZodError(item.issues), item.input));
      results.push(result.ok ? { index, ok: true, status: 201, link: result.value } : { index, ...result });
    }
    return tally(results);
  }

  async update(accountId: string, { ids, changes }: BulkUpdateLinksBody, mayCreateTags = true): Promise<BulkUpdateResult> {
    await this.#refuseOneLinkNamedTwice(accountId, ids);
    // One change for every link: its URLs are checked once, and a refusal of them is every item's.
    const prepared = this.#links.prepareChanges(changes);
    await Promise.allSettled([prepared]);
    const results: BulkUpdateItem[] = [];
    for (const [index, id] of ids.entries()) {
      const result = await attempt(async () => this.#links.updatePrepared(accountId, id, await prepared, mayCreateTags));
      results.push(result.ok ? { index, ok: true, status: 200, id, link: result.value } : { index, id, ...result });
    }
    return tally(results);
  }

  async delete(accountId: string, { ids }: BulkDeleteLinksQuery): Promise<BulkDeleteResult> {
    await this.#refuseOneLinkNamedTwice(accountId, ids);
    const results: BulkDeleteItem[] = [];
    for (const [index, id] of ids.entries()) {
      const result = await attempt(() => this.#links.delete(accountId, id));
      results.push(result.ok ? { index, ok: true, status: 204, id } : { index, id, ...result });
    }
    return tally(results);
  }

  /**
   * A link named twice, by its `lnk_` id and by `ext_` + its external id, refuses the whole request
   * as the same id written twice does (the contract's check, link-bulk.ts): otherwise a deletion
   * would answer 404 for its own second item, and an update would change the link twice.
   */
  async #refuseOneLinkNamedTwice(accountId: string, ids: readonly string[]): Promise<void> {
    const linkOf = await liveLinkIdsByRef(plainReader(this.#orm), accountId, ids);
    const firstNamedAt = new Map<string, number>();
    for (const [index, id] of ids.entries()) {
      const link = linkOf.get(id);
      if (link === undefined) continue;
      const earlier = firstNamedAt.get(link);
      if (earlier !== undefined) {
        throw new AppError('VALIDATION_ERROR', `ids[${index}] names the same link as ids[${earlier}]: name each link once`, 'ids');
      }
      firstNamedAt.set(link, index);
    }
  }
}
