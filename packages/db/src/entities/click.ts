import { defineEntity, p } from '@mikro-orm/core';
import { Link } from './link.ts';

/**
 * Counted visits of a short link: the raw events statistics are built on. Written in batches by
 * the click recorder, never on the redirect's response path. Times are whole seconds, and
 * identical visits within one second share a row, counted in `clicks` (a burst on a popular
 * link costs one row per second, not one per visit).
 */
export const Click = defineEntity({
  name: 'Click',
  tableName: 'click',
  indexes: [{ name: 'click_link_occurred_idx', properties: ['link', 'occurred_at'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    link: () => p.manyToOne(Link).fieldName('link_id').columnType('text').deleteRule('cascade'),
    /** The second the visits happened in. */
    occurred_at: p.datetime(),
    /** Host of the Referer header, when there was one (never the full URL: it may carry personal data). */
    referrer_host: p.text().nullable(),
    /** desktop, mobile, tablet or unknown (bots are not recorded). */
    agent_class: p.text(),
    /** Browser name as Bowser reports it (e.g. `Chrome`), when recognised. */
    browser: p.text().nullable(),
    /** Operating system name as Bowser reports it (e.g. `iOS`), when recognised. */
    os: p.text().nullable(),
    /** ISO 3166-1 alpha-2 country: the trusted proxy header's, else the IP database's (docs/statistics.md); null unknown. */
    country: p.text().nullable(),
    /** The city the IP database placed the visitor in, within `country`; null unknown. */
    city: p.text().nullable(),
    /** `link`, or `qr` for a scan of the link's QR code (`?qr=1`). */
    trigger: p.text().default('link'),
    /** The visitor's hash for that UTC day (salted, rotating daily: docs/statistics.md); never an IP. */
    visitor: p.bigint('string').nullable(),
    /** How many identical visits this row stands for (at least 1). */
    clicks: p.integer().check('clicks > 0'),
  },
});
