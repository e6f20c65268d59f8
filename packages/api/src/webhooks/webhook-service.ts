import {
  type CreateWebhookBody,
  type ListWebhookDeliveriesQuery,
  type UpdateWebhookBody,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryPage,
  type WebhookDeliveryStatus,
  type WebhookList,
  type WebhookWithSecret,
} from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { type Db, inTransaction, reader } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { recordChange } from '../events/record-change.ts';
import { newId } from '../ids.ts';
import { writeEvents } from './webhook-outbox.ts';
import { newWebhookSecret } from './webhook-secret.ts';
import { enqueueDelivery } from './webhook-sender.ts';
import { DELIVERY_RULES, type WebhookSettings } from './webhook-settings.ts';
import { webhookUrlProblem } from './webhook-target.ts';
import { toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook-view.ts';

const DELIVERY_COLUMNS = [
  'id',
  'event_id',
  'type',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'created_at',
] as const;

type DeliveryRow = {
  id: string;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
};

/** Webhooks: the procedures of /webhooks (docs/webhooks.md); sending is the queue's (webhook-queue.ts). */
export class WebhookService {
  readonly #orm: Orm;
  readonly #shortDomainHost: string;
  readonly #settings: WebhookSettings;
  /** Where each change of a webhook is recorded, in its transaction (events/change-log.ts): never its secret. */
  readonly #changes: Changes;

  constructor(orm: Orm, shortDomainHost: string, settings: WebhookSettings, changes = new Changes()) {
    this.#orm = orm;
    this.#shortDomainHost = shortDomainHost;
    this.#settings = settings;
    this.#changes = changes;
  }

  async create(accountId: string, body: CreateWebhookBody): Promise<WebhookWithSecret> {
    this.#checkUrl(body.url);
    return inTransaction(this.#orm, async (db) => {
      await db.selectFrom('account').select('id').where('id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
      const { count } = await db
        .selectFrom('webhook')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= WEBHOOK_LIMITS.perAccount) {
        throw validationError('url', `an account has at most ${WEBHOOK_LIMITS.perAccount} webhooks`);
      }
      const secret = newWebhookSecret();
      const row = await db
        .insertInto('webhook')
        .values({
          id: newId('wh'),
          account_id: accountId,
          url: body.url,
          events: body.events,
          description: body.description ?? null,
          secret,
        } as never)
        .returning(WEBHOOK_COLUMNS)
        .executeTakeFirstOrThrow();
      const webhook = toWebhook(row as WebhookRow);
      await recordChange(this.#changes, db, accountId, 'webhook.created', webhook);
      return { ...webhook, secret };
    });
  }

  async list(accountId: string): Promise<WebhookList> {
    const rows = await reader(this.#orm)
      .selectFrom('webhook')
      .select(WEBHOOK_COLUMNS)
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { webhooks: rows.map((row) => toWebhook(row as WebhookRow)) };
  }

  async get(accountId: string, id: string): Promise<Webhook> {
    return toWebhook(await this.#find(reader(this.#orm), accountId, id));
  }

  /** PATCH: only the fields sent change; enabling again clears why it was disabled and resumes its pending deliveries. */
  async update(accountId: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
    if (body.url !== undefined) this.#checkUrl(body.url);
    return inTransaction(this.#orm, async (db) => {
      const current = await this.#find(db, accountId, id, true);
      const enabling = body.enabled === true && !current.enabled;
      const row = await db
        .updateTable('webhook')
        .set({
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.events !== undefined ? { events: body.events } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          ...(enabling ? { disabled_reason: null, consecutive_failures: 0 } : {}),
          updated_at: new Date(),
        } as never)
        .where('id', '=', id)
        .returning(WEBHOOK_COLUMNS)
        .executeTakeFirstOrThrow();
      if (enabling) {
        const { rows } = await sql<{ id: string }>`update webhook_delivery set next_attempt_at = clock_timestamp()
          where webhook_id = ${id} and status = 'pending' returning id`.execute(db);
        for (const delivery of rows) await enqueueDelivery(db, delivery.id);
      }
      const updated = toWebhook(row as WebhookRow);
      await recordChange(this.#changes, db, accountId, 'webhook.updated', updated, toWebhook(current));
      return updated;
    });
  }

  async delete(accountId: string, id: string): Promise<void> {
    await inTransaction(this.#orm, async (db) => {
      const deleted = await db
        .deleteFrom('webhook')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returning(WEBHOOK_COLUMNS)
        .executeTakeFirst();
      if (!deleted) throw new AppError('WEBHOOK_NOT_FOUND');
      await recordChange(this.#changes, db, accountId, 'webhook.deleted', toWebhook(deleted as WebhookRow));
    });
  }

  /** A new secret; the previous one keeps signing too for 24 hours, so receivers can switch in their time. */
  async rotateSecret(accountId: string, id: string): Promise<WebhookWithSecret> {
    return inTransaction(this.#orm, async (db) => {
      await this.#find(db, accountId, id, true);
      const secret = newWebhookSecret();
      const row = await sql<WebhookRow>`update webhook set previous_secret = secret,
          previous_secret_expires_at = clock_timestamp() + ${`${DELIVERY_RULES.previousSecretMs} milliseconds`}::interval,
          secret = ${secret}, updated_at = clock_timestamp()
        where id = ${id}
        returning id, url, events, description, enabled, disabled_reason, created_at`.execute(db);
      const webhook = toWebhook(row.rows[0] as WebhookRow);
      // Recorded without the secret, old or new: the action says what happened.
      await recordChange(this.#changes, db, accountId, 'webhook.secret_rotated', webhook);
      return { ...webhook, secret };
    });
  }

  async deliveries(accountId: string, id: string, query: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryPage> {
    const db = reader(this.#orm);
    await this.#find(db, accountId, id);
    let filtered = db.selectFrom('webhook_delivery').where('webhook_id', '=', id);
    if (query.status) filtered = filtered.where('status', '=', query.status);
    const [rows, counted] = await Promise.all([
      filtered
        .select(DELIVERY_COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return {
      deliveries: rows.map((row) => toDelivery(row as DeliveryRow)),
      page: query.page,
      per_page: query.per_page,
      total: Number(counted.total),
    };
  }

  /** One delivery with the body sent, the first 4 KiB of the last answer, and each attempt. */
  async delivery(accountId: string, id: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
    const db = reader(this.#orm);
    await this.#find(db, accountId, id);
    const row = await db
      .selectFrom('webhook_delivery')
      .innerJoin('webhook_event', 'webhook_event.id', 'webhook_delivery.event_id')
      .select(DELIVERY_COLUMNS.map((column) => `webhook_delivery.${column}` as const))
      .select('webhook_delivery.last_response')
      // The body exactly as it was sent (the sender signs and sends this text).
      .select(sql<string>`webhook_event.body::text`.as('request_body'))
      .where('webhook_delivery.webhook_id', '=', id)
      .where('webhook_delivery.id', '=', deliveryId)
      .executeTakeFirst();
    if (!row) throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND');
    const attempts = await db
      .selectFrom('webhook_attempt')
      .select(['attempted_at', 'status_code', 'error', 'duration_ms'])
      .where('delivery_id', '=', deliveryId)
      .orderBy('id')
      .execute();
    return {
      ...toDelivery(row as unknown as DeliveryRow),
      request_body: row.request_body,
      last_response_body: row.last_response,
      attempt_log: attempts.map((attempt) => ({
        attempted_at: new Date(attempt.attempted_at).getTime(),
        status_code: attempt.status_code,
        error: attempt.error,
        duration_ms: attempt.duration_ms,
      })),
    };
  }

  /**
   * Sends the delivery again now, whatever it came to: one more attempt (its retries were spent,
   * or it succeeded), counted with the others.
   */
  async retry(accountId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    return inTransaction(this.#orm, async (db) => {
      await this.#find(db, accountId, id);
      const { rows } = await sql<DeliveryRow>`update webhook_delivery
          set status = 'pending', next_attempt_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ${deliveryId} and webhook_id = ${id}
        returning id, event_id, type, status, attempts, last_status_code, last_error, next_attempt_at, created_at`.execute(db);
      const row = rows[0];
      if (!row) throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND');
      await enqueueDelivery(db, deliveryId);
      return toDelivery(row);
    });
  }

  /** Sends a `webhook.test` event to this webhook alone (whatever it subscribes to). */
  async test(accountId: string, id: string): Promise<WebhookDelivery> {
    return inTransaction(this.#orm, async (db) => {
      const webhook = await this.#find(db, accountId, id);
      const [deliveryId] = await writeEvents(
        db,
        [{ id, events: [WEBHOOK_TEST_EVENT] }],
        [{ type: WEBHOOK_TEST_EVENT, accountId, at: new Date(), data: { webhook_id: id, url: webhook.url } }],
      );
      const row = await db
        .selectFrom('webhook_delivery')
        .select(DELIVERY_COLUMNS)
        .where('id', '=', deliveryId ?? '')
        .executeTakeFirstOrThrow();
      return toDelivery(row as DeliveryRow);
    });
  }

  #checkUrl(url: string): void {
    const problem = webhookUrlProblem(url, this.#shortDomainHost, this.#settings.allowPrivateTargets);
    if (problem) throw validationError('url', `url ${problem}`);
  }

  async #find(db: Db, accountId: string, id: string, lock = false): Promise<WebhookRow> {
    let query = db.selectFrom('webhook').select(WEBHOOK_COLUMNS).where('account_id', '=', accountId).where('id', '=', id);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    return row as WebhookRow;
  }
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    type: row.type,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).getTime(),
    created_at: new Date(row.created_at).getTime(),
  };
}
