import { Migration } from '@mikro-orm/migrations';

/**
 * The key of a tag's cached sums is a fingerprint (md5) of the tag's live links, not a list of
 * members: the column says so (services/tag-stats-cache.ts).
 */
export class Migration20261124130000_tag_links_fingerprint extends Migration {
  override async up(): Promise<void> {
    for (const table of ['tag_stats_day', 'tag_click_hourly', 'tag_click_daily_dimension']) {
      this.addSql(`alter table ${table} rename column members to links_fingerprint;`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['tag_stats_day', 'tag_click_hourly', 'tag_click_daily_dimension']) {
      this.addSql(`alter table ${table} rename column links_fingerprint to members;`);
    }
  }
}
