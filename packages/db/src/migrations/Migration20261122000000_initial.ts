import { Migration } from '@mikro-orm/migrations';

/**
 * The initial schema. Written by hand because the rules it enforces are partial and
 * expression indexes (live slugs, live external ids, tag names ignoring case), which the
 * entity metadata cannot express; see docs/data-model.md.
 */
export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    // created_at uses clock_timestamp(): rows made in one transaction (tags from tag_names) still
    // get distinct, ordered times, so "newest first" is well defined.
    this.addSql(`
      create table account (
        id text primary key,
        name text not null,
        plan text not null check (plan in ('starter', 'team', 'trial', 'unlimited')),
        link_limit_override integer check (link_limit_override >= 0),
        tag_limit_override integer check (tag_limit_override >= 0),
        color_cursor integer not null default 0,
        created_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table api_key (
        id text primary key,
        account_id text not null constraint api_key_account_id_foreign references account (id) on delete cascade,
        prefix text not null,
        secret_hash text not null,
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );`);
    this.addSql('create unique index api_key_secret_hash_key on api_key (secret_hash);');
    this.addSql('create index api_key_account_id_idx on api_key (account_id);');

    this.addSql(`
      create table link (
        id text primary key,
        account_id text not null constraint link_account_id_foreign references account (id) on delete cascade,
        slug varchar(64) not null,
        destination_url text not null,
        title text not null,
        external_id text,
        comments text,
        expires_at timestamptz,
        expiration_url text,
        click_count bigint not null default 0,
        created_at timestamptz not null default clock_timestamp(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz
      );`);
    // The short domain is shared by every account, so live slugs are unique globally.
    this.addSql('create unique index link_slug_live_key on link (slug) where deleted_at is null;');
    this.addSql(
      'create unique index link_external_id_live_key on link (account_id, external_id) where deleted_at is null and external_id is not null;',
    );
    // GET /links: newest first within an account.
    this.addSql('create index link_account_created_idx on link (account_id, created_at desc, id desc) where deleted_at is null;');
    // POST /links/upsert: find a live link by its final destination.
    this.addSql('create index link_account_destination_idx on link (account_id, md5(destination_url)) where deleted_at is null;');

    this.addSql(`
      create table tag (
        id text primary key,
        account_id text not null constraint tag_account_id_foreign references account (id) on delete cascade,
        name varchar(50) not null,
        color text not null,
        created_at timestamptz not null default clock_timestamp()
      );`);
    this.addSql('create unique index tag_account_name_key on tag (account_id, lower(name));');
    this.addSql('create index tag_account_created_idx on tag (account_id, created_at desc);');

    this.addSql(`
      create table link_tag (
        link_id text not null constraint link_tag_link_id_foreign references link (id) on update cascade on delete cascade,
        tag_id text not null constraint link_tag_tag_id_foreign references tag (id) on update cascade on delete cascade,
        primary key (link_id, tag_id)
      );`);
    this.addSql('create index link_tag_tag_id_idx on link_tag (tag_id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists link_tag, tag, link, api_key, account cascade;');
  }
}
