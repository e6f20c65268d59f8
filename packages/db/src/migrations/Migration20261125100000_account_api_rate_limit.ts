import { Migration } from '@mikro-orm/migrations';

/** The operator's per-account API rate limit (`pnpm shortlinks account update --rate-limit`): null follows the plan, 0 is none. */
export class Migration20261125100000_account_api_rate_limit extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table account add column api_rate_limit integer null check (api_rate_limit >= 0);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table account drop column api_rate_limit;');
  }
}
