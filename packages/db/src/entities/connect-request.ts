import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { AppUser } from './app-user.ts';

/**
 * A person's answer to a client (the browser extension) asking for a key (docs/accounts.md,
 * "Connect"): approved or declined in the dashboard, claimed once by the client that holds the
 * verifier. Only the SHA-256 of the challenge is stored; the key is made at the claim, so no
 * secret is ever kept here.
 */
export const ConnectRequest = defineEntity({
  name: 'ConnectRequest',
  tableName: 'connect_request',
  properties: {
    challenge_hash: p.text().primary(),
    client: p.text(),
    name: p.text(),
    scopes: p.array().columnType('text[]'),
    approved: p.boolean(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    user: () => p.manyToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade'),
    created_at: p.datetime().defaultRaw('now()'),
    expires_at: p.datetime().index('connect_request_expires_at_idx'),
    claimed_at: p.datetime().nullable(),
  },
});
