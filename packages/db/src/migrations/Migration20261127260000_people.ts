import { Migration } from '@mikro-orm/migrations';

/**
 * People (docs/accounts.md): users who sign in, their memberships of workspaces with a role, their
 * sessions, and one-time links that set a password. A workspace is today's `account`: its links,
 * tags, limits and keys stay where they are, so nothing existing moves. Existing keys get no maker
 * (`created_by_user_id` null) and keep acting with every right in their workspace.
 *
 * Two-factor secrets, recovery codes and invitations get tables of their own in later migrations,
 * each keyed by `app_user.id` or `account.id`.
 */
export class Migration20261127260000_people extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table app_user (
        id text primary key,
        email text not null check (length(email) between 3 and 254),
        password_hash text,
        created_at timestamptz not null default now(),
        password_changed_at timestamptz
      );`);
    // One person per address, whatever its case.
    this.addSql('create unique index app_user_email_key on app_user (lower(email));');
    this.addSql(`
      create table membership (
        user_id text not null constraint membership_user_id_foreign references app_user (id) on delete cascade,
        account_id text not null constraint membership_account_id_foreign references account (id) on delete cascade,
        role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
        created_at timestamptz not null default now(),
        primary key (user_id, account_id)
      );`);
    this.addSql('create index membership_account_id_idx on membership (account_id);');
    this.addSql(`
      create table user_session (
        id text primary key,
        token_hash text not null,
        user_id text not null constraint user_session_user_id_foreign references app_user (id) on delete cascade,
        account_id text not null constraint user_session_account_id_foreign references account (id) on delete cascade,
        csrf_token text not null,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now(),
        expires_at timestamptz not null,
        user_agent text,
        ip text,
        revoked_at timestamptz
      );`);
    this.addSql('create unique index user_session_token_hash_key on user_session (token_hash);');
    this.addSql('create index user_session_user_id_idx on user_session (user_id);');
    this.addSql('create index user_session_account_id_idx on user_session (account_id);');
    this.addSql(`
      create table password_link (
        id text primary key,
        token_hash text not null,
        purpose text not null check (purpose in ('setup', 'password')),
        user_id text constraint password_link_user_id_foreign references app_user (id) on delete cascade,
        account_id text constraint password_link_account_id_foreign references account (id) on delete cascade,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz
      );`);
    this.addSql('create unique index password_link_token_hash_key on password_link (token_hash);');
    this.addSql(
      'alter table api_key add column created_by_user_id text null constraint api_key_created_by_user_id_foreign references app_user (id) on delete set null;',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table api_key drop column created_by_user_id;');
    this.addSql('drop table password_link;');
    this.addSql('drop table user_session;');
    this.addSql('drop table membership;');
    this.addSql('drop table app_user;');
  }
}
