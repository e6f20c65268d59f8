import { defineEntity, p } from '@mikro-orm/core';
import { Link } from './link.ts';

/**
 * One counted visit of a short link: the raw event statistics are built on. Written in batches
 * by the click recorder, never on the redirect's response path.
 */
export const Click = defineEntity({
  name: 'Click',
  tableName: 'click',
  indexes: [{ name: 'click_link_occurred_idx', properties: ['link', 'occurred_at'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    link: () => p.manyToOne(Link).fieldName('link_id').columnType('text').deleteRule('cascade'),
    occurred_at: p.datetime(),
    /** Host of the Referer header, when there was one (never the full URL: it may carry personal data). */
    referrer_host: p.text().nullable(),
    /** desktop, mobile, tablet or unknown (bots are not recorded). */
    agent_class: p.text(),
  },
});
