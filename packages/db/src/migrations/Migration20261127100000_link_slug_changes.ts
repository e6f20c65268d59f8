import { Migration } from '@mikro-orm/migrations';

/**
 * Every change to where a slug redirects is announced on `shortlinks_link_changes` with the slug,
 * by triggers, so every writer announces it: the API, the CLI's import, SQL by hand. Before, the
 * API's writes announced the slug themselves, and a link imported or changed any other way was
 * never announced: a running server kept redirecting it the old way, or kept answering 404 for an
 * imported slug it had been asked for before (docs/redirects.md).
 *
 * - Inserts and deletes announce their slugs.
 * - Updates announce the old and the new slug of each link whose slug, destination, expiry,
 *   fallback or deletion changed. A click count is none of these: a click flush announces nothing
 *   here, so the redirect cache keeps what it holds.
 *
 * Per statement, with the changed rows as transition tables. PostgreSQL delivers them on commit,
 * and delivers one of identical announcements made in one transaction.
 */
export class Migration20261127100000_link_slug_changes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function announce_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', slug) from (select distinct slug from changed) slugs;
        return null;
      end $$;`);
    this.addSql(`
      create function announce_changed_link_slugs() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_link_changes', slug) from (
          select old_link.slug from old_link join new_link using (id) where ${REDIRECT_CHANGED}
          union
          select new_link.slug from old_link join new_link using (id) where ${REDIRECT_CHANGED}
        ) slugs;
        return null;
      end $$;`);
    this.addSql(
      'create trigger link_inserted_slugs_announced after insert on link referencing new table as changed for each statement execute function announce_link_slugs();',
    );
    this.addSql(
      'create trigger link_deleted_slugs_announced after delete on link referencing old table as changed for each statement execute function announce_link_slugs();',
    );
    this.addSql(
      'create trigger link_updated_slugs_announced after update on link referencing old table as old_link new table as new_link for each statement execute function announce_changed_link_slugs();',
    );
  }

  override async down(): Promise<void> {
    for (const change of ['inserted', 'deleted', 'updated']) this.addSql(`drop trigger if exists link_${change}_slugs_announced on link;`);
    this.addSql('drop function if exists announce_link_slugs(), announce_changed_link_slugs();');
  }
}

/** A change to where the link redirects: what the redirect cache holds of it (redirect-cache.ts). */
const REDIRECT_CHANGED = `(
  old_link.slug is distinct from new_link.slug or old_link.destination_url is distinct from new_link.destination_url
  or old_link.expires_at is distinct from new_link.expires_at or old_link.expiration_url is distinct from new_link.expiration_url
  or old_link.deleted_at is distinct from new_link.deleted_at
)`;
