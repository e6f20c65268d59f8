import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { AppUser } from './app-user.ts';

/** A bearer credential. Only the SHA-256 of the secret is stored; the secret is shown once. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade').index('api_key_account_id_idx'),
    /** The first characters of the secret, so an operator can tell keys apart. */
    prefix: p.text().index('api_key_prefix_idx'),
    secret_hash: p.text().unique('api_key_secret_hash_key'),
    created_at: p.datetime().defaultRaw('now()'),
    revoked_at: p.datetime().nullable(),
    /** The person who made the key (null: the operator's CLI, before people existed): the key acts with their role, and goes when they are removed. */
    /** Chosen by its maker, to tell keys apart (keys made before names: `API key`). */
    name: p.text().defaultRaw("'API key'"),
    /** What the key may do (docs/accounts.md, "Keys and scopes"); keys made before scopes hold every one. */
    scopes: p.array().columnType('text[]'),
    /** When the key stops working; null: never. */
    expires_at: p.datetime().nullable(),
    /** Written at most once a minute per key, so a busy key costs no write per request. */
    last_used_at: p.datetime().nullable(),
    created_by_user: () => p.manyToOne(AppUser).fieldName('created_by_user_id').columnType('text').deleteRule('set null').nullable(),
  },
});
