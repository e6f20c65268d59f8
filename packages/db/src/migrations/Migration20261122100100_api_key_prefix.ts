import { Migration } from '@mikro-orm/migrations';

/**
 * API keys are found by their non-secret prefix and then compared in constant time, instead of
 * being looked up by the hash of the whole secret (issue #5).
 */
export class Migration20261122100100_api_key_prefix extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index api_key_prefix_idx on api_key (prefix);');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists api_key_prefix_idx;');
  }
}
