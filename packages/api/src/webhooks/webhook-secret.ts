import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` by each secret,
 * space-separated (the specification lets a receiver accept any one: how a rotation is survived).
 * Signed by the official package, so the scheme is the one receivers verify with.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, sentAt: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, sentAt, body)).join(' ');
}
