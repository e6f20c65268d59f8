import { z } from 'zod';
import { webhookUrlField } from './fields.ts';
import { PAGE_FIELDS } from './paging.ts';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from './webhook-events.ts';

export * from './webhook-events.ts';

const eventsField = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES, {
      error: (issue) => `events: unknown event ${JSON.stringify(issue.input)} (one of ${WEBHOOK_EVENT_TYPES.join(', ')})`,
    }),
    { error: 'events must be a list of event types' },
  )
  .min(1, 'events must name at least one event')
  .max(WEBHOOK_EVENT_TYPES.length * 2, 'events names too many events')
  .transform((events) => [...new Set(events)])
  .meta({ example: ['link.created', 'link.clicked'] });

const descriptionField = z
  .string({ error: 'description must be a string' })
  .max(WEBHOOK_LIMITS.descriptionChars, `description must be at most ${WEBHOOK_LIMITS.descriptionChars} characters`);

export const WebhookSchema = z
  .object({
    id: z.string().meta({ description: 'Starts with `wh_`.' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the service disabled the webhook (a 410 answer, 50 failed deliveries in a row); null otherwise.' }),
    created_at: z.number(),
  })
  .meta({ id: 'Webhook' });

/** What POST /webhooks and POST /webhooks/{id}/rotate-secret answer: the secret, shown there only. */
export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().meta({ description: '`whsec_` + base64: verify deliveries with it (Standard Webhooks).' }),
}).meta({ id: 'WebhookWithSecret' });

export const CreateWebhookBodySchema = z.strictObject({
  url: webhookUrlField,
  events: eventsField,
  description: descriptionField.optional(),
});

export const UpdateWebhookBodySchema = z.strictObject({
  url: webhookUrlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.nullable().optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
});

export const WebhookRefSchema = z.string().min(1).max(100).meta({ example: 'wh_4hG7Qx2LpZ0aB3cD' });

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) }).meta({ id: 'WebhookList' });

export const WebhookDeliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number(),
    last_status_code: z.number().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: z.number().nullable(),
    created_at: z.number(),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookAttemptSchema = z.object({
  attempted_at: z.number(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
});

/** One delivery with what was sent, the first 4 KiB of the last answer, and each attempt. */
export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.extend({
  request_body: z.string(),
  last_response_body: z.string().nullable(),
  attempt_log: z.array(WebhookAttemptSchema),
}).meta({ id: 'WebhookDeliveryDetail' });

export const ListWebhookDeliveriesQuerySchema = z.strictObject({
  ...PAGE_FIELDS,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: 'status must be pending, succeeded or failed' }).optional(),
});

export const WebhookDeliveryPageSchema = z
  .object({ deliveries: z.array(WebhookDeliverySchema), page: z.number(), per_page: z.number(), total: z.number() })
  .meta({ id: 'WebhookDeliveryPage' });

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;
export type CreateWebhookBody = z.infer<typeof CreateWebhookBodySchema>;
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBodySchema>;
export type WebhookList = z.infer<typeof WebhookListSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetailSchema>;
export type ListWebhookDeliveriesQuery = z.infer<typeof ListWebhookDeliveriesQuerySchema>;
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;
