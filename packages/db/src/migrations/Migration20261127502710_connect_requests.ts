import { Migration } from '@mikro-orm/migrations';

/**
 * The extension's Connect (issue #26, docs/accounts.md "Connect"): a person's approval (or refusal)
 * of a client's request for a key, found by the SHA-256 of the client's challenge, claimed once
 * within 10 minutes by the client holding the verifier. No secret is stored.
 */
export class Migration20261127502710_connect_requests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table connect_request (
        challenge_hash text primary key,
        client text not null,
        name text not null,
        scopes text[] not null,
        approved boolean not null,
        account_id text not null constraint connect_request_account_id_foreign references account (id) on delete cascade,
        user_id text not null constraint connect_request_user_id_foreign references app_user (id) on delete cascade,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        claimed_at timestamptz null
      );`);
    this.addSql('create index connect_request_expires_at_idx on connect_request (expires_at);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table connect_request;');
  }
}
