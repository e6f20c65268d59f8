import { Migration } from '@mikro-orm/migrations';

/**
 * What GET /links?search= reads (docs/performance.md, bench:list): one lower-cased text per live
 * link in a narrow table of its own, `link_search`, kept by triggers on `link`, with one trigram
 * index. It replaces `link_search_idx`, the trigram index of the four columns on `link`, with which
 * a search was four index scans ORed together, then a recheck of four `ilike` (each lower-casing
 * its column again) on every candidate's wide link row; at a million links a word in 1 link in 15
 * took 110 ms to count, and a product code 20–40 ms in the index alone.
 *
 * - `searched_text`: title, destination_url, slug and external_id, each lower-cased, joined by a
 *   line feed. A search may not hold a control character (the contract refuses it), so a match
 *   never spans two fields, and `searched_text like lower('%text%')` finds exactly the links that
 *   `ilike '%text%'` finds in one of the four (PostgreSQL's `ilike` is `lower()` of both sides).
 * - Only live links have a row: a count reads this table alone, never `link`.
 * - `created_at` (the link's) and `link_search_account_created_idx`: a page of the default order
 *   is chosen here, so `link` is read for the links of the page only. A broad search walks this
 *   index newest first and stops at the page's end; a narrow one sorts the few rows the trigram
 *   index found.
 * - The rows are made by triggers, so every writer (the API, the import, the CLI, SQL by hand) keeps
 *   them: inserts per statement (a bulk create or an import is one insert of many rows), changes of
 *   a searched field or of `deleted_at` per row (click counts do not fire it), hard deletes by the
 *   foreign key's cascade.
 */
export class Migration20261126080000_link_searched_text extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function link_searched_text(title text, destination_url text, slug text, external_id text) returns text
      language sql immutable parallel safe as $$
        select lower(title) || E'\\n' || lower(destination_url) || E'\\n' || lower(slug) || E'\\n' || coalesce(lower(external_id), '')
      $$;`);
    this.addSql(`
      create table link_search (
        link_id text primary key constraint link_search_link_id_foreign references link (id) on update cascade on delete cascade,
        account_id text not null,
        created_at timestamptz not null,
        searched_text text not null
      );`);
    this.addSql(`
      create function link_search_inserted() returns trigger language plpgsql as $$
      begin
        insert into link_search (link_id, account_id, created_at, searched_text)
        select id, account_id, created_at, link_searched_text(title, destination_url, slug, external_id) from inserted
        where deleted_at is null;
        return null;
      end $$;`);
    this.addSql(`
      create function link_search_changed() returns trigger language plpgsql as $$
      begin
        if new.deleted_at is null then
          insert into link_search (link_id, account_id, created_at, searched_text)
          values (new.id, new.account_id, new.created_at, link_searched_text(new.title, new.destination_url, new.slug, new.external_id))
          on conflict (link_id) do update
          set account_id = excluded.account_id, created_at = excluded.created_at, searched_text = excluded.searched_text;
        else
          delete from link_search where link_id = new.id;
        end if;
        return null;
      end $$;`);
    // The triggers first: creating them locks out writers until the migration commits, so no link
    // is written between the copy below and the triggers that keep it.
    this.addSql(
      'create trigger link_search_inserted after insert on link referencing new table as inserted for each statement execute function link_search_inserted();',
    );
    this.addSql(`
      create trigger link_search_changed
      after update of title, destination_url, slug, external_id, deleted_at, account_id, created_at on link
      for each row when (
        old.title is distinct from new.title or old.destination_url is distinct from new.destination_url
        or old.slug is distinct from new.slug or old.external_id is distinct from new.external_id
        or old.account_id is distinct from new.account_id or old.created_at is distinct from new.created_at
        or (old.deleted_at is null) <> (new.deleted_at is null)
      ) execute function link_search_changed();`);
    // In the order of the default list, so the links of one account sit together.
    this.addSql(`
      insert into link_search (link_id, account_id, created_at, searched_text)
      select id, account_id, created_at, link_searched_text(title, destination_url, slug, external_id) from link
      where deleted_at is null order by account_id, created_at desc, id desc;`);
    this.addSql('create index link_search_text_idx on link_search using gin (searched_text gin_trgm_ops);');
    this.addSql('create index link_search_account_created_idx on link_search (account_id, created_at desc, link_id desc);');
    this.addSql('drop index link_search_idx;');
    this.addSql('analyze link_search;');
  }

  override async down(): Promise<void> {
    this.addSql(
      'create index link_search_idx on link using gin (title gin_trgm_ops, destination_url gin_trgm_ops, slug gin_trgm_ops, external_id gin_trgm_ops) where deleted_at is null;',
    );
    this.addSql('drop trigger link_search_changed on link;');
    this.addSql('drop trigger link_search_inserted on link;');
    this.addSql('drop table link_search;');
    this.addSql('drop function link_search_changed();');
    this.addSql('drop function link_search_inserted();');
    this.addSql('drop function link_searched_text(text, text, text, text);');
  }
}
