import { Migration } from '@mikro-orm/migrations';

/**
 * New deliveries enter the queue with one `graphile_worker.add_jobs` call per statement, not one
 * `add_job` per row (Migration20261127112900_webhooks). A click flush writes one `link.clicked`
 * delivery per click: with `add_job` per row each cost about 2 ms, so a flush of 10,000 clicks
 * outlasted the statement bound (DATABASE_QUERY_TIMEOUT_MS), was cut at every attempt, and the
 * server stopped counting clicks at all while a webhook subscribed to them (docs/webhooks.md,
 * "Clicks"). In one call the rows cost about 60 µs each. Same jobs, same keys, same transaction.
 */
export class Migration20261127502900_webhook_enqueue_in_batches extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function webhook_delivery_enqueue() returns trigger language plpgsql as $$
      begin
        if to_regnamespace('graphile_worker') is not null then
          perform graphile_worker.add_jobs(array(
            select row('webhook_delivery', json_build_object('id', added.id), null, null, null,
              'webhook_delivery:' || added.id, null, null)::graphile_worker.job_spec
            from added));
        end if;
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function webhook_delivery_enqueue() returns trigger language plpgsql as $$
      begin
        if to_regnamespace('graphile_worker') is not null then
          perform graphile_worker.add_job('webhook_delivery', json_build_object('id', added.id), job_key := 'webhook_delivery:' || added.id)
            from added;
        end if;
        return null;
      end $$;`);
  }
}
