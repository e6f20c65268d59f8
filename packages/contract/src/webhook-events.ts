// No zod here: part of the `./rules` entry that the dashboard imports.

/**
 * Every event a webhook may subscribe to, in one place (docs/webhooks.md). `domain.verified`: a
 * branded domain starts serving (docs/domains.md). `webhook.test` is sent by POST
 * /webhooks/{id}/test only and cannot be subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'domain.verified',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** At most this many webhooks per account, and characters of a description. */
export const WEBHOOK_LIMITS = { perAccount: 20, descriptionChars: 500 } as const;
