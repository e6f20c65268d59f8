import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';

/** A tag groups links; its name is unique in the account ignoring case (index on lower(name)). */
export const Tag = defineEntity({
  name: 'Tag',
  tableName: 'tag',
  indexes: [
    { name: 'tag_account_name_key', expression: 'create unique index tag_account_name_key on tag (account_id, lower(name))' },
    { name: 'tag_account_created_idx', expression: 'create index tag_account_created_idx on tag (account_id, created_at desc)' },
  ],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    name: p.string().length(50),
    color: p.text(),
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
  },
});
