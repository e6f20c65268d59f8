import type { Webhook } from '@shortlinks/contract';

/** A webhook's columns as the API shows them: never its secrets. */
export const WEBHOOK_COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'disabled_reason', 'created_at'] as const;

export type WebhookRow = {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
};

/** A webhook as the API answers it and the change log records it. */
export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at: new Date(row.created_at).getTime(),
  };
}
