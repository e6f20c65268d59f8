import { Migration } from '@mikro-orm/migrations';

/**
 * Every change to what a link read answers (docs/architecture.md, "What a process keeps in
 * memory") is announced on `shortlinks_account_links` with the account's id, by triggers, so every
 * writer announces it: the API, the click recorder's click counts, the import, the CLI, SQL by hand.
 * A process answering `GET /links/{id}` from memory forgets that account's links when it hears it.
 *
 * - `link`: inserts, updates (click counts included) and deletes.
 * - `tag`: a renamed, recoloured or deleted tag changes the links that carry it.
 * - `link_tag`: a tag put on or taken off a link.
 *
 * Per statement, with the changed rows as a transition table: a click flush or a bulk write is one
 * announcement per account, not per row. PostgreSQL delivers them on commit, and delivers one of
 * identical announcements made in one transaction.
 */
export class Migration20261127090000_account_links_changes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function announce_account_links_of_links() returns trigger language plpgsql as $$
      begin
        perform pg_notify('shortlinks_account_links', account_id) from (select distinct account_id from changed) accounts;
        return null;
      end $$;`);
    this.addSql(`
      create function announce_account_links_of_link_tags() returns trigger language plpgsql as $$
      begin
        -- A row whose link is gone was deleted with it: the link's own announcement covers it.
        perform pg_notify('shortlinks_account_links', account_id)
        from (select distinct link.account_id from changed join link on link.id = changed.link_id) accounts;
        return null;
      end $$;`);
    for (const [table, fn] of [
      ['link', 'announce_account_links_of_links'],
      ['tag', 'announce_account_links_of_links'],
      ['link_tag', 'announce_account_links_of_link_tags'],
    ] as const) {
      this.addSql(
        `create trigger ${table}_inserted_announced after insert on ${table} referencing new table as changed for each statement execute function ${fn}();`,
      );
      this.addSql(
        `create trigger ${table}_updated_announced after update on ${table} referencing new table as changed for each statement execute function ${fn}();`,
      );
      this.addSql(
        `create trigger ${table}_deleted_announced after delete on ${table} referencing old table as changed for each statement execute function ${fn}();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const table of ['link', 'tag', 'link_tag']) {
      for (const change of ['inserted', 'updated', 'deleted'])
        this.addSql(`drop trigger if exists ${table}_${change}_announced on ${table};`);
    }
    this.addSql('drop function if exists announce_account_links_of_links(), announce_account_links_of_link_tags();');
  }
}
