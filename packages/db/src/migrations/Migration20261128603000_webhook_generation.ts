import { Migration } from '@mikro-orm/migrations';

/**
 * `account.webhook_generation`: counts the times a webhook of the account became enabled (made
 * enabled, or enabled again). A write transaction reads it with the account's row (the lock it
 * takes anyway), so a process that saw the account with no enabled webhook at this generation
 * knows, without reading the webhooks, that nothing is subscribed (webhooks/webhook-outbox.ts,
 * docs/webhooks.md "How it works"). Bumped by triggers, so every writer bumps it: the API, the
 * CLI, SQL by hand.
 *
 * Only becoming enabled counts: a process reads the webhooks whenever it last saw any enabled, so
 * a webhook disabled, deleted or subscribed to other events is seen by the next write anyway. So
 * the sender's disabling (which holds the webhook's row first) never touches the account's row.
 */
export class Migration20261128603000_webhook_generation extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table account add column webhook_generation bigint not null default 0;');
    this.addSql(`
      create function webhook_enabled_counted() returns trigger language plpgsql as $$
      begin
        update account set webhook_generation = webhook_generation + 1 where id = new.account_id;
        return null;
      end $$;`);
    this.addSql(`create trigger webhook_inserted_enabled after insert on webhook
      for each row when (new.enabled) execute function webhook_enabled_counted();`);
    this.addSql(`create trigger webhook_updated_enabled after update of enabled, account_id on webhook
      for each row when (new.enabled and (not old.enabled or new.account_id is distinct from old.account_id))
      execute function webhook_enabled_counted();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists webhook_updated_enabled on webhook;');
    this.addSql('drop trigger if exists webhook_inserted_enabled on webhook;');
    this.addSql('drop function if exists webhook_enabled_counted();');
    this.addSql('alter table account drop column webhook_generation;');
  }
}
