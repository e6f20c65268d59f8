import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { type Db, inTransaction } from '../database/database.ts';
import { Changes } from '../events/change-log.ts';
import { recordChange } from '../events/record-change.ts';
import { type PostOutcome, postWebhook } from './webhook-post.ts';
import { signatureHeader } from './webhook-secret.ts';
import { DELIVERY_RULES, type WebhookSettings } from './webhook-settings.ts';
import { toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook-view.ts';

/** The queue's job of one delivery, by the trigger of webhook_delivery and by {@link enqueueDelivery}. */
export const DELIVERY_TASK = 'webhook_delivery';

/**
 * Hands a delivery to the queue at `runAt` (now: at once), in the caller's transaction. One job per
 * delivery (its job key): adding it again moves the waiting job rather than making a second.
 */
export async function enqueueDelivery(db: Db, deliveryId: string, runAt?: Date): Promise<void> {
  await sql`select graphile_worker.add_job(${DELIVERY_TASK}, json_build_object('id', ${deliveryId}::text),
    run_at := ${runAt ?? null}::timestamptz, job_key := ${`webhook_delivery:${deliveryId}`})`.execute(db);
}

/** Deliveries one job sends at most, its own and those it carries on for its webhook. */
const DRAIN_AT_MOST = 1_000;

/** A delivery taken for sending, with what is sent. */
interface Claimed {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret: string;
  /** The secret before the last rotation, while it still signs. */
  previous_secret: string | null;
  body: string;
}

/**
 * Sends deliveries: the queue's job (webhook-queue.ts). Whoever runs the job first takes the
 * delivery for {@link DELIVERY_RULES.claimMs} (a claim in the row), so with several instances, or
 * a job run twice, it is sent by one of them; a sender killed mid-send leaves a claim that runs
 * out, and the sweep hands it to the queue again. Then one POST, and its outcome recorded: done,
 * or the next attempt scheduled by WEBHOOK_RETRY_DELAYS, or failed for good.
 */
export class WebhookSender {
  readonly #orm: Orm;
  readonly #settings: WebhookSettings;
  /** Where a webhook the sender disables is recorded (`webhook.updated`, by the server itself). */
  readonly #changes: Changes;

  constructor(orm: Orm, settings: WebhookSettings, changes = new Changes()) {
    this.#orm = orm;
    this.#settings = settings;
    this.#changes = changes;
  }

  /**
   * Sends the delivery, then, while its webhook has due deliveries nobody has taken, the next of
   * them: a job whose webhook had its share in flight returned at once, and the senders of that
   * share carry its delivery on (a backlog drains without waiting for the queue's jobs).
   */
  async deliver(deliveryId: string): Promise<void> {
    let claimed = await this.#claim(deliveryId);
    for (let sent = 0; claimed && sent < DRAIN_AT_MOST; sent++) {
      await this.#send(claimed);
      claimed = await this.#claim(undefined, claimed.webhook_id);
    }
  }

  async #send(claimed: Claimed): Promise<void> {
    const sentAt = new Date();
    // Within 24 hours of a rotation the previous secret signs too (the specification's way).
    const secrets = claimed.previous_secret === null ? [claimed.secret] : [claimed.secret, claimed.previous_secret];
    // The event's id is the message id (webhook-id): the same on every attempt, so a receiver can drop a repeat.
    const headers = {
      'webhook-id': claimed.event_id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, claimed.event_id, sentAt, claimed.body),
    };
    const outcome = await postWebhook(claimed.url, headers, claimed.body, { allowPrivate: this.#settings.allowPrivateTargets });
    await this.#record(claimed, outcome);
  }

  /**
   * Takes a delivery (this one, or else the webhook's oldest due one nobody has taken) when it is
   * due, pending, not taken by a live sender, its webhook enabled (a test event is sent even to a
   * disabled one), and fewer than the webhook's share are in flight. The webhook's row is locked
   * first, so the count of its deliveries in flight is right for every sender at once.
   */
  async #claim(deliveryId: string | undefined, webhookId?: string): Promise<Claimed | undefined> {
    return inTransaction(this.#orm, async (db) => {
      const { rows: hooks } = await sql<{ id: string; enabled: boolean }>`
        select w.id, w.enabled from webhook w
        where w.id = ${webhookId ?? null} or w.id = (select webhook_id from webhook_delivery where id = ${deliveryId ?? null})
        for update`.execute(db);
      const hook = hooks[0];
      if (!hook) return undefined;
      const { rows } = await sql<Claimed & { type: string }>`
        select d.id, d.webhook_id, d.event_id, d.attempts, d.type, w.url, w.secret,
          case when w.previous_secret_expires_at > clock_timestamp() then w.previous_secret end as previous_secret,
          e.body::text as body
        from webhook_delivery d
        join webhook w on w.id = d.webhook_id
        join webhook_event e on e.id = d.event_id
        where d.webhook_id = ${hook.id} and d.status = 'pending'
          and d.next_attempt_at <= clock_timestamp() + interval '1 second'
          and (d.claimed_until is null or d.claimed_until < clock_timestamp())
          and (${hook.enabled} or d.type = 'webhook.test')
          and (${deliveryId ?? null}::text is null or d.id = ${deliveryId ?? null})
        order by d.next_attempt_at
        limit 1
        for update of d skip locked`.execute(db);
      const delivery = rows[0];
      if (!delivery) return undefined;
      const { rows: inFlight } = await sql<{ n: number }>`
        select count(*)::int as n from webhook_delivery
        where webhook_id = ${hook.id} and status = 'pending'
          and claimed_until is not null and claimed_until > clock_timestamp()`.execute(db);
      if ((inFlight[0]?.n ?? 0) >= DELIVERY_RULES.perWebhookAtOnce) return undefined;
      await sql`update webhook_delivery set claimed_until = clock_timestamp() + ${`${DELIVERY_RULES.claimMs} milliseconds`}::interval
        where id = ${delivery.id}`.execute(db);
      return delivery;
    });
  }

  async #record(claimed: Claimed, outcome: PostOutcome): Promise<void> {
    const delays = this.#settings.retryDelays;
    const attempts = claimed.attempts + 1;
    const succeeded = outcome.error === undefined;
    const gone = outcome.statusCode === 410;
    const nextDelay = !succeeded && !gone ? delays[attempts] : undefined;
    const status = succeeded ? 'succeeded' : nextDelay === undefined ? 'failed' : 'pending';
    const nextAttemptAt = nextDelay === undefined ? null : new Date(Date.now() + nextDelay * 1000);
    await inTransaction(this.#orm, async (db) => {
      // The webhook's row first, as taking a delivery does: the same order, no deadlock. Deleted
      // while this one was sent, it took its deliveries with it: nothing is left to record.
      const hook = await db.selectFrom('webhook').select('id').where('id', '=', claimed.webhook_id).forUpdate().executeTakeFirst();
      if (!hook) return;
      await db
        .insertInto('webhook_attempt')
        .values({
          delivery_id: claimed.id,
          status_code: outcome.statusCode ?? null,
          error: outcome.error ?? null,
          duration_ms: outcome.durationMs,
        } as never)
        .execute();
      await db
        .updateTable('webhook_delivery')
        .set({
          status,
          attempts,
          last_status_code: outcome.statusCode ?? null,
          last_error: outcome.error ?? null,
          last_response: outcome.responseBody ?? null,
          next_attempt_at: nextAttemptAt,
          claimed_until: null,
          updated_at: new Date(),
        })
        .where('id', '=', claimed.id)
        .execute();
      if (nextAttemptAt) await enqueueDelivery(db, claimed.id, nextAttemptAt);
      if (succeeded) {
        await db
          .updateTable('webhook')
          .set({ consecutive_failures: 0 })
          .where('id', '=', claimed.webhook_id)
          .where('consecutive_failures', '>', 0)
          .execute();
      } else if (gone) {
        await disable(db, this.#changes, claimed.webhook_id, `The receiver answered 410 Gone on ${new Date().toISOString()}`);
      } else if (status === 'failed') {
        const counted = await db
          .updateTable('webhook')
          .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
          .where('id', '=', claimed.webhook_id)
          .returning('consecutive_failures')
          .executeTakeFirst();
        if (counted && counted.consecutive_failures >= DELIVERY_RULES.failuresToDisable) {
          await disable(
            db,
            this.#changes,
            claimed.webhook_id,
            `${counted.consecutive_failures} deliveries in a row failed (the last on ${new Date().toISOString()})`,
          );
        }
      }
    });
  }
}

/** Disables a webhook that is enabled, recorded as `webhook.updated` (its row is locked by the caller). */
async function disable(db: Db, changes: Changes, webhookId: string, reason: string): Promise<void> {
  const before = await db
    .selectFrom('webhook')
    .select([...WEBHOOK_COLUMNS, 'account_id'])
    .where('id', '=', webhookId)
    .where('enabled', '=', true)
    .executeTakeFirst();
  if (!before) return;
  const after = await db
    .updateTable('webhook')
    .set({ enabled: false, disabled_reason: reason, updated_at: new Date() })
    .where('id', '=', webhookId)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirstOrThrow();
  await recordChange(changes, db, before.account_id, 'webhook.updated', toWebhook(after as WebhookRow), toWebhook(before as WebhookRow));
}
