import { Migration } from '@mikro-orm/migrations';

/**
 * Click statistics (issue #6; docs/statistics.md). Raw click events gain the visitor's browser,
 * operating system, country and daily visitor hash; the statistics endpoints never read them but
 * read rollups that the click recorder maintains in the same statement that writes the events:
 *
 * - `click_hourly` / `account_click_hourly`: clicks and first-of-the-day visitors per link (or
 *   account) and UTC hour — the time series and totals;
 * - `click_daily_dimension` / `account_click_daily_dimension`: clicks per link (or account), UTC
 *   day, dimension and value — the breakdowns;
 * - `account_click_daily_link` / `account_click_weekly_link`: clicks per account, link and UTC day or
 *   ISO week — the account's top links (whole weeks read one row per link instead of seven).
 *
 * - `tag_stats_day`, `tag_click_hourly`, `tag_click_daily_dimension`: a tag's sums of closed days,
 *   per fingerprint of its live links, filled by the statistics service on demand.
 *
 * Existing click rows are rolled up here, so `click_count` equals the sum of the rollups from the
 * start. Their visitors are unknown (they were never hashed) and their browser, OS and country too.
 */
export class Migration20261122110000_click_statistics extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table click add column browser text, add column os text, add column country text, add column visitor bigint;');
    // Raw events are appended in time order, so a BRIN index finds old ones for retention at almost no cost.
    this.addSql('create index click_occurred_brin on click using brin (occurred_at);');

    // One random salt per UTC day, shared by every server process; deleted once the next day is over.
    this.addSql('create table visitor_salt (day date primary key, salt bytea not null);');
    // Who was already counted today on a link (hashes only); kept for today and yesterday.
    this.addSql(`
      create table click_visitor (
        day date not null,
        link_id text not null,
        visitor bigint not null,
        primary key (day, link_id, visitor)
      );`);

    this.addSql(`
      create table click_hourly (
        link_id text not null constraint click_hourly_link_id_foreign references link (id) on delete cascade,
        hour timestamptz not null,
        clicks integer not null,
        visitors integer not null,
        primary key (link_id, hour) include (clicks, visitors)
      );`);
    this.addSql(`
      create table account_click_hourly (
        account_id text not null constraint account_click_hourly_account_id_foreign references account (id) on delete cascade,
        hour timestamptz not null,
        clicks integer not null,
        visitors integer not null,
        primary key (account_id, hour) include (clicks, visitors)
      );`);
    this.addSql(`
      create table click_daily_dimension (
        link_id text not null constraint click_daily_dimension_link_id_foreign references link (id) on delete cascade,
        day date not null,
        dimension text not null,
        value text not null,
        clicks integer not null,
        primary key (link_id, day, dimension, value) include (clicks)
      );`);
    this.addSql(`
      create table account_click_daily_dimension (
        account_id text not null constraint account_click_daily_dimension_account_id_foreign references account (id) on delete cascade,
        day date not null,
        dimension text not null,
        value text not null,
        clicks integer not null,
        primary key (account_id, day, dimension, value) include (clicks)
      );`);

    this.addSql(`
      create table account_click_daily_link (
        account_id text not null constraint account_click_daily_link_account_id_foreign references account (id) on delete cascade,
        day date not null,
        link_id text not null,
        clicks integer not null,
        primary key (account_id, day, link_id) include (clicks)
      );`);
    this.addSql(`
      create table account_click_weekly_link (
        account_id text not null constraint account_click_weekly_link_account_id_foreign references account (id) on delete cascade,
        week date not null,
        link_id text not null,
        clicks integer not null,
        primary key (account_id, week, link_id) include (clicks)
      );`);
    // Sums of a tag's closed days, per fingerprint of its live links (packages/api/src/services/tag-stats-cache.ts).
    this.addSql(`
      create table tag_stats_day (
        tag_id text not null constraint tag_stats_day_tag_id_foreign references tag (id) on delete cascade,
        members text not null,
        day date not null,
        primary key (tag_id, members, day)
      );`);
    this.addSql('create index tag_stats_day_day_idx on tag_stats_day (day);');
    this.addSql(`
      create table tag_click_hourly (
        tag_id text not null constraint tag_click_hourly_tag_id_foreign references tag (id) on delete cascade,
        members text not null,
        hour timestamptz not null,
        clicks integer not null,
        visitors integer not null,
        primary key (tag_id, members, hour) include (clicks, visitors)
      );`);
    this.addSql(`
      create table tag_click_daily_dimension (
        tag_id text not null constraint tag_click_daily_dimension_tag_id_foreign references tag (id) on delete cascade,
        members text not null,
        day date not null,
        dimension text not null,
        value text not null,
        clicks integer not null,
        primary key (tag_id, members, day, dimension, value) include (clicks)
      );`);

    this.addSql(`
      insert into click_hourly (link_id, hour, clicks, visitors)
      select link_id, date_trunc('hour', occurred_at, 'UTC'), sum(clicks), 0 from click group by 1, 2;`);
    this.addSql(`
      insert into account_click_hourly (account_id, hour, clicks, visitors)
      select link.account_id, date_trunc('hour', click.occurred_at, 'UTC'), sum(click.clicks), 0
      from click join link on link.id = click.link_id group by 1, 2;`);
    this.addSql(`
      insert into click_daily_dimension (link_id, day, dimension, value, clicks)
      select click.link_id, (click.occurred_at at time zone 'UTC')::date, d.dimension, d.value, sum(click.clicks)
      from click
      cross join lateral (values ('referrer', coalesce(click.referrer_host, '')), ('device', click.agent_class), ('browser', ''), ('os', ''), ('country', ''))
        d (dimension, value)
      group by 1, 2, 3, 4;`);
    this.addSql(`
      insert into account_click_daily_dimension (account_id, day, dimension, value, clicks)
      select link.account_id, (click.occurred_at at time zone 'UTC')::date, d.dimension, d.value, sum(click.clicks)
      from click
      join link on link.id = click.link_id
      cross join lateral (values ('referrer', coalesce(click.referrer_host, '')), ('device', click.agent_class), ('browser', ''), ('os', ''), ('country', ''))
        d (dimension, value)
      group by 1, 2, 3, 4;`);
    this.addSql(`
      insert into account_click_daily_link (account_id, day, link_id, clicks)
      select link.account_id, (click.occurred_at at time zone 'UTC')::date, click.link_id, sum(click.clicks)
      from click join link on link.id = click.link_id group by 1, 2, 3;`);
    this.addSql(`
      insert into account_click_weekly_link (account_id, week, link_id, clicks)
      select account_id, date_trunc('week', day)::date, link_id, sum(clicks) from account_click_daily_link group by 1, 2, 3;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      'drop table if exists tag_click_daily_dimension, tag_click_hourly, tag_stats_day, account_click_weekly_link, account_click_daily_link, ' +
        'account_click_daily_dimension, click_daily_dimension, account_click_hourly, click_hourly, click_visitor, visitor_salt;',
    );
    this.addSql('drop index if exists click_occurred_brin;');
    this.addSql('alter table click drop column browser, drop column os, drop column country, drop column visitor;');
  }
}
