import { Migration } from '@mikro-orm/migrations';

/**
 * Keys with scopes (issue #27, docs/accounts.md "Keys and scopes"): a key has a name, the scopes it
 * may use, an optional expiry and when it was last used. A key made before this change keeps every
 * scope (the column's default fills existing rows), so nothing that works today stops working.
 */
const EVERY_SCOPE = [
  'links.read',
  'links.write',
  'tags.read',
  'tags.write',
  'analytics.read',
  'keys.write',
  'audit.read',
  'domains.read',
  'domains.write',
  'webhooks.read',
  'webhooks.write',
];

export class Migration20261127502700_key_scopes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table api_key
        add column name text not null default 'API key',
        add column scopes text[] not null default '{${EVERY_SCOPE.join(',')}}',
        add column expires_at timestamptz null,
        add column last_used_at timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table api_key drop column name, drop column scopes, drop column expires_at, drop column last_used_at;');
  }
}
