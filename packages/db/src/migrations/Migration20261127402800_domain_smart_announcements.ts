import { Migration } from '@mikro-orm/migrations';

/**
 * Branded domains (issue #28) and smart links (issue #30) each replaced the link triggers'
 * functions of Migration20261127100000_link_slug_changes: Migration20261127112800_domains so an
 * announcement names the link's domain (`slug` on the server's domain, `dom_…/slug` on a branded
 * one: the redirect cache's key, redirect-key.ts), Migration20261127300000_smart_links so a change
 * of a smart field is announced. The later one ran last and announced bare slugs again; both
 * migrations stay as they were (databases have run them), and this one defines the functions with
 * both: domain-keyed announcements of every change to where or how a link redirects.
 */
export class Migration20261127402800_domain_smart_announcements extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function announce_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', key) from (
          select distinct ${KEY('changed')} as key from changed
        ) keys;
        return null;
      end $$;`);
    this.addSql(`
      create or replace function announce_changed_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', key) from (
          select ${KEY('old_link')} as key from old_link join new_link using (id) where ${REDIRECT_CHANGED}
          union
          select ${KEY('new_link')} from old_link join new_link using (id) where ${REDIRECT_CHANGED}
        ) keys;
        return null;
      end $$;`);
  }

  /** Back to the functions as Migration20261127300000_smart_links left them. */
  override async down(): Promise<void> {
    this.addSql(`
      create or replace function announce_changed_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', slug) from (
          select old_link.slug from old_link join new_link using (id) where ${SMART_REDIRECT_CHANGED}
          union
          select new_link.slug from old_link join new_link using (id) where ${SMART_REDIRECT_CHANGED}
        ) slugs;
        return null;
      end $$;`);
  }
}

/** A link row's key in the redirect cache and the announcements (redirect-key.ts). */
const KEY = (row: string) => `case when ${row}.domain_id is null then ${row}.slug else ${row}.domain_id || '/' || ${row}.slug end`;

/** As Migration20261127300000_smart_links: where a link redirects, and how (its smart fields). */
const SMART_REDIRECT_CHANGED = `(
  old_link.slug is distinct from new_link.slug or old_link.destination_url is distinct from new_link.destination_url
  or old_link.expires_at is distinct from new_link.expires_at or old_link.expiration_url is distinct from new_link.expiration_url
  or old_link.deleted_at is distinct from new_link.deleted_at
  or old_link.password_hash is distinct from new_link.password_hash or old_link.max_clicks is distinct from new_link.max_clicks
  or old_link.rules is distinct from new_link.rules or old_link.preview is distinct from new_link.preview
)`;

/** The smart links' change, plus the domain (which a live link never changes, as Migration20261127112800_domains says). */
const REDIRECT_CHANGED = `(
  ${SMART_REDIRECT_CHANGED.slice(1, -1).trim()}
  or old_link.domain_id is distinct from new_link.domain_id
)`;
