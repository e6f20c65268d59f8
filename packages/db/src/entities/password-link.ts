import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { AppUser } from './app-user.ts';

/**
 * A one-time link that sets a password: `setup` creates the first owner of a workspace (printed at
 * the first start), `password` sets the password of an existing person (`user create`,
 * `user reset-password`). Only the SHA-256 of its secret is stored; it is used once.
 */
export const PasswordLink = defineEntity({
  name: 'PasswordLink',
  tableName: 'password_link',
  properties: {
    id: p.text().primary(),
    token_hash: p.text().unique('password_link_token_hash_key'),
    purpose: p.text().check("purpose in ('setup', 'password')"),
    user: () => p.manyToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade').nullable(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade').nullable(),
    created_at: p.datetime().defaultRaw('now()'),
    expires_at: p.datetime(),
    used_at: p.datetime().nullable(),
  },
});
