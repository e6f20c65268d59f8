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
  }

  override async down(): Promise<void> {
    this.addSql('drop index link_account_title_idx;');
    this.addSql('drop index link_account_clicks_idx;');
    this.addSql('drop index link_search_idx;');
    // The extension stays: something else of the database may use it.
  }
}
