import { defineEntity, p } from '@mikro-orm/core';

/**
 * What GET /links?search= reads: each live link's searched fields as one lower-cased text. Kept by
 * triggers on `link`, never written by the application (migration ..._link_searched_text).
 */
export const LinkSearch = defineEntity({
  name: 'LinkSearch',
  tableName: 'link_search',
  // Indexes declared so schema diffs know it (created by the migration).
  indexes: [
    {
      name: 'link_search_account_created_idx',
      expression: 'create index link_search_account_created_idx on link_search (account_id, created_at desc, link_id desc)',
    },
    {
      name: 'link_search_text_idx',
      expression: 'create index link_search_text_idx on link_search using gin (searched_text gin_trgm_ops)',
    },
  ],
  properties: {
    link_id: p.text().primary(),
    account_id: p.text(),
    /** The link's, so a page of the default order is chosen here. */
    created_at: p.datetime(),
    /** title, destination_url, slug and external_id, each lower-cased, joined by a line feed. */
    searched_text: p.text(),
  },
});
