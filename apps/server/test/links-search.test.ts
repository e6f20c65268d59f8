import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createClient } from '@shortlinks/client';
import { createOrm, migrate } from '@shortlinks/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createAccount, createLink, createTestDatabase, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const titles = (body: { links: { title: string }[] }) => body.links.map((link) => link.title);
const ids = (body: { links: { id: string }[] }) => body.links.map((link) => link.id);

/** Sets the links' click counts in the database, as the click recorder would have after that many clicks. */
async function setClickCounts(counts: Record<string, number>) {
  const connection = server.orm.em.fork().getConnection();
  for (const [id, clicks] of Object.entries(counts)) {
    await connection.execute('update link set click_count = ? where id = ?', [clicks, id]);
  }
}

/** Every page of a list request, one after another, as a client paging through would see them. */
async function allPages(account: TestAccount, query: string, perPage: number) {
  const seen: string[] = [];
  for (let page = 1; ; page++) {
    const response = await account.call('GET', `/links?${query}&per_page=${perPage}&page=${page}`);
    expect(response.status).toBe(200);
    if (response.body.links.length === 0) return seen;
    seen.push(...ids(response.body));
  }
}

describe('GET /links?search=', () => {
  let account: TestAccount;
  let launch: { id: string };
  let byDestination: { id: string };
  let bySlug: { id: string };
  let byExternalId: { id: string };
  let percent: { id: string };
  let underscore: { id: string };
  let backslash: { id: string };

  beforeAll(async () => {
    account = await createAccount(server, { plan: 'unlimited' });
    launch = await createLink(account, { title: 'Spring LAUNCH party', destination_url: 'https://example.com/s1' });
    byDestination = await createLink(account, { title: 'Docs', destination_url: 'https://docs.example.org/Launch-Notes' });
    bySlug = await createLink(account, { title: 'Short', destination_url: 'https://example.com/s3', slug: 'launchpad-7' });
    byExternalId = await createLink(account, { title: 'CRM', destination_url: 'https://example.com/s4', external_id: 'crm-launch-9' });
    await createLink(account, { title: 'Comments do not count', destination_url: 'https://example.com/s5', comments: 'launch' });
    percent = await createLink(account, { title: '100% off', destination_url: 'https://example.com/s6' });
    underscore = await createLink(account, { title: 'snake_case', destination_url: 'https://example.com/s7' });
    backslash = await createLink(account, { title: 'C:\\temp', destination_url: 'https://example.com/s8' });
    await createLink(account, { title: '100 dollars off', destination_url: 'https://example.com/s9' });
    await createLink(account, { title: 'snakeXcase', destination_url: 'https://example.com/s10' });
    await createLink(account, { title: 'C:temp', destination_url: 'https://example.com/s11' });
  });

  test('finds the text, ignoring case, in the title, destination_url, slug and external_id, not in comments; total counts the matches', async () => {
    const response = await account.call('GET', '/links?search=lAuNcH');
    expect(response.status).toBe(200);
    expect(ids(response.body).sort()).toEqual([launch.id, byDestination.id, bySlug.id, byExternalId.id].sort());
    expect(response.body.total).toBe(4);
  });

  test('matches are listed in the default order, newest first', async () => {
    const response = await account.call('GET', '/links?search=launch');
    expect(ids(response.body)).toEqual([byExternalId.id, bySlug.id, byDestination.id, launch.id]);
  });

  test.each([
    ['%', '100%', () => percent],
    ['_', 'e_c', () => underscore],
    ['\\', ':\\t', () => backslash],
  ])('a %s in the search is the character itself, not a wildcard', async (_character, search, expected) => {
    const response = await account.call('GET', `/links?search=${encodeURIComponent(search)}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([expected().id]);
    expect(response.body.total).toBe(1);
  });

  test('a search of several words finds them together, as written: not apart, reordered or with another separator', async () => {
    // The trigram index is asked for each word (link-list-query.ts, indexedWords); the whole text decides.
    const other = await createAccount(server);
    const together = await createLink(other, { title: 'Order', destination_url: 'https://shop.example/sku-0042' });
    const longer = await createLink(other, { title: 'SKU-00421 variant', destination_url: 'https://shop.example/v' });
    await createLink(other, { title: 'sku 0042', destination_url: 'https://shop.example/a' });
    await createLink(other, { title: '0042-sku', destination_url: 'https://shop.example/b' });
    await createLink(other, { title: 'sku', destination_url: 'https://shop.example/0042' });
    const response = await other.call('GET', '/links?search=Sku-0042');
    expect(response.status).toBe(200);
    expect(ids(response.body).sort()).toEqual([together.id, longer.id].sort());
    expect(response.body.total).toBe(2);
    const byHost = await other.call('GET', `/links?search=${encodeURIComponent('SHOP.example/sku')}`);
    expect(ids(byHost.body)).toEqual([together.id]);
    expect(byHost.body.total).toBe(1);
  });

  test('a search that is empty or only spaces is no search: every link, as without it', async () => {
    const without = await account.call('GET', '/links');
    for (const search of ['', '%20%20']) {
      const response = await account.call('GET', `/links?search=${search}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(without.body);
    }
  });

  test('spaces around the search are ignored; spaces inside are part of it', async () => {
    const response = await account.call('GET', `/links?search=${encodeURIComponent('  launch party ')}`);
    expect(ids(response.body)).toEqual([launch.id]);
    expect((await account.call('GET', `/links?search=${encodeURIComponent('launch  party')}`)).body.total).toBe(0);
  });

  test('a short search of one or two characters works too', async () => {
    const response = await account.call('GET', '/links?search=%25');
    expect(ids(response.body)).toEqual([percent.id]);
    expect((await account.call('GET', '/links?search=C:')).body.total).toBe(2);
  });

  test('finds nothing of another account', async () => {
    const other = await createAccount(server);
    await createLink(other, { title: 'Other launch', destination_url: 'https://example.com/other' });
    const response = await account.call('GET', '/links?search=other%20launch');
    expect(response.body).toMatchObject({ links: [], total: 0 });
  });

  test('a deleted link is not found', async () => {
    const gone = await createLink(account, { title: 'Vanishing launch', destination_url: 'https://example.com/gone' });
    expect((await account.call('GET', '/links?search=vanishing')).body.total).toBe(1);
    expect((await account.call('DELETE', `/links/${gone.id}`)).status).toBe(204);
    expect((await account.call('GET', '/links?search=vanishing')).body).toMatchObject({ links: [], total: 0 });
  });

  test('combined with tag_ids: links that match the search and carry one of the tags', async () => {
    const local = await createAccount(server, { plan: 'unlimited' });
    const tagged = await createLink(local, { title: 'Summer sale', destination_url: 'https://example.com/t1', tag_names: ['promo'] });
    await createLink(local, { title: 'Summer notes', destination_url: 'https://example.com/t2' });
    await createLink(local, { title: 'Winter sale', destination_url: 'https://example.com/t3', tag_names: ['promo'] });
    const promo = tagged.tags[0].id;
    const response = await local.call('GET', `/links?search=summer&tag_ids=${promo}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([tagged.id]);
    expect(response.body.total).toBe(1);
  });

  test('pages through the matches, with the real total on every page', async () => {
    const local = await createAccount(server, { plan: 'unlimited' });
    for (let i = 0; i < 5; i++) await createLink(local, { title: `Page match ${i}`, destination_url: `https://example.com/p${i}` });
    await createLink(local, { title: 'Unrelated', destination_url: 'https://example.com/u' });
    const second = await local.call('GET', '/links?search=page%20match&per_page=2&page=2');
    expect(titles(second.body)).toEqual(['Page match 2', 'Page match 1']);
    expect(second.body).toMatchObject({ page: 2, per_page: 2, total: 5 });
  });

  test('pages of a search with a tag filter, newest or oldest first, list each match once, in order', async () => {
    const local = await createAccount(server, { plan: 'unlimited' });
    const made: { id: string; tagged: boolean }[] = [];
    for (let i = 0; i < 9; i++) {
      const tagged = i % 3 !== 0;
      const link = await createLink(local, { title: `Walk ${i}`, ...(tagged ? { tag_names: ['walk'] } : {}) });
      made.push({ id: link.id, tagged });
    }
    await createLink(local, { title: 'Other', tag_names: ['walk'] });
    const tag = (await local.call('GET', '/tags')).body.tags.find((t: { name: string }) => t.name === 'walk').id;
    const tagged = made.filter((link) => link.tagged).map((link) => link.id);
    expect(await allPages(local, `search=walk&tag_ids=${tag}`, 4)).toEqual([...tagged].reverse());
    expect(await allPages(local, `search=walk&tag_ids=${tag}&order=asc`, 4)).toEqual(tagged);
    expect(await allPages(local, 'search=WALK&order=asc', 2)).toEqual(made.map((link) => link.id));
    expect((await local.call('GET', `/links?search=walk&tag_ids=${tag}&per_page=4&page=2`)).body.total).toBe(6);
  });

  test.each([
    ['longer than 200 characters', 'a'.repeat(201), 'search must be at most 200 characters'],
    ['a control character', 'launch%0Aparty', 'search must not contain control characters'],
  ])('422 VALIDATION_ERROR naming search for a search %s', async (_why, search, message) => {
    const response = await account.call('GET', `/links?search=${search}`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'search', message });
  });

  test('200 characters, counted as people count them (an emoji is one), are allowed', async () => {
    const response = await account.call('GET', `/links?search=${encodeURIComponent('🚀'.repeat(200))}`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(0);
  });
});

describe('a search keeps up with every change of a link (link_search, kept by triggers)', () => {
  const found = async (account: TestAccount, search: string) => {
    const response = await account.call('GET', `/links?search=${encodeURIComponent(search)}`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(response.body.links.length);
    return ids(response.body).sort();
  };

  test('links are found as soon as they are made: one at a time, in bulk and by upsert', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const single = await createLink(account, { title: 'Kept one', destination_url: 'https://example.com/kept/1' });
    const bulk = await account.call('POST', '/links/bulk', {
      links: [
        { title: 'Kept two', destination_url: 'https://example.com/kept/2' },
        { title: 'Kept three', destination_url: 'https://example.com/kept/3', external_id: 'KEPT-3' },
      ],
    });
    expect(bulk.status).toBe(201);
    const upserted = await account.call('POST', '/links/upsert', { title: 'Kept four', destination_url: 'https://example.com/kept/4' });
    expect(upserted.body.created).toBe(true);
    const made = [single.id, ...bulk.body.results.map((result: { link: { id: string } }) => result.link.id), upserted.body.id];
    expect(await found(account, 'kept')).toEqual([...made].sort());
    expect(await found(account, 'kept-3')).toEqual([made[2]]);
  });

  test('an edit is found by its new title and destination at once, and no longer by the old ones', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const link = await createLink(account, { title: 'Before title', destination_url: 'https://example.com/before-path' });
    const other = await createLink(account, { title: 'Untouched', destination_url: 'https://example.com/other' });
    expect((await account.call('PATCH', `/links/${link.id}`, { title: 'After Title' })).status).toBe(200);
    expect(await found(account, 'before title')).toEqual([]);
    expect(await found(account, 'after title')).toEqual([link.id]);
    const moved = await account.call('PATCH', '/links/bulk', {
      ids: [link.id, other.id],
      changes: { destination_url: 'https://example.com/AFTER-path' },
    });
    expect(moved.status).toBe(200);
    expect(await found(account, 'before-path')).toEqual([]);
    expect(await found(account, 'after-path')).toEqual([link.id, other.id].sort());
    // A click count changes no searched field: the link is found as before.
    await setClickCounts({ [link.id]: 7 });
    expect(await found(account, 'after title')).toEqual([link.id]);
  });

  test('a link deleted through the API or removed from the database is no longer found or counted', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const [a, b, c, d] = [
      await createLink(account, { title: 'Gone a' }),
      await createLink(account, { title: 'Gone b' }),
      await createLink(account, { title: 'Gone c' }),
      await createLink(account, { title: 'Gone d' }),
    ];
    expect((await account.call('DELETE', `/links/${a.id}`)).status).toBe(204);
    expect((await account.call('DELETE', `/links/bulk?ids=${b.id}`)).status).toBe(200);
    await server.orm.em.fork().getConnection().execute('delete from link where id = ?', [c.id]);
    expect(await found(account, 'gone')).toEqual([d.id]);
  });

  test('a search is planned for its text on every run: no generic plan, however often its statement runs', async () => {
    // One connection, so the statements the list prepares are the ones pg_prepared_statements shows.
    const orm = await createOrm({ databaseUrl: await createTestDatabase(), poolSize: 1 });
    try {
      const connection = orm.em.fork().getConnection();
      await connection.execute(`
        insert into account (id, name, plan) values ('acc_p', 'P', 'unlimited');
        insert into tag (id, account_id, name, color) values ('tag_p', 'acc_p', 'p', 'indigo');
        insert into link (id, account_id, slug, destination_url, title)
          select 'lnk_p' || g, 'acc_p', 'p' || g, 'https://example.com/' || g, 'Plan ' || g from generate_series(1, 50) g;
        insert into link_tag (link_id, tag_id) select 'lnk_p' || g, 'tag_p' from generate_series(1, 50, 2) g;`);
      const links = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() }).links;
      for (let i = 0; i < 12; i++) {
        const tag_ids = i % 2 ? ['tag_p'] : undefined;
        const search = `plan ${i + 1}`;
        const page = await links.list('acc_p', { search, tag_ids, page: 1, per_page: 20, sort: 'created_at' });
        const expected = Array.from({ length: 50 }, (_, g) => g + 1).filter(
          (g) => `plan ${g}`.includes(search) && (tag_ids === undefined || g % 2 === 1),
        );
        expect(page.total).toBe(expected.length);
      }
      const statements = (await connection.execute(
        `select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like '%link_search%'`,
      )) as { generic: number; custom: number }[];
      expect(statements.length).toBeGreaterThanOrEqual(2);
      expect(statements.every((statement) => statement.generic === 0 && statement.custom >= 6)).toBe(true);
    } finally {
      await orm.close();
    }
  });

  test('the migration makes every live link of an existing database searchable, and no deleted one', async () => {
    const orm = await createOrm({ databaseUrl: await createTestDatabase(), poolSize: 2 });
    try {
      await orm.migrator.down({ to: 'Migration20261125100000_account_api_rate_limit' });
      await orm.em
        .fork()
        .getConnection()
        .execute(`
        insert into account (id, name, plan) values ('acc_m', 'M', 'unlimited');
        insert into link (id, account_id, slug, destination_url, title, external_id, deleted_at) values
          ('lnk_m1', 'acc_m', 'old-one', 'https://example.com/Old/1', 'Old ONE', null, null),
          ('lnk_m2', 'acc_m', 'x2', 'https://example.com/2', 'Two', 'old-crm', null),
          ('lnk_m3', 'acc_m', 'x3', 'https://example.com/old/3', 'Old deleted', null, now());`);
      await orm.migrator.up();
      const links = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() }).links;
      const list = (search: string) => links.list('acc_m', { search, page: 1, per_page: 20, sort: 'created_at' });
      expect((await list('OLD')).links.map((link) => link.id).sort()).toEqual(['lnk_m1', 'lnk_m2']);
      expect((await list('OLD')).total).toBe(2);
      expect((await list('old-one')).links.map((link) => link.id)).toEqual(['lnk_m1']);
      // And the triggers keep it from then on.
      await orm.em
        .fork()
        .getConnection()
        .execute(`update link set title = 'New one', slug = 'new-one', destination_url = 'https://example.com/1' where id = 'lnk_m1'`);
      expect((await list('old')).links.map((link) => link.id)).toEqual(['lnk_m2']);
      expect((await list('new one')).total).toBe(1);
    } finally {
      await orm.close();
    }
  });
});

