import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations (docs/accounts.md, "Invitations"): an admin or owner asks someone, by email, to join
 * a workspace with a role. Only the SHA-256 of the link's secret is stored (`token_hash`), so a copy
 * of the database holds no working link. An invitation is live while it is neither accepted, nor
 * revoked, nor past `expires_at` (7 days after it was made); accepting sets `accepted_at` where it is
 * still null, so a link works once.
 */
export class Migration20261127261000_invitations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table invitation (
        id text primary key,
        account_id text not null constraint invitation_account_id_foreign references account (id) on delete cascade,
        email text not null check (length(email) between 3 and 254),
        role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
        token_hash text not null,
        invited_by_user_id text null constraint invitation_invited_by_user_id_foreign references app_user (id) on delete set null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        accepted_at timestamptz null,
        accepted_by_user_id text null constraint invitation_accepted_by_user_id_foreign references app_user (id) on delete set null,
        revoked_at timestamptz null
      );`);
    this.addSql('create unique index invitation_token_hash_key on invitation (token_hash);');
    this.addSql('create index invitation_account_id_idx on invitation (account_id, created_at);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table invitation;');
  }
}
