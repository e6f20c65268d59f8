import { defineEntity, p } from '@mikro-orm/core';

/**
 * A destination the operator refuses (`pnpm shortlinks denylist add`): a domain (covering its
 * subdomains) or a URL prefix. Kept in the database so every server process and the CLI share it.
 */
export const DenylistEntry = defineEntity({
  name: 'DenylistEntry',
  tableName: 'denylist_entry',
  uniques: [{ name: 'denylist_entry_kind_value_key', properties: ['kind', 'value'] }],
  // An expression index, declared so schema diffs know it (created by the migration).
  indexes: [
    {
      name: 'denylist_entry_prefix_authority_idx',
      expression: "create index denylist_entry_prefix_authority_idx on denylist_entry ((substring(value from '^[a-z]+://([^/]*)')))",
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    /** `domain` (value is an ASCII host name) or `prefix` (value is a normalised URL). */
    kind: p.text().check("kind in ('domain', 'prefix')"),
    value: p.text(),
    created_at: p.datetime().defaultRaw('now()'),
  },
});