describe('GET /links?sort=&order=', () => {
  let account: TestAccount;
  let links: { id: string; title: string }[];

  beforeAll(async () => {
    account = await createAccount(server, { plan: 'unlimited' });
    links = [];
    // Slugs of our own: a random one holding "an" would match the search of the last test.
    for (const title of ['banana', 'Apple', 'cherry', 'apple', 'Banana split']) {
      links.push(
        await createLink(account, { title, destination_url: `https://example.com/sort/${links.length}`, slug: `sort-${links.length}` }),
      );
    }
    const [banana, Apple, cherry, apple, split] = links as [
      (typeof links)[0],
      (typeof links)[0],
      (typeof links)[0],
      (typeof links)[0],
      (typeof links)[0],
    ];
    await setClickCounts({ [banana.id]: 7, [Apple.id]: 3, [cherry.id]: 12, [apple.id]: 0, [split.id]: 3 });
  });

  const byTitle = (...names: string[]) => names.map((name) => links.find((link) => link.title === name)?.id);
  /** Links with equal values, in the id order the tie-breaker gives them. */
  const tied = (direction: 'asc' | 'desc', ...names: string[]) => {
    const sorted = byTitle(...names).sort() as string[];
    return direction === 'asc' ? sorted : sorted.reverse();
  };

  test('without sort or order, the spec default: newest first', async () => {
    const response = await account.call('GET', '/links');
    expect(ids(response.body)).toEqual(links.map((link) => link.id).reverse());
  });

  test('sort=created_at&order=asc: oldest first', async () => {
    const response = await account.call('GET', '/links?sort=created_at&order=asc');
    expect(ids(response.body)).toEqual(links.map((link) => link.id));
  });

  test('sort=click_count: most clicked first by default; equal counts by id, in the same direction', async () => {
    const response = await account.call('GET', '/links?sort=click_count');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([...byTitle('cherry', 'banana'), ...tied('desc', 'Apple', 'Banana split'), ...byTitle('apple')]);
  });

  test('sort=click_count&order=asc: least clicked first', async () => {
    const response = await account.call('GET', '/links?sort=click_count&order=asc');
    expect(ids(response.body)).toEqual([...byTitle('apple'), ...tied('asc', 'Apple', 'Banana split'), ...byTitle('banana', 'cherry')]);
  });

  test('sort=title: A to Z by default, ignoring case; the same letters in other cases by their exact text', async () => {
    const response = await account.call('GET', '/links?sort=title');
    expect(titles(response.body)).toEqual(['Apple', 'apple', 'banana', 'Banana split', 'cherry']);
  });

  test('sort=title&order=desc: Z to A, the exact reverse', async () => {
    const response = await account.call('GET', '/links?sort=title&order=desc');
    expect(titles(response.body)).toEqual(['cherry', 'Banana split', 'banana', 'apple', 'Apple']);
  });

  test('sort and order combine with search, tag_ids and pages', async () => {
    const response = await account.call('GET', '/links?search=an&sort=click_count&order=asc&per_page=1&page=2');
    expect(titles(response.body)).toEqual(['banana']);
    expect(response.body.total).toBe(2);
  });

  test('empty sort, order and search count as not sent, like every query value: the defaults apply', async () => {
    expect((await account.call('GET', '/links?sort=&order=&search=')).body).toEqual((await account.call('GET', '/links')).body);
  });

  test('order alone applies to the default sort: desc is the default, asc is oldest first', async () => {
    expect((await account.call('GET', '/links?order=desc')).body).toEqual((await account.call('GET', '/links')).body);
    expect(ids((await account.call('GET', '/links?order=asc')).body)).toEqual(links.map((link) => link.id));
  });

  test.each([
    ['sort', 'sort=clicks', 'sort must be one of created_at, click_count, title'],
    ['order', 'order=up', 'order must be asc or desc'],
    ['order', 'order=DESC', 'order must be asc or desc'],
  ])('422 VALIDATION_ERROR naming %s for %s', async (field, query, message) => {
    const response = await account.call('GET', `/links?${query}`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field, message });
  });
});

