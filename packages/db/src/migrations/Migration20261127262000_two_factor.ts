import { Migration } from '@mikro-orm/migrations';

/**
 * Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"):
 * - `two_factor`: a person's TOTP secret (readable: it is a shared key), on once `enabled_at` is
 *   set by a first code; the last time step used (a code of it or earlier is refused: no replay);
 *   the SHA-256 of each unused recovery code, space-separated. Both are written conditionally on
 *   their old value, so one code cannot be used twice by two requests at once.
 * - `pending_sign_in`: the second step of a sign-in whose password passed: only the SHA-256 of its
 *   cookie's secret, a short life, and its failed codes (few, then it ends).
 * - `account.require_two_factor`: the owner requires two-factor of everyone working in the workspace.
 */
export class Migration20261127262000_two_factor extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table two_factor (
        user_id text primary key constraint two_factor_user_id_foreign references app_user (id) on delete cascade,
        secret text not null,
        enabled_at timestamptz null,
        last_used_step integer null,
        recovery_code_hashes text not null default '',
        created_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table pending_sign_in (
        id text primary key,
        token_hash text not null,
        user_id text not null constraint pending_sign_in_user_id_foreign references app_user (id) on delete cascade,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        failed_codes integer not null default 0,
        ended_at timestamptz null
      );`);
    this.addSql('create unique index pending_sign_in_token_hash_key on pending_sign_in (token_hash);');
    this.addSql('alter table account add column require_two_factor boolean not null default false;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table account drop column require_two_factor;');
    this.addSql('drop table pending_sign_in;');
    this.addSql('drop table two_factor;');
  }
}
