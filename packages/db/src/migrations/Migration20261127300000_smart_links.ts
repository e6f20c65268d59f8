import { Migration } from '@mikro-orm/migrations';

/**
 * Smart links (issue #30, docs/redirects.md): a link's password (its argon2id hash), click limit,
 * redirect rules and social preview; the count of redirects a limited link has given; and the
 * server's secrets (the key that signs a password-protected link's cookie), shared by every
 * instance and kept across restarts.
 *
 * A change of any of the four fields changes where or how the slug redirects, so the trigger of
 * Migration20261127100000_link_slug_changes announces it too (its function, replaced here).
 */
export class Migration20261127300000_smart_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table link
      add column password_hash text null,
      add column max_clicks integer null check (max_clicks between 1 and 1000000000),
      add column rules text null,
      add column preview text null;`);
    this.addSql(`create table link_click_limit (
      link_id text primary key references link (id) on delete cascade,
      redirected bigint not null default 0
    );`);
    this.addSql(`create table server_secret (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );`);
    this.addSql(`
      create or replace function announce_changed_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', slug) from (
          select old_link.slug from old_link join new_link using (id) where ${REDIRECT_CHANGED}
          union
          select new_link.slug from old_link join new_link using (id) where ${REDIRECT_CHANGED}
        ) slugs;
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists link_click_limit, server_secret;');
    this.addSql('alter table link drop column password_hash, drop column max_clicks, drop column rules, drop column preview;');
  }
}

/** A change to where or how the link redirects: what the redirect cache holds of it (redirect-cache.ts). */
const REDIRECT_CHANGED = `(
  old_link.slug is distinct from new_link.slug or old_link.destination_url is distinct from new_link.destination_url
  or old_link.expires_at is distinct from new_link.expires_at or old_link.expiration_url is distinct from new_link.expiration_url
  or old_link.deleted_at is distinct from new_link.deleted_at
  or old_link.password_hash is distinct from new_link.password_hash or old_link.max_clicks is distinct from new_link.max_clicks
  or old_link.rules is distinct from new_link.rules or old_link.preview is distinct from new_link.preview
)`;
