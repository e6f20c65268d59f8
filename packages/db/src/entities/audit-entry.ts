import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';

/**
 * One committed change of a workspace, as its audit log shows it (docs/accounts.md, "The audit
 * log"): written in the change's own transaction by the change log's audit outlet. Who acted is
 * copied in (`actor_*`), not referenced: an entry outlives the key or the person it names.
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  indexes: [
    {
      name: 'audit_entry_account_idx',
      expression: 'create index audit_entry_account_idx on audit_entry (account_id, created_at desc, id desc)',
    },
    {
      name: 'audit_entry_actor_idx',
      expression: 'create index audit_entry_actor_idx on audit_entry (account_id, actor_id, created_at desc, id desc)',
    },
    {
      name: 'audit_entry_resource_idx',
      expression: 'create index audit_entry_resource_idx on audit_entry (account_id, resource_id, created_at desc, id desc)',
    },
    {
      name: 'audit_entry_action_idx',
      expression: 'create index audit_entry_action_idx on audit_entry (account_id, action, created_at desc, id desc)',
    },
    { name: 'audit_entry_created_idx', properties: ['created_at'] },
  ],
  properties: {
    id: p.text().primary(),
    account: () => p.manyToOne(Account).fieldName('account_id').columnType('text').deleteRule('cascade'),
    action: p.text(),
    actor_type: p.text(),
    actor_id: p.text(),
    actor_name: p.text(),
    resource_type: p.text(),
    resource_id: p.text(),
    changes: p.json<Record<string, { before: unknown; after: unknown }>>().columnType('jsonb'),
    ip: p.text().nullable(),
    /** When the entry was written, late in its transaction while it holds its locks: commit order for one resource. */
    created_at: p.datetime().defaultRaw('clock_timestamp()'),
  },
});
