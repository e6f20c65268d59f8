import { defineEntity, p } from '@mikro-orm/core';

/** An account owns links and tags; its plan sets the link and tag limits (see docs/accounts.md). */
export const Account = defineEntity({
  name: 'Account',
  tableName: 'account',
  properties: {
    id: p.text().primary(),
    name: p.text(),
    plan: p.text().check("plan in ('starter', 'team', 'trial', 'unlimited')"),
    /** Overrides the plan's link limit when set. */
    link_limit_override: p.integer().nullable().check('link_limit_override >= 0'),
    /** Overrides the plan's tag limit when set. */
    tag_limit_override: p.integer().nullable().check('tag_limit_override >= 0'),
    /** The API requests per minute of each of the account's keys, when the operator set it: 0 means no limit. */
    api_rate_limit: p.integer().nullable().check('api_rate_limit >= 0'),
    /** How many colours have been assigned in rotation so far (POST /tags without a colour). */
    color_cursor: p.integer().default(0),
    /** The account's live links, kept by triggers on `link` (migration ..._link_search): the list's total without a filter. */
    live_link_count: p.bigint('number').defaultRaw('0'),
    /**
     * Times a webhook of the account became enabled, kept by triggers (Migration20261128603000_webhook_generation):
     * what tells a process its memory of "no enabled webhook" is still true (webhook-outbox.ts).
     */
    webhook_generation: p.bigint('number').defaultRaw('0'),
    created_at: p.datetime().defaultRaw('now()'),
    /** The owner requires two-factor sign-in of everyone working here (Migration20261127262000_two_factor). */
    require_two_factor: p.boolean().default(false),
  },
});
