import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';

/**
 * An endpoint an account asked to be called on its events (docs/webhooks.md). The secret signs
 * every delivery (Standard Webhooks); after a rotation the previous one signs too until
 * `previous_secret_expires_at`. A webhook the service disabled says why in `disabled_reason`.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  indexes: [{ name: 'webhook_account_idx', properties: ['account', 'created_at'] }],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    url: p.text(),
    events: p.array().columnType('text[]'),
    description: p.text().nullable(),
    enabled: p.boolean().defaultRaw('true'),
    disabled_reason: p.text().nullable(),
    secret: p.text(),
    previous_secret: p.text().nullable(),
    previous_secret_expires_at: p.datetime().nullable(),
    /** Deliveries that ended failed since the last one that succeeded: 50 disable the webhook. */
    consecutive_failures: p.integer().defaultRaw('0'),
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
    updated_at: p.datetime().defaultRaw('clock_timestamp()'),
  },
});

/**
 * What changed, written in the transaction of the change (the outbox): its body is the message
 * every subscribed webhook receives, `{type, timestamp, data}`.
 */
export const WebhookEvent = defineEntity({
  name: 'WebhookEvent',
  tableName: 'webhook_event',
  indexes: [{ name: 'webhook_event_created_idx', properties: ['created_at'] }],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    type: p.text(),
    body: p.json<Record<string, unknown>>().columnType('jsonb'),
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
  },
});

/** One event to one webhook: sent until it succeeds or its retries run out. */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  indexes: [
    {
      name: 'webhook_delivery_webhook_idx',
      expression: 'create index webhook_delivery_webhook_idx on webhook_delivery (webhook_id, created_at desc, id desc)',
    },
    {
      name: 'webhook_delivery_pending_idx',
      expression: "create index webhook_delivery_pending_idx on webhook_delivery (next_attempt_at) where status = 'pending'",
    },
    { name: 'webhook_delivery_created_idx', properties: ['created_at'] },
  ],
  properties: {
    id: p.text().primary(),
    webhook: () => p.manyToOne(Webhook).fieldName('webhook_id').columnType('text').deleteRule('cascade'),
    event: () =>
      p.manyToOne(WebhookEvent).fieldName('event_id').columnType('text').deleteRule('cascade').index('webhook_delivery_event_idx'),
    type: p.text(),
    status: p.text().defaultRaw("'pending'"),
    attempts: p.integer().defaultRaw('0'),
    last_status_code: p.integer().nullable(),
    last_error: p.text().nullable(),
    /** The first 4 KiB of the last answer's body. */
    last_response: p.text().nullable(),
    next_attempt_at: p.datetime().nullable(),
    /** Taken by one sender until then: no other sends it meanwhile (webhook-sender.ts). */
    claimed_until: p.datetime().nullable(),
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
    updated_at: p.datetime().defaultRaw('clock_timestamp()'),
  },
});

/** One try of a delivery, for the delivery log. */
export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempt',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    delivery: () =>
      p.manyToOne(WebhookDelivery).fieldName('delivery_id').columnType('text').deleteRule('cascade').index('webhook_attempt_delivery_idx'),
    attempted_at: p.datetime().defaultRaw('clock_timestamp()'),
    status_code: p.integer().nullable(),
    error: p.text().nullable(),
    duration_ms: p.integer(),
  },
});
