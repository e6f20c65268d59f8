import { performance } from 'node:perf_hooks';
import type { Orm } from '@shortlinks/db';

export interface ListSeedShape {
  /** Live links of the measured account. */
  links: number;
  tags: number;
  /** Other accounts, each with `otherLinks` links, so the account is not alone in the table. */
  otherAccounts: number;
  otherLinks: number;
}

/** Words the titles are made of; `TITLE_TOPICS[g % 12]` and `TITLE_KINDS[(g / 12) % 15]`. */
export const TITLE_TOPICS = [
  'Spring',
  'Summer',
  'Autumn',
  'Winter',
  'Black Friday',
  'Holiday',
  'Product',
  'Partner',
  'Launch',
  'Careers',
  'Support',
  'Community',
];
export const TITLE_KINDS = [
  'newsletter',
  'webinar',
  'sale',
  'docs',
  'podcast',
  'survey',
  'event',
  'press release',
  'blog post',
  'video',
  'ebook',
  'case study',
  'pricing',
  'signup',
  'demo',
];
const HOSTS = [
  'example.com',
  'shop.example.org',
  'blog.example.net',
  'docs.example.io',
  'events.example.co',
  'news.example.de',
  'example.fr',
  'learn.example.dev',
];

/** A SQL array literal of texts. */
const array = (texts: string[]) => `array[${texts.map((text) => `'${text.replace(/'/g, "''")}'`).join(',')}]`;

/**
 * Seeds the link table for bench:list, in the database with generate_series. Link g of the account
 * (`lnk_list0000001`…) has:
 * - a title of two words and its number (`Summer webinar 4821`);
 * - a destination on one of 8 hosts with an article path, a product code `sku-0000`…`sku-0999`
 *   (so each code is on 1 link in 1,000) and utm parameters;
 * - a slug: every tenth a readable one (`summer-webinar-4821`), the rest random-looking
 *   (hex of g and 3 characters of a hash, unique by construction);
 * - an external id on every fifth (`crm-<g>`);
 * - click_count skewed like real traffic (most links few clicks, a few many: 10000·u⁴), with
 *   many equal counts;
 * - a creation time, one every 90 seconds back from now (2.9 years for a million);
 * - 40% carry one of the tags, and every tenth of those a second.
 * The other accounts get the same kind of links, fewer. Each link's row of `link_search` is made by
 * its trigger, as for any insert. Secondary indexes (of link, link_tag and link_search) are dropped
 * for the bulk load and rebuilt from their own definitions (as the migrations made them) afterwards.
 */
export async function seedLinks(orm: Orm, accountId: string, otherAccountIds: string[], shape: ListSeedShape): Promise<void> {
  const connection = orm.em.fork().getConnection();
  const run = async (label: string, statement: string) => {
    const started = performance.now();
    await connection.execute(statement);
    console.log(`  ${label.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  };
  const linksOf = (account: string, prefix: string, slugPrefix: string, count: number) => `
    insert into link (id, account_id, slug, destination_url, title, external_id, click_count, created_at, updated_at)
    select '${prefix}' || lpad(g::text, 7, '0'), '${account}',
      case when g % 10 = 0
        then lower(replace(topic, ' ', '-')) || '-' || replace(kind, ' ', '-') || '-${slugPrefix}' || g
        else '${slugPrefix}' || to_hex(g) || substr(md5(g::text), 1, 3) end,
      'https://' || (${array(HOSTS)})[1 + (g / 7) % ${HOSTS.length}] || '/articles/' || (g::bigint * 7919 % 100000)
        || '/sku-' || lpad((g % 1000)::text, 4, '0') || '?utm_source=' || lower(kind) || '&utm_campaign=' || lower(replace(topic, ' ', '_')),
      topic || ' ' || kind || ' ' || g,
      case when g % 5 = 0 then 'crm-' || g end,
      floor(10000 * power((abs(hashtext('c' || g)) % 100000) / 100000.0, 4)),
      now() - g * interval '90 seconds', now()
    from generate_series(1, ${count}) g,
      lateral (select (${array(TITLE_TOPICS)})[1 + g % ${TITLE_TOPICS.length}] as topic,
                      (${array(TITLE_KINDS)})[1 + (g / ${TITLE_TOPICS.length}) % ${TITLE_KINDS.length}] as kind) words;`;

  console.log(`seeding ${shape.links.toLocaleString('en')} links in one account and ${shape.otherAccounts} others of ${shape.otherLinks}:`);
  const started = performance.now();
  const indexes = (await connection.execute(
    `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('link', 'link_tag', 'link_search')
       and indexname not in ('link_pkey', 'link_tag_pkey', 'link_search_pkey')`,
  )) as { indexname: string; indexdef: string }[];
  await run('drop secondary indexes', indexes.map((index) => `drop index ${index.indexname};`).join('\n'));
  await run('links', linksOf(accountId, 'lnk_list', '', shape.links));
  await run(
    'other accounts',
    otherAccountIds
      .map((other, i) => linksOf(other, `lnk_o${i.toString(36).padStart(3, '0')}_`, `o${i.toString(36)}x`, shape.otherLinks))
      .join('\n'),
  );
  await run(
    'tags',
    `insert into tag (id, account_id, name, color)
       select 'tag_list' || t, '${accountId}', 'Tag ' || t, 'indigo' from generate_series(0, ${shape.tags - 1}) t;
     insert into link_tag (link_id, tag_id)
       select 'lnk_list' || lpad(g::text, 7, '0'), 'tag_list' || (abs(hashtext('t' || g)) % ${shape.tags})
       from generate_series(1, ${shape.links}) g where abs(hashtext('s' || g)) % 10 < 4;
     insert into link_tag (link_id, tag_id)
       select 'lnk_list' || lpad(g::text, 7, '0'), 'tag_list' || ((abs(hashtext('t' || g)) + 1) % ${shape.tags})
       from generate_series(1, ${shape.links}) g where abs(hashtext('s' || g)) % 10 < 4 and g % 10 = 0;`,
  );
  await run(
    'rebuild indexes',
    `set maintenance_work_mem = '512MB'; ${indexes.map((index) => `${index.indexdef};`).join('\n')} reset maintenance_work_mem;`,
  );
  await run('vacuum analyze', 'vacuum analyze link, link_search, link_tag, tag');
  await run('checkpoint', 'checkpoint');
  console.log(`  ${'total'.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
}
