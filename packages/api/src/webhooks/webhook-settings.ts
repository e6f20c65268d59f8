/**
 * The operator's settings of webhooks (apps/server/src/env.ts reads them; docs/webhooks.md).
 */
export interface WebhookSettings {
  /**
   * Seconds before each attempt after the one before (`WEBHOOK_RETRY_DELAYS`): the first is the
   * first attempt's (0: at once), so a delivery is tried `retryDelays.length` times at most.
   */
  retryDelays: readonly number[];
  /** Days delivery records are kept (`WEBHOOK_LOG_DAYS`). */
  logDays: number;
  /** Lift the rule against private and loopback addresses (`WEBHOOK_ALLOW_PRIVATE_TARGETS`). */
  allowPrivateTargets: boolean;
}

/** The Standard Webhooks schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_DELAYS: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];
export const DEFAULT_LOG_DAYS = 30;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retryDelays: DEFAULT_RETRY_DELAYS,
  logDays: DEFAULT_LOG_DAYS,
  allowPrivateTargets: false,
};

/** The fixed rules of sending (docs/webhooks.md). */
export const DELIVERY_RULES = {
  /** A receiver must answer within this (the specification's 15 s). */
  timeoutMs: 15_000,
  /** Deliveries of one webhook in flight at once, over every instance: one slow receiver holds no other. */
  perWebhookAtOnce: 4,
  /** Failed deliveries in a row that disable a webhook. */
  failuresToDisable: 50,
  /** The first bytes of an answer kept for the delivery log. */
  responseBytes: 4096,
  /** How long a sender holds a delivery: longer than the timeout, so a dead sender's is taken again. */
  claimMs: 45_000,
  /** After a rotation, the previous secret signs too for this long. */
  previousSecretMs: 24 * 60 * 60 * 1000,
} as const;
