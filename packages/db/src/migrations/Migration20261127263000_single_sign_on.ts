import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on (docs/accounts.md, "Single sign-on"): who a provider's account is here. A person is
 * linked by the provider's `issuer` and `subject` at their first sign-in, so an email changed or
 * reassigned at the provider never moves the link to someone else.
 */
export class Migration20261127263000_single_sign_on extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sso_identity (
        issuer text not null,
        subject text not null,
        user_id text not null constraint sso_identity_user_id_foreign references app_user (id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (issuer, subject)
      );`);
    this.addSql('create index sso_identity_user_id_idx on sso_identity (user_id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table sso_identity;');
  }
}
