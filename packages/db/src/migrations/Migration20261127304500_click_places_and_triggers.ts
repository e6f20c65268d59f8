import { Migration } from '@mikro-orm/migrations';

const DIMENSION_TABLES = [
  { table: 'click_daily_dimension', key: 'link_id' },
  { table: 'account_click_daily_dimension', key: 'account_id' },
  { table: 'tag_click_daily_dimension', key: 'tag_id, links_fingerprint' },
] as const;

/**
 * Clicks gain a city (looked up in the IP database when clicks are written) and a trigger (`link`,
 * or `qr` for a scan of the link's QR code): docs/statistics.md. The breakdowns keep both as
 * dimensions of the daily rollups, like the country.
 *
 * Every click before this one came from the link and has no known city: the rollups get those
 * rows now (one per device row, which every click has exactly one of), so a breakdown of cities or
 * triggers sums to the same clicks as the others over any range.
 */
export class Migration20261127304500_click_places_and_triggers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table click add column city text null, add column trigger text not null default 'link';`);
    for (const { table, key } of DIMENSION_TABLES) {
      this.addSql(`
        insert into ${table} (${key}, day, dimension, value, clicks)
        select ${key}, day, added.dimension, added.value, sum(clicks)
        from ${table} cross join (values ('city', ''), ('trigger', 'link')) added (dimension, value)
        where ${table}.dimension = 'device'
        group by ${key}, day, added.dimension, added.value
        on conflict do nothing;`);
    }
  }

  override async down(): Promise<void> {
    for (const { table } of DIMENSION_TABLES) this.addSql(`delete from ${table} where dimension in ('city', 'trigger');`);
    this.addSql('alter table click drop column city, drop column trigger;');
  }
}