describe('total, counted the cheapest exact way', () => {
  const liveInDatabase = async (accountId: string) => {
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from link where account_id = ? and deleted_at is null', [accountId]);
    return (rows[0] as { n: number }).n;
  };

  test('without a filter: the live links after creates, upserts, deletes and links removed from the database', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const total = async () => (await account.call('GET', '/links')).body.total;
    expect(await total()).toBe(0);
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createLink(account, { destination_url: `https://example.com/count/${i}` }));
    expect(
      (await account.call('POST', '/links/upsert', { title: 'Up', destination_url: 'https://example.com/count/0' })).body.created,
    ).toBe(false);
    expect(
      (await account.call('POST', '/links/upsert', { title: 'Up', destination_url: 'https://example.com/count/new' })).body.created,
    ).toBe(true);
    expect(await total()).toBe(5);
    expect((await account.call('DELETE', `/links/${made[0].id}`)).status).toBe(204);
    expect((await account.call('DELETE', `/links/${made[0].id}`)).status).toBe(404);
    expect(await total()).toBe(4);
    // A deleted row removed for good does not count twice; a live one removed counts down.
    await server.orm.em.fork().getConnection().execute('delete from link where id in (?, ?)', [made[0].id, made[1].id]);
    // Written beside the API, so this server's pages of links are forgotten when the triggers'
    // announcement arrives, milliseconds later (docs/architecture.md), not before the next read.
    await expect.poll(total, { timeout: 2000 }).toBe(3);
    expect(await total()).toBe(await liveInDatabase(account.account.id));
    // Click counts and edits do not change it.
    await setClickCounts({ [made[2].id]: 5 });
    expect((await account.call('PATCH', `/links/${made[2].id}`, { title: 'Edited' })).status).toBe(200);
    expect(await total()).toBe(3);
  });

  test('with tag_ids: a link carrying two of the tags counts once, a deleted link not at all, another account’s tag nothing', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const both = await createLink(account, { tag_names: ['red', 'blue'] });
    const red = both.tags.find((tag: { name: string }) => tag.name === 'red').id;
    const blue = both.tags.find((tag: { name: string }) => tag.name === 'blue').id;
    await createLink(account, { tag_ids: [red] });
    const gone = await createLink(account, { tag_ids: [blue] });
    await createLink(account, {});
    const other = await createAccount(server);
    const foreign = (await createLink(other, { tag_names: ['red'] })).tags[0].id;
    expect((await account.call('DELETE', `/links/${gone.id}`)).status).toBe(204);
    const totalOf = async (ids: string[]) => (await account.call('GET', `/links?tag_ids=${ids.join(',')}`)).body;
    expect((await totalOf([red, blue])).total).toBe(2);
    expect((await totalOf([red, blue, foreign])).total).toBe(2);
    expect((await totalOf([blue])).total).toBe(1);
    expect((await totalOf([red, red])).total).toBe(2);
    expect(await totalOf([foreign])).toMatchObject({ links: [], total: 0 });
  });
});

