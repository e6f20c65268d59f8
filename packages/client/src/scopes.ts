import type { Scope } from '@shortlinks/contract';

/**
 * The scope an API key needs for each call of the client (docs/accounts.md, "Keys and scopes"):
 * `X.write` includes `X.read`. The server's procedures declare the same, and a test proves the two
 * agree (apps/server/test/keys-api.test.ts); `surface.check.ts` proves every call is listed.
 */
export const PROCEDURE_SCOPES = {
  'links.create': 'links.write',
  'links.list': 'links.read',
  'links.get': 'links.read',
  'links.update': 'links.write',
  'links.delete': 'links.write',
  'links.upsert': 'links.write',
  'links.bulkCreate': 'links.write',
  'links.bulkUpdate': 'links.write',
  'links.bulkDelete': 'links.write',
  'links.export': 'links.read',
  'links.import': 'links.write',
  'links.qr': 'links.read',
  'tags.create': 'tags.write',
  'tags.list': 'tags.read',
  'tags.update': 'tags.write',
  'tags.delete': 'tags.write',
  'stats.link': 'analytics.read',
  'stats.tag': 'analytics.read',
  'stats.account': 'analytics.read',
  'domains.create': 'domains.write',
  'domains.list': 'domains.read',
  'domains.get': 'domains.read',
  'domains.update': 'domains.write',
  'domains.verify': 'domains.write',
  'domains.delete': 'domains.write',
  'webhooks.create': 'webhooks.write',
  'webhooks.list': 'webhooks.read',
  'webhooks.get': 'webhooks.read',
  'webhooks.update': 'webhooks.write',
  'webhooks.delete': 'webhooks.write',
  'webhooks.rotateSecret': 'webhooks.write',
  'webhooks.deliveries': 'webhooks.read',
  'webhooks.delivery': 'webhooks.read',
  'webhooks.retryDelivery': 'webhooks.write',
  'webhooks.test': 'webhooks.write',
  'keys.create': 'keys.write',
  'keys.list': 'keys.write',
  'keys.revoke': 'keys.write',
  'audit.list': 'audit.read',
} as const satisfies Record<string, Scope>;

/** Each client call (`"links.create"`) and the scope its key needs (`"links.write"`). */
export type ProcedureScopes = typeof PROCEDURE_SCOPES;
/** The scope the call at `P` needs: `ScopeOf<'tags.create'>` is `'tags.write'`. */
export type ScopeOf<P extends keyof ProcedureScopes> = ProcedureScopes[P];
export type { Scope } from '@shortlinks/contract';
