import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log (issue #27, docs/accounts.md "The audit log"): one row per committed change of a
 * workspace, written in the change's transaction. Each listing is newest first (created_at desc,
 * id desc) within one account, alone or filtered by who acted, what it was about, or the action:
 * one index each, so a page is read from its index in order. `created_at` is the row's own
 * clock_timestamp(), taken when the transaction writes its entries, after its locks: two changes
 * of one link are then ordered as they committed (now() would be when each transaction began).
 * The retention sweep deletes by `created_at` alone (audit_entry_created_idx).
 */
export class Migration20261128601000_audit_log extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table audit_entry (
      id text primary key,
      account_id text not null references account (id) on update cascade on delete cascade,
      action text not null,
      actor_type text not null check (actor_type in ('user', 'key', 'system')),
      actor_id text not null,
      actor_name text not null,
      resource_type text not null,
      resource_id text not null,
      changes jsonb not null default '{}'::jsonb,
      ip text null,
      created_at timestamptz not null default clock_timestamp()
    );`);
    this.addSql('create index audit_entry_account_idx on audit_entry (account_id, created_at desc, id desc);');
    this.addSql('create index audit_entry_actor_idx on audit_entry (account_id, actor_id, created_at desc, id desc);');
    this.addSql('create index audit_entry_resource_idx on audit_entry (account_id, resource_id, created_at desc, id desc);');
    this.addSql('create index audit_entry_action_idx on audit_entry (account_id, action, created_at desc, id desc);');
    this.addSql('create index audit_entry_created_idx on audit_entry (created_at);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table audit_entry;');
  }
}
