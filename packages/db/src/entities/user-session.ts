import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { AppUser } from './app-user.ts';

/**
 * A signed-in browser (docs/accounts.md, "Sessions"): kept here so it can be listed and revoked.
 * Only the SHA-256 of the cookie's secret is stored. `account_id` is the workspace the dashboard
 * works in now.
 */
export const UserSession = defineEntity({
  name: 'UserSession',
  tableName: 'user_session',
  properties: {
    id: p.text().primary(),
    token_hash: p.text().unique('user_session_token_hash_key'),
    user: () => p.manyToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade').index('user_session_user_id_idx'),
    account: () =>
      p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade').index('user_session_account_id_idx'),
    /** Sent back by the dashboard in `X-CSRF-Token` with every write (docs/security.md). */
    csrf_token: p.text(),
    created_at: p.datetime().defaultRaw('now()'),
    last_seen_at: p.datetime().defaultRaw('now()'),
    expires_at: p.datetime(),
    user_agent: p.text().nullable(),
    ip: p.text().nullable(),
    revoked_at: p.datetime().nullable(),
  },
});
