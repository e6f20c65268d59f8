import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { AppUser } from './app-user.ts';

/** A person's place in a workspace (an `account`), with their role there (docs/accounts.md, "Roles"). */
export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'membership',
  indexes: [{ name: 'membership_account_id_idx', properties: ['account'] }],
  properties: {
    user: () => p.manyToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade').primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade').primary(),
    role: p.text().check("role in ('owner', 'admin', 'member', 'viewer')"),
    created_at: p.datetime().defaultRaw('now()'),
  },
});
