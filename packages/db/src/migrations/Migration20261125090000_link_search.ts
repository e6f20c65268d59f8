import { Migration } from '@mikro-orm/migrations';

/**
 * Search and sort in GET /links (docs/api-decisions.md, "Search and sort"), fast at a million links
 * in one account (docs/performance.md, bench:list):
 *
 * - `pg_trgm` is a trusted extension (PostgreSQL 13 and later): the database's owner, which the
 *   application's role is, may create it. On a database where the role may not, an administrator
 *   runs `create extension pg_trgm` once, before the server starts, and this finds it there.
 * - `link_search_idx`: trigrams of the four searched columns of live links, which an `ilike
 *   '%text%'` of three characters or more reads instead of every link of the account.
 * - `link_account_clicks_idx` and `link_account_title_idx`: the two new orders, read in order, so a
 *   page needs no sort of all the account's links. The tie-breaker (id) is in each.
 *
 * - `account.live_link_count`: the account's live links, kept by triggers on `link`, so the `total`
 *   of an unfiltered list is read, not counted (counting a million links took 340 ms and more).
 * - `link_tag_tag_link_idx` (tag, link) replaces `link_tag_tag_id_idx` (tag): a tag filter's total
 *   is counted in it alone (index-only), since deleting a link detaches its tags.
 *
 * Indexing click_count means the click recorder's `update link set click_count` can no longer be
 * a HOT update: each batch writes new index entries for the links it counted (docs/performance.md).
 */
export class Migration20261125090000_link_search extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(
      'create index link_search_idx on link using gin (title gin_trgm_ops, destination_url gin_trgm_ops, slug gin_trgm_ops, external_id gin_trgm_ops) where deleted_at is null;',
    );
    this.addSql('create index link_account_clicks_idx on link (account_id, click_count desc, id desc) where deleted_at is null;');
    this.addSql('create index link_account_title_idx on link (account_id, lower(title), title, id) where deleted_at is null;');
    this.addSql('create index link_tag_tag_link_idx on link_tag (tag_id, link_id);');
    this.addSql('drop index link_tag_tag_id_idx;');

    this.addSql('alter table account add column live_link_count bigint not null default 0;');
    this.addSql(
      'update account set live_link_count = (select count(*) from link where link.account_id = account.id and link.deleted_at is null);',
    );
    // Inserts (one link, or many in one statement) and hard deletes count once per statement;
    // a deletion (deleted_at set) once per row, and only when the link was live.
    this.addSql(`
      create function link_count_inserted() returns trigger language plpgsql as $$
      begin
        update account set live_link_count = live_link_count + added.links
        from (select account_id, count(*) as links from inserted where deleted_at is null group by account_id) added
        where account.id = added.account_id;
        return null;
      end $$;`);
    this.addSql(`
      create function link_count_removed() returns trigger language plpgsql as $$
      begin
        update account set live_link_count = live_link_count - removed.links
        from (select account_id, count(*) as links from removed where deleted_at is null group by account_id) removed
        where account.id = removed.account_id;
        return null;
      end $$;`);
    this.addSql(`
      create function link_count_liveness_changed() returns trigger language plpgsql as $$
      begin
        update account set live_link_count = live_link_count + case when new.deleted_at is null then 1 else -1 end
        where id = new.account_id;
        return null;
      end $$;`);
    this.addSql(
      'create trigger link_count_inserted after insert on link referencing new table as inserted for each statement execute function link_count_inserted();',
    );
    this.addSql(
      'create trigger link_count_removed after delete on link referencing old table as removed for each statement execute function link_count_removed();',
    );
    // Only a change of deleted_at between null and a time fires it: click counts and edits do not.
    this.addSql(`
      create trigger link_count_liveness_changed after update of deleted_at on link for each row
      when ((old.deleted_at is null) <> (new.deleted_at is null)) execute function link_count_liveness_changed();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger link_count_liveness_changed on link;');
    this.addSql('drop trigger link_count_removed on link;');
    this.addSql('drop trigger link_count_inserted on link;');
    this.addSql('drop function link_count_liveness_changed();');
    this.addSql('drop function link_count_removed();');
    this.addSql('drop function link_count_inserted();');
    this.addSql('alter table account drop column live_link_count;');
    this.addSql('create index link_tag_tag_id_idx on link_tag (tag_id);');
    this.addSql('drop index link_tag_tag_link_idx;');
    this.addSql('drop index link_account_title_idx;');
    this.addSql('drop index link_account_clicks_idx;');
    this.addSql('drop index link_search_idx;');
    // The extension stays: something else of the database may use it.
  }
}
