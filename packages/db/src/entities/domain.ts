import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';

/**
 * A branded short domain of an account (docs/domains.md). A name may be added by several
 * accounts, but verified by one at a time: the first to verify holds it (a unique index on
 * verified names). `verified_at` null and `record_missing_since` set: it was verified and stopped
 * serving when its TXT record stayed gone for 7 days.
 */
export const Domain = defineEntity({
  name: 'Domain',
  tableName: 'domain',
  indexes: [
    { name: 'domain_account_name_key', expression: 'create unique index domain_account_name_key on domain (account_id, name)' },
    {
      name: 'domain_verified_name_key',
      expression: 'create unique index domain_verified_name_key on domain (name) where verified_at is not null',
    },
    {
      name: 'domain_account_default_key',
      expression: 'create unique index domain_account_default_key on domain (account_id) where is_default',
    },
  ],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    name: p.text(),
    verification_token: p.text(),
    verified_at: p.datetime().nullable(),
    last_checked_at: p.datetime().nullable(),
    last_check_error: p.text().nullable(),
    record_missing_since: p.datetime().nullable(),
    root_redirect_url: p.text().nullable(),
    not_found_url: p.text().nullable(),
    is_default: p.boolean().defaultRaw('false'),
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
  },
});