describe('pages of a sort with many equal values', () => {
  test('neither repeat nor skip a link (the id breaks ties), in either direction and for every sort', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const created: string[] = [];
    for (let i = 0; i < 23; i++) {
      created.push((await createLink(account, { title: i % 2 ? 'Same' : 'same', destination_url: `https://example.com/tie/${i}` })).id);
    }
    await setClickCounts(Object.fromEntries(created.map((id, i) => [id, i % 3])));
    for (const sort of ['click_count', 'title', 'created_at']) {
      for (const order of ['asc', 'desc']) {
        const seen = await allPages(account, `sort=${sort}&order=${order}`, 4);
        expect(seen).toHaveLength(created.length);
        expect(new Set(seen)).toEqual(new Set(created));
      }
    }
  });
});

describe('search and sort over tRPC and the typed client', () => {
  test('links.list with search, sort and order equals GET /links with the same query', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const client = createClient({ baseUrl: server.origin, apiKey: account.key });
    await client.links.create({ title: 'Typed beta', destination_url: 'https://example.com/typed/b' });
    await client.links.create({ title: 'Typed alpha', destination_url: 'https://example.com/typed/a' });
    await client.links.create({ title: 'Untyped', destination_url: 'https://example.com/other' });

    const typed = await client.links.list({ search: 'typed/', sort: 'title', order: 'asc' });
    expect(typed.links.map((link) => link.title)).toEqual(['Typed alpha', 'Typed beta']);
    expect(typed).toEqual((await account.call('GET', '/links?search=typed%2F&sort=title&order=asc')).body);
  });

  test('half a surrogate pair in a search over tRPC (JSON can carry it) is a VALIDATION_ERROR naming search', async () => {
    const account = await createAccount(server);
    const input = encodeURIComponent(JSON.stringify({ search: 'launch\ud800' }));
    const response = await fetch(`${server.origin}/trpc/links.list?input=${input}`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('"field":"search"');
  });

  test('a bad sort over tRPC is the same VALIDATION_ERROR naming sort', async () => {
    const account = await createAccount(server);
    const response = await fetch(`${server.origin}/trpc/links.list?input=${encodeURIComponent(JSON.stringify({ sort: 'clicks' }))}`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
    const body = await response.json();
    expect(response.status).toBe(422);
    expect(JSON.stringify(body)).toContain('"field":"sort"');
  });
});

describe('a search on a database whose collation lower-cases differently (Turkish: I is ı)', () => {
  test('finds what ilike finds, in one word or several', async () => {
    // An external PostgreSQL may be created with any collation; the embedded one is C.UTF-8.
    const url = new URL(inject('appDatabaseUrl'));
    url.pathname = `/turkish_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    try {
      await admin.query(
        `create database ${url.pathname.slice(1)} template template0 owner ${pg.escapeIdentifier(decodeURIComponent(url.username))}
         encoding 'UTF8' locale_provider icu icu_locale 'tr-TR' locale 'C.UTF-8'`,
      );
    } finally {
      await admin.end();
    }
    const orm = await createOrm({ databaseUrl: url.href, poolSize: 2 });
    await migrate(orm);
    await orm.close();
    const turkish = await startTestServer({ databaseUrl: url.href });
    try {
      const account = await createAccount(turkish);
      const kit = await createLink(account, { title: 'KIT-2024 launch', destination_url: 'https://example.com/kit' });
      const connection = turkish.orm.em.fork().getConnection();
      for (const search of ['KIT', 'KIT-2024', 'KIT-2024 LAUNCH', 'kit-2024']) {
        const [{ matches }] = (await connection.execute('select count(*)::int as matches from link where title ilike ?', [
          `%${search}%`,
        ])) as [{ matches: number }];
        const response = await account.call('GET', `/links?search=${encodeURIComponent(search)}`);
        expect({ search, total: response.body.total }).toEqual({ search, total: matches });
        expect(ids(response.body)).toEqual(matches === 1 ? [kit.id] : []);
      }
    } finally {
      await turkish.close();
    }
  });
});
