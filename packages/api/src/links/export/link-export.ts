import type { ExportedLink, ExportFormat, ListLinksQuery, Preview, RedirectRule } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { reader } from '../../database/database.ts';
import type { LinkDomains } from '../../domains/link-domains.ts';
import type { ShortUrls } from '../../domains/short-urls.ts';
import { matchingLinks } from '../link-list-query.ts';
import { LINK_COLUMNS, sortedTags, tagsColumn } from '../link-reads.ts';
import { fileLine, fileStart } from './export-format.ts';

/** Links read per query: enough to amortise a round trip, few enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Links read per query for an export a server answers, which may run beside many others for
 * readers of any speed: a page of links filled to the field limits (about 10 KB each as JSON
 * Lines) holds about 1 MB, which the export keeps while its reader takes the page's chunks
 * (docs/performance.md, "Slow export readers"). The CLI, alone in its process, reads larger pages.
 */
export const SERVED_EXPORT_PAGE_SIZE = 100;

/**
 * The file is yielded in chunks of about this many characters (a line is never split; one longer
 * than this is a chunk alone), so that a transport writes it under backpressure a little at a
 * time rather than a page at once.
 */
export const EXPORT_CHUNK_CHARS = 16 * 1024;

/** Which links an export holds: those a search, tags and a domain find, as GET /links finds them; none given, every live link. */
export type ExportFilter = Pick<ListLinksQuery, 'tag_ids' | 'search' | 'domain'>;

/**
 * GET /links/export and `pnpm shortlinks export`: every live link of an account, oldest first,
 * read in keyset pages by (created_at, id) so that memory stays flat however many links there are
 * and a link created or deleted meanwhile neither repeats nor shifts another out.
 */
export class LinkExportService {
  readonly #orm: Orm;
  readonly #urls: ShortUrls;
  readonly #domains: LinkDomains | undefined;

  constructor(orm: Orm, urls: ShortUrls, domains?: LinkDomains) {
    this.#orm = orm;
    this.#urls = urls;
    this.#domains = domains;
  }

  /** The account's live links (those the filter matches, as the list matches them), one page at a time. */
  async *pages(accountId: string, pageSize = EXPORT_PAGE_SIZE, filter: ExportFilter = {}): AsyncGenerator<ExportedLink[]> {
    const db = reader(this.#orm);
    // The domain as the list filters by it (link-domains.ts): an unknown one is refused before the file starts.
    const domainKey =
      filter.domain === undefined ? undefined : this.#domains ? await this.#domains.filterKey(db, accountId, filter.domain) : '';
    // The cursor's time is PostgreSQL's own text of it: a JS Date would drop the microseconds,
    // and the page after would start again inside the same millisecond.
    let after: { at: string; id: string } | undefined;
    for (;;) {
      let query = matchingLinks(db, accountId, filter, domainKey)
        .select(LINK_COLUMNS)
        .select(tagsColumn)
        .select(sql<string>`link.created_at::text`.as('cursor_at'));
      if (after) {
        const { at, id } = after;
        query = query.where(sql<boolean>`(link.created_at, link.id) > (${at}::timestamptz, ${id})`);
      }
      const rows = await query.orderBy('link.created_at').orderBy('link.id').limit(pageSize).execute();
      if (rows.length === 0) return;
      // A link's short URL names its domain (docs/domains.md), which the import reads back.
      await this.#urls.ensure(rows);
      yield rows.map((row) => ({
        id: row.id,
        slug: row.slug,
        short_url: this.#urls.shortUrl(row.domain_id, row.slug),
        destination_url: row.destination_url,
        title: row.title,
        tags: sortedTags(row.tags).map((tag) => tag.name),
        external_id: row.external_id,
        comments: row.comments,
        expires_at: row.expires_at === null ? null : row.expires_at.toISOString(),
        expiration_url: row.expiration_url,
        click_count: Number(row.click_count),
        created_at: row.created_at.toISOString(),
        password_hash: row.password_hash,
        max_clicks: row.max_clicks,
        rules: row.rules === null ? null : (JSON.parse(row.rules) as RedirectRule[]),
        preview: row.preview === null ? null : (JSON.parse(row.preview) as Preview),
      }));
      const last = rows[rows.length - 1];
      if (!last || rows.length < pageSize) return;
      after = { at: last.cursor_at, id: last.id };
    }
  }

  /**
   * The export file, in chunks of about {@link EXPORT_CHUNK_CHARS}, starting with the CSV header.
   * The next page is read only once the last chunk of this one was taken.
   */
  async *file(accountId: string, format: ExportFormat, pageSize = EXPORT_PAGE_SIZE, filter: ExportFilter = {}): AsyncGenerator<string> {
    let chunk = fileStart(format);
    for await (const page of this.pages(accountId, pageSize, filter)) {
      for (const link of page) {
        chunk += fileLine(format, link);
        if (chunk.length < EXPORT_CHUNK_CHARS) continue;
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') yield chunk;
  }
}
