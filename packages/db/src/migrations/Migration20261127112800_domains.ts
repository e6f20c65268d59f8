import { Migration } from '@mikro-orm/migrations';

/**
 * Branded domains (docs/domains.md): the `domain` table, and links on them.
 *
 * - A name is added once per account; verified by one account at a time (the first to verify
 *   holds it: `domain_verified_name_key`); one default domain per account.
 * - `link.domain_id` null is the server's own domain (SHORT_DOMAIN), so every existing link stays
 *   where it is. Live slugs are unique per domain: `link_slug_live_key` becomes
 *   (coalesce(domain_id, ''), slug).
 * - A link's redirect change is announced as `slug` on the server's domain, as before, and as
 *   `dom_…/slug` on a branded one (a slug never holds `/`): the redirect cache's key.
 * - Every change to a domain is announced on `shortlinks_domain_changes` with its id, so every
 *   process learns at once which hosts it serves.
 */
export class Migration20261127112800_domains extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table domain (
        id text primary key,
        account_id text not null constraint domain_account_id_foreign references account (id) on delete cascade,
        name text not null,
        verification_token text not null,
        verified_at timestamptz,
        last_checked_at timestamptz,
        last_check_error text,
        record_missing_since timestamptz,
        root_redirect_url text,
        not_found_url text,
        is_default boolean not null default false,
        created_at timestamptz not null default clock_timestamp()
      );`);
    this.addSql('create unique index domain_account_name_key on domain (account_id, name);');
    this.addSql('create unique index domain_verified_name_key on domain (name) where verified_at is not null;');
    this.addSql('create unique index domain_account_default_key on domain (account_id) where is_default;');

    this.addSql('alter table link add column domain_id text constraint link_domain_id_foreign references domain (id) on delete set null;');
    this.addSql('drop index link_slug_live_key;');
    this.addSql("create unique index link_slug_live_key on link ((coalesce(domain_id, '')), slug) where deleted_at is null;");
    this.addSql('create index link_domain_live_idx on link (domain_id) where deleted_at is null and domain_id is not null;');

    this.addSql(`
      create or replace function announce_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', key) from (
          select distinct case when domain_id is null then slug else domain_id || '/' || slug end as key from changed
        ) keys;
        return null;
      end $$;`);
    this.addSql(`
      create or replace function announce_changed_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', key) from (
          select case when old_link.domain_id is null then old_link.slug else old_link.domain_id || '/' || old_link.slug end as key
          from old_link join new_link using (id) where ${REDIRECT_CHANGED}
          union
          select case when new_link.domain_id is null then new_link.slug else new_link.domain_id || '/' || new_link.slug end
          from old_link join new_link using (id) where ${REDIRECT_CHANGED}
        ) keys;
        return null;
      end $$;`);

    this.addSql(`
      create function announce_domain_changes() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_domain_changes', id) from (select id from changed) ids;
        return null;
      end $$;`);
    for (const [event, table] of [
      ['insert', 'new table as changed'],
      ['update', 'new table as changed'],
      ['delete', 'old table as changed'],
    ]) {
      this.addSql(
        `create trigger domain_${event}_announced after ${event} on domain referencing ${table} for each statement execute function announce_domain_changes();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const event of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists domain_${event}_announced on domain;`);
    this.addSql('drop function if exists announce_domain_changes();');
    this.addSql('drop index if exists link_domain_live_idx;');
    this.addSql('drop index if exists link_slug_live_key;');
    this.addSql('create unique index link_slug_live_key on link (slug) where deleted_at is null;');
    this.addSql('alter table link drop column if exists domain_id;');
    this.addSql('drop table if exists domain;');
  }
}

/** As Migration20261127100000_link_slug_changes, plus the domain (which a live link never changes). */
const REDIRECT_CHANGED = `(
  old_link.slug is distinct from new_link.slug or old_link.destination_url is distinct from new_link.destination_url
  or old_link.expires_at is distinct from new_link.expires_at or old_link.expiration_url is distinct from new_link.expiration_url
  or old_link.deleted_at is distinct from new_link.deleted_at or old_link.domain_id is distinct from new_link.domain_id
)`;
