import { Migration } from '@mikro-orm/migrations';

/**
 * Taking a delivery (webhook-sender.ts) looks up, under its webhook's row lock, the webhook's oldest
 * due pending delivery and how many of its deliveries are in flight. With only the indexes of
 * Migration20261127112900_webhooks both read the webhook's whole history or backlog, so a backlog
 * of clicks (one delivery each) slowed every send down as it grew. These two answer each from the
 * rows that matter: the webhook's pending ones in due order, and the few in flight.
 */
export class Migration20261127502910_webhook_delivery_claim_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "create index webhook_delivery_webhook_pending_idx on webhook_delivery (webhook_id, next_attempt_at) where status = 'pending';",
    );
    this.addSql(
      "create index webhook_delivery_in_flight_idx on webhook_delivery (webhook_id) where status = 'pending' and claimed_until is not null;",
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index webhook_delivery_in_flight_idx;');
    this.addSql('drop index webhook_delivery_webhook_pending_idx;');
  }
}
