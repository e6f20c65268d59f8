import type { BreakdownEntry, GroupStats, LinkStats, StatsQuery, TopLink } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { reader, storable } from '../database/database.ts';
import type { ShortUrls } from '../domains/short-urls.ts';
import { AppError, validationError } from '../errors.ts';
import { findLiveLink } from '../links/link-reads.ts';
import { type BreakdownPart, type BreakdownRow, readBreakdowns, readSeries, type StatsSubject } from './stats-queries.ts';
import { resolveStatsRange, type StatsRange } from './stats-range.ts';
import { readTagBreakdowns } from './tag-breakdowns.ts';
import { fillTagCache, findTagForStats, tagOpenDay } from './tag-stats-cache.ts';

/** Breakdown dimension (as stored) → response field. */
const BREAKDOWNS = {
  referrer: 'referrers',
  device: 'devices',
  browser: 'browsers',
  os: 'operating_systems',
  country: 'countries',
  trigger: 'triggers',
} as const;

/** The breakdown queries of a link (which has no top links) and of an account; a tag's are tag-breakdowns.ts. */
const BREAKDOWN_READS: Record<'link' | 'account', BreakdownPart[]> = {
  link: ['dimensions'],
  account: ['dimensions', 'links'],
};

/** Click statistics of a link, a tag (its live links) or an account (docs/statistics.md). */
export class StatsService {
  readonly #orm: Orm;
  readonly #urls: ShortUrls;
  /** PostgreSQL's zone names by lower-cased name, loaded once: `tz` must be one PostgreSQL knows too. */
  #zones: Promise<Map<string, string>> | undefined;

  constructor(orm: Orm, urls: ShortUrls) {
    this.#orm = orm;
    this.#urls = urls;
  }

  async link(accountId: string, ref: string, query: StatsQuery): Promise<LinkStats> {
    const range = await this.#range(query);
    const link = await findLiveLink(reader(this.#orm), accountId, ref);
    if (!link) throw new AppError('LINK_NOT_FOUND');
    const { top_links: _, ...stats } = await this.#stats({ kind: 'link', linkId: link.id }, range);
    return stats;
  }

  async tag(accountId: string, tagId: string, query: StatsQuery): Promise<GroupStats> {
    if (!storable(tagId)) throw new AppError('TAG_NOT_FOUND');
    const range = await this.#range(query);
    const db = reader(this.#orm);
    const openDay = tagOpenDay(Date.now());
    const tag = await findTagForStats(db, accountId, tagId, range, openDay);
    if (!tag) throw new AppError('TAG_NOT_FOUND');
    if (tag.missing) await fillTagCache(db, tagId, tag.linksFingerprint, range, openDay);
    return this.#stats({ kind: 'tag', tagId, linksFingerprint: tag.linksFingerprint, linkIds: tag.linkIds, openDay }, range);
  }

  /** Every click of the account, deleted links' included (their history is kept); top links are live ones. */
  async account(accountId: string, query: StatsQuery): Promise<GroupStats> {
    return this.#stats({ kind: 'account', accountId }, await this.#range(query));
  }

  async #range(query: StatsQuery): Promise<StatsRange> {
    const range = resolveStatsRange(query, Date.now());
    const zone = (await this.#zoneNames()).get(range.tz.toLowerCase());
    if (zone === undefined) throw validationError('tz', 'tz must be an IANA time zone such as Europe/Berlin');
    return { ...range, tz: zone };
  }

  #zoneNames(): Promise<Map<string, string>> {
    this.#zones ??= sql<{ name: string }>`select name from pg_timezone_names`
      .execute(reader(this.#orm))
      .then((result) => new Map(result.rows.map((row) => [row.name.toLowerCase(), row.name])));
    // A failed load is retried by the next request.
    this.#zones.catch(() => {
      this.#zones = undefined;
    });
    return this.#zones;
  }

  async #stats(subject: StatsSubject, range: StatsRange): Promise<GroupStats> {
    // The series and the breakdowns are read at the same time, each on its own connection: two
    // for a link, three for an account, four for a tag (docs/performance.md).
    const connect = () => reader(this.#orm);
    const [series, ...breakdownRows] = await Promise.all([
      readSeries(connect(), subject, range),
      ...(subject.kind === 'tag'
        ? [readTagBreakdowns(connect, subject, range)]
        : BREAKDOWN_READS[subject.kind].map((part) => readBreakdowns(connect(), subject, range, part))),
    ]);
    const buckets = series.buckets;
    const totals = { clicks: 0, unique_visitors: 0 };
    for (const bucket of buckets) {
      totals.clicks += bucket.clicks;
      totals.unique_visitors += bucket.unique_visitors;
    }
    const breakdowns: GroupStats['breakdowns'] = {
      start: Number(series.bounds.daysStart),
      end: Number(series.bounds.daysEnd),
      referrers: [],
      devices: [],
      browsers: [],
      operating_systems: [],
      countries: [],
      cities: [],
      triggers: [],
    };
    const topLinks: TopLink[] = [];
    for (const row of breakdownRows.flat()) this.#place(row, breakdowns, topLinks);
    return {
      start: Number(series.bounds.start),
      end: Number(series.bounds.end),
      interval: range.interval,
      tz: range.tz,
      totals,
      series: buckets,
      breakdowns,
      top_links: topLinks,
    };
  }

  #place(row: BreakdownRow, breakdowns: GroupStats['breakdowns'], topLinks: TopLink[]): void {
    const clicks = Number(row.clicks);
    if (row.dimension === 'link') {
      if (row.slug === null || row.title === null) return;
      topLinks.push({ id: row.value, slug: row.slug, short_url: this.#urls.shortUrl(row.domain_id, row.slug), title: row.title, clicks });
      return;
    }
    if (row.dimension === 'city') {
      // Stored as the country's code, a tab and the name (click-batch.ts); '' when unknown.
      const tab = row.value.indexOf('\t');
      breakdowns.cities.push(
        tab < 0 ? { value: null, country: null, clicks } : { value: row.value.slice(tab + 1), country: row.value.slice(0, tab), clicks },
      );
      return;
    }
    const field = BREAKDOWNS[row.dimension as keyof typeof BREAKDOWNS];
    // Stored as '' when there is none (no referrer) or it is unknown (browser, country).
    const entry: BreakdownEntry = { value: row.value === '' ? null : row.value, clicks };
    if (field) breakdowns[field].push(entry);
  }
}
