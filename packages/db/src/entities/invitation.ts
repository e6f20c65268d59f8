import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { AppUser } from './app-user.ts';

/**
 * An invitation to join a workspace with a role (docs/accounts.md, "Invitations";
 * Migration20261127261000_invitations). Only the SHA-256 of its link's secret is stored. Live while
 * not accepted, not revoked and before `expires_at`.
 */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  indexes: [{ name: 'invitation_account_id_idx', properties: ['account', 'created_at'] }],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    email: p.text(),
    role: p.text().check("role in ('owner', 'admin', 'member', 'viewer')"),
    token_hash: p.text().unique('invitation_token_hash_key'),
    invited_by: () => p.manyToOne(AppUser).fieldName('invited_by_user_id').columnType('text').deleteRule('set null').nullable(),
    created_at: p.datetime().defaultRaw('now()'),
    expires_at: p.datetime(),
    accepted_at: p.datetime().nullable(),
    accepted_by: () => p.manyToOne(AppUser).fieldName('accepted_by_user_id').columnType('text').deleteRule('set null').nullable(),
    revoked_at: p.datetime().nullable(),
  },
});
