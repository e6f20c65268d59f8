import { Migration } from '@mikro-orm/migrations';

/**
 * Identical visits (one link, one second, one referrer host, one agent class) share a click row,
 * and `clicks` says how many they were: a burst on a popular link costs one row per second.
 * Rows written before this migration stood for one visit each.
 */
export class Migration20261122020000_click_groups extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table click add column clicks integer not null default 1 check (clicks > 0);');
    this.addSql('alter table click alter column clicks drop default;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table click drop column clicks;');
  }
}
