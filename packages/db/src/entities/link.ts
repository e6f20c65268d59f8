import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { Domain } from './domain.ts';

/**
 * A short link. Deleted links keep their row (deleted_at set) so click history survives,
 * but their slug and external_id become reusable: the unique indexes are partial on live rows.
 */
export const Link = defineEntity({
  name: 'Link',
  tableName: 'link',
  // Partial and expression indexes, declared so schema diffs know them (created by the migration).
  indexes: [
    // Slugs are unique per domain; a null domain_id is the server's own domain (docs/domains.md).
    {
      name: 'link_slug_live_key',
      expression: "create unique index link_slug_live_key on link ((coalesce(domain_id, '')), slug) where deleted_at is null",
    },
    {
      name: 'link_domain_live_idx',
      expression: 'create index link_domain_live_idx on link (domain_id) where deleted_at is null and domain_id is not null',
    },
    {
      name: 'link_external_id_live_key',
      expression:
        'create unique index link_external_id_live_key on link (account_id, external_id) where deleted_at is null and external_id is not null',
    },
    {
      name: 'link_account_created_idx',
      expression: 'create index link_account_created_idx on link (account_id, created_at desc, id desc) where deleted_at is null',
    },
    {
      name: 'link_account_destination_idx',
      expression: 'create index link_account_destination_idx on link (account_id, md5(destination_url)) where deleted_at is null',
    },
    {
      name: 'link_account_clicks_idx',
      expression: 'create index link_account_clicks_idx on link (account_id, click_count desc, id desc) where deleted_at is null',
    },
    {
      name: 'link_account_title_idx',
      expression: 'create index link_account_title_idx on link (account_id, lower(title), title, id) where deleted_at is null',
    },
  ],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    /** The branded domain the link lives on; null: the server's own (SHORT_DOMAIN). */
    domain: () => p.manyToOne(Domain).fieldName('domain_id').columnType('text').nullable().deleteRule('set null'),
    slug: p.string().length(64),
    destination_url: p.text(),
    title: p.text(),
    external_id: p.text().nullable(),
    comments: p.text().nullable(),
    expires_at: p.datetime().nullable(),
    expiration_url: p.text().nullable(),
    /** Smart links (docs/redirects.md): the password's argon2id hash (PHC string), never the password. */
    password_hash: p.text().nullable(),
    max_clicks: p.integer().nullable(),
    /** The redirect rules and the preview, as JSON text (parsed where the link is read). */
    rules: p.text().nullable(),
    preview: p.text().nullable(),
    click_count: p.bigint('number').defaultRaw('0'),
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
    updated_at: p.datetime().defaultRaw('now()'),
    deleted_at: p.datetime().nullable(),
  },
});
