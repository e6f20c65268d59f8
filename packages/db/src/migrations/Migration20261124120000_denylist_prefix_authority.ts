import { Migration } from '@mikro-orm/migrations';

/**
 * URL-prefix entries of the denylist are found by the host and port they name (whatever their
 * scheme), so the check stays one indexed query while prefixes are matched ignoring scheme, case,
 * escapes and repeated slashes. Stored values are WHATWG-serialised URLs (`https://host:port/…`),
 * so the expression reads the authority straight out of them: existing entries need no rewrite.
 */
export class Migration20261124120000_denylist_prefix_authority extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index denylist_entry_prefix_authority_idx on denylist_entry ((substring(value from '^[a-z]+://([^/]*)')));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists denylist_entry_prefix_authority_idx;');
  }
}
