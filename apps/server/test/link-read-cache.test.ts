import { callProcedure } from '@shortlinks/api';
import { createServices, LinkReadCache } from '@shortlinks/api/services';
import type { Link } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BROWSER_USER_AGENT as BROWSER,
  createAccount,
  createLink,
  createTestDatabase,
  getLink,
  msUntil,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';

/**
 * GET /links/{id} is answered from memory while nothing of the account's links changed
 * (docs/architecture.md, "What a process keeps in memory"). These tests run two servers on one
 * database, each keeping what it read for a minute: whatever either sees of a change in time, it
 * saw through the announcements (or its own writes), not because an entry aged out.
 */

describe('two servers on one database, each keeping the links it read', () => {
  let here: TestServer;
  let there: TestServer;
  let account: TestAccount;
  /** The same account's key, called through the other server. */
  let elsewhere: TestAccount['call'];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    here = await startTestServer({ databaseUrl, linkReadCacheMs: 60_000 });
    there = await startTestServer({ databaseUrl, linkReadCacheMs: 60_000 });
    account = await createAccount(here, { plan: 'unlimited' });
    elsewhere = (method, path, body, headers) =>
      fetch(`${there.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${account.key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (response) => ({ status: response.status, headers: response.headers, body: await response.json(), text: '' }));
  }, 60_000);

  afterAll(async () => {
    await here?.close();
    await there?.close();
  });

  /** Reads the link through both servers until both keep it, so what follows is answered from memory. */
  async function readEverywhere(id: string): Promise<Link> {
    // The link's own creation is announced to both servers and may arrive after a first read on a
    // busy machine, forgetting it: read again until both keep it (at most a few seconds).
    const deadline = Date.now() + 10_000;
    for (;;) {
      const link = await getLink(account, id);
      expect((await elsewhere('GET', `/links/${id}`)).body).toEqual(link);
      if (here.services.links.reads.size > 0 && there.services.links.reads.size > 0) return link;
      if (Date.now() > deadline) throw new Error('the link was never kept by both servers');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const titleThere = async (id: string) => (await elsewhere('GET', `/links/${id}`)).body.title;

  test('a link changed through one server is read changed there at once, and through the other within 1 s', async () => {
    const { id } = await createLink(account, { title: 'Before' });
    await readEverywhere(id);

    const changing = performance.now();
    expect((await account.call('PATCH', `/links/${id}`, { title: 'After' })).status).toBe(200);
    expect((await getLink(account, id)).title).toBe('After');
    expect(await msUntil(async () => (await titleThere(id)) === 'After', changing)).toBeLessThan(1_000);
  });

  test('a read racing a change never keeps what it read before the change', async () => {
    const { id } = await createLink(account, { title: 'v0' });
    for (let version = 1; version <= 20; version++) {
      // Reads in flight on both servers while the change commits; each may read the old title,
      // none may keep it.
      const reads = Array.from({ length: 8 }, (_, i) => (i % 2 ? account.call('GET', `/links/${id}`) : elsewhere('GET', `/links/${id}`)));
      const changed = await account.call('PATCH', `/links/${id}`, { title: `v${version}` });
      expect(changed.status).toBe(200);
      await Promise.all(reads);
      expect((await getLink(account, id)).title).toBe(`v${version}`);
      expect(await msUntil(async () => (await titleThere(id)) === `v${version}`, performance.now())).toBeLessThan(1_000);
    }
  });

  test('a tag renamed through one server is on the link read through the other within 1 s', async () => {
    const { id, tags } = await createLink(account, { tag_names: ['draft'] });
    await readEverywhere(id);

    const renaming = performance.now();
    expect((await account.call('PATCH', `/tags/${tags[0].id}`, { name: 'final' })).status).toBe(200);
    expect((await getLink(account, id)).tags.map((tag: { name: string }) => tag.name)).toEqual(['final']);
    const renamedThere = async () => (await elsewhere('GET', `/links/${id}`)).body.tags[0]?.name === 'final';
    expect(await msUntil(renamedThere, renaming)).toBeLessThan(1_000);

    // A tag deleted takes itself off the link everywhere.
    const deleting = performance.now();
    expect((await account.call('DELETE', `/tags/${tags[0].id}`)).status).toBe(204);
    expect((await getLink(account, id)).tags).toEqual([]);
    expect(await msUntil(async () => (await elsewhere('GET', `/links/${id}`)).body.tags.length === 0, deleting)).toBeLessThan(1_000);
  });

  test('a link deleted through one server is not found through the other within 1 s', async () => {
    const { id } = await createLink(account);
    await readEverywhere(id);
    const deleting = performance.now();
    expect((await account.call('DELETE', `/links/${id}`)).status).toBe(204);
    expect((await account.call('GET', `/links/${id}`)).status).toBe(404);
    expect(await msUntil(async () => (await elsewhere('GET', `/links/${id}`)).status === 404, deleting)).toBeLessThan(1_000);
  });

  test('a change written by hand in SQL (the CLI, an operator) is read through both servers within 1 s', async () => {
    const { id } = await createLink(account, { title: 'By the API' });
    await readEverywhere(id);
    const writing = performance.now();
    await here.orm.em.fork().getConnection().execute(`update link set title = 'By hand' where id = ?`, [id]);
    const byHand = async () => (await getLink(account, id)).title === 'By hand' && (await titleThere(id)) === 'By hand';
    expect(await msUntil(byHand, writing)).toBeLessThan(1_000);
  });

  test('clicks written by one server are counted in the link read through either at once', async () => {
    const { id, slug } = await createLink(account);
    await readEverywhere(id);
    for (let i = 0; i < 3; i++) {
      const visit = await fetch(`${here.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
      expect(visit.status).toBe(302);
    }
    const flushing = performance.now();
    await here.services.clicks.flush();
    expect((await getLink(account, id)).click_count).toBe(3);
    expect(await msUntil(async () => (await elsewhere('GET', `/links/${id}`)).body.click_count === 3, flushing)).toBeLessThan(1_000);
  });

  test('while announcements cannot arrive, nothing is answered from memory', { timeout: 20_000 }, async () => {
    const { id } = await createLink(account, { title: 'Listened' });
    await readEverywhere(id);
    // The other server's listening connection dies, as it would when PostgreSQL restarts or a
    // network drops it; a change is then written, announced to no one there.
    await here.orm.em
      .fork()
      .getConnection()
      .execute(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'shortlinks change listener' and datname = current_database()`,
      );
    await here.orm.em.fork().getConnection().execute(`update link set title = 'Unannounced' where id = ?`, [id]);
    expect(await msUntil(async () => (await titleThere(id)) === 'Unannounced', performance.now())).toBeLessThan(1_000);
    // Once listening again (after its backoff), it keeps links again, and hears their changes.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await readEverywhere(id);
    const changing = performance.now();
    await account.call('PATCH', `/links/${id}`, { title: 'Heard again' });
    expect(await msUntil(async () => (await titleThere(id)) === 'Heard again', changing)).toBeLessThan(1_000);
  });

  test('a page of links is read again from memory, and changes with any link of the account', async () => {
    const pageHere = async () => (await account.call('GET', '/links?per_page=5')).body;
    const pageThere = async () => (await elsewhere('GET', '/links?per_page=5')).body;
    const entries = here.services.links.reads.size;
    const before = await pageHere();
    expect(here.services.links.reads.size).toBe(entries + 1);
    expect(await pageThere()).toEqual(before);
    // Kept: asked again, the same page comes back without a read (the same frozen object's JSON).
    expect(await pageHere()).toEqual(before);

    const creating = performance.now();
    const created = await createLink(account, { title: 'Newest' });
    const after = await pageHere();
    expect(after.total).toBe(before.total + 1);
    expect(after.links[0].id).toBe(created.id);
    expect(await msUntil(async () => (await pageThere()).links[0]?.id === created.id, creating)).toBeLessThan(1_000);

    // A search page, and a tag filter's, follow a changed title and a changed tag alike.
    const { id } = await createLink(account, { title: 'Findable quokka', tag_names: ['fauna'] });
    const search = async () => (await elsewhere('GET', '/links?search=quokka')).body;
    expect((await search()).links.map((link: Link) => link.id)).toEqual([id]);
    const renaming = performance.now();
    await account.call('PATCH', `/links/${id}`, { title: 'Findable wombat' });
    expect((await account.call('GET', '/links?search=quokka')).body.total).toBe(0);
    expect(await msUntil(async () => (await search()).total === 0, renaming)).toBeLessThan(1_000);
  });

  test("an account's new link limit, set by the operator, is in its pages through both servers within 1 s", async () => {
    const limited = await createAccount(here, { plan: 'starter' });
    const limitThere = async () => {
      const response = await fetch(`${there.api}/links`, { headers: { authorization: `Bearer ${limited.key}` } });
      return ((await response.json()) as { link_limit: number | null }).link_limit;
    };
    const before = (await limited.call('GET', '/links')).body.link_limit;
    expect(await limitThere()).toBe(before);
    const changing = performance.now();
    // As `pnpm shortlinks account update` does, from its own services.
    const operator = createServices({ orm: here.orm, shortDomain: here.shortDomain });
    await operator.accounts.update(limited.account.id, { link_limit: before + 7 });
    const both = async () => (await limited.call('GET', '/links')).body.link_limit === before + 7 && (await limitThere()) === before + 7;
    expect(await msUntil(both, changing)).toBeLessThan(1_000);
  });

  test('an unknown or another account’s link is never kept: guessing cannot fill the cache', async () => {
    const other = await createAccount(here);
    const { id } = await createLink(other);
    const before = here.services.links.reads.size;
    for (let i = 0; i < 10; i++) expect((await account.call('GET', `/links/lnk_${'x'.repeat(20)}${i}`)).status).toBe(404);
    expect((await account.call('GET', `/links/${id}`)).status).toBe(404);
    expect(here.services.links.reads.size).toBe(before);
  });
});

describe('one process, hearing nothing', () => {
  test("every mutation forgets the account's links before it is answered: a caller reads its own writes", async () => {
    const server = await startTestServer();
    try {
      // Services of their own, with no listener: only the mutation itself can forget the link.
      const services = createServices({ orm: server.orm, shortDomain: server.shortDomain, linkReadCacheMs: 60_000 });
      services.links.reads.reset(true);
      const account = await createAccount(server);
      const ctx = {
        services,
        transport: 'rest' as const,
        caller: {
          accountId: account.account.id,
          keyId: 'key',
          scopes: null,
          role: 'owner' as const,
          user: null,
          session: null,
          plan: 'starter' as const,
          rateLimit: null,
        },
      };
      const { id, tags } = (await callProcedure('links.create', ctx, {
        title: 'Own',
        destination_url: 'https://example.com/own',
        tag_names: ['one'],
      })) as Link;
      const read = () => callProcedure('links.get', ctx, { id }) as Promise<Link>;

      await read();
      expect(services.links.reads.get(account.account.id, id)).toBeDefined();
      await callProcedure('links.update', ctx, { id, title: 'Mine' });
      expect(services.links.reads.get(account.account.id, id)).toBeUndefined();
      expect((await read()).title).toBe('Mine');

      await callProcedure('tags.update', ctx, { id: tags[0]?.id, name: 'renamed' });
      expect((await read()).tags[0]?.name).toBe('renamed');
      // Clicks written by this process's recorder count at once.
      const agent = { device: 'desktop', browser: 'Chrome', os: 'Linux' } as const;
      services.clicks.record({
        linkId: id,
        at: Date.now(),
        referrerHost: null,
        agent,
        country: null,
        clientIp: '192.0.2.1',
        userAgent: BROWSER,
      });
      await services.clicks.flush();
      expect((await read()).click_count).toBe(1);
      // A failed mutation forgets too (harmless: nothing changed).
      await expect(callProcedure('links.update', ctx, { id, destination_url: 'not a url' })).rejects.toThrow();
      expect(services.links.reads.get(account.account.id, id)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

describe('LinkReadCache', () => {
  const link = (title: string): Link => ({
    id: 'lnk_a',
    domain: 'sho.rt',
    short_url: 'https://sho.rt/a',
    destination_url: 'https://example.com/',
    title,
    slug: 'a',
    tags: [],
    click_count: 0,
    created_at: 0,
  });

  test('keeps nothing until told announcements arrive, and nothing once told they may be missed', () => {
    const cache = new LinkReadCache();
    cache.set('acc_1', 'lnk_a', link('A'), cache.snapshot('acc_1'));
    expect(cache.get('acc_1', 'lnk_a')).toBeUndefined();
    cache.reset(true);
    cache.set('acc_1', 'lnk_a', link('A'), cache.snapshot('acc_1'));
    expect((cache.get('acc_1', 'lnk_a') as Link).title).toBe('A');
    cache.reset(false);
    expect(cache.get('acc_1', 'lnk_a')).toBeUndefined();
  });

  test("forgets an account's links, and refuses what a read begun before that found", () => {
    const cache = new LinkReadCache();
    cache.reset(true);
    cache.set('acc_1', 'lnk_a', link('A'), cache.snapshot('acc_1'));
    cache.set('acc_2', 'lnk_a', link('Other account'), cache.snapshot('acc_2'));
    const racing = cache.snapshot('acc_1');
    cache.forgetAccount('acc_1');
    expect(cache.get('acc_1', 'lnk_a')).toBeUndefined();
    cache.set('acc_1', 'lnk_a', link('Read before the change'), racing);
    expect(cache.get('acc_1', 'lnk_a')).toBeUndefined();
    // Another account's links stay (unless it shares the slot, which only costs a read).
    expect((cache.get('acc_2', 'lnk_a') as Link).title).toBe('Other account');
  });

  test('an entry never outlives its bound, counted from when its read began', () => {
    const cache = new LinkReadCache({ ttlMs: 1_000 });
    cache.reset(true);
    cache.set('acc_1', 'lnk_a', link('A'), cache.snapshot('acc_1', 100));
    expect((cache.get('acc_1', 'lnk_a', 1_099) as Link).title).toBe('A');
    expect(cache.get('acc_1', 'lnk_a', 1_100)).toBeUndefined();
    // A bound of 0 keeps nothing at all (bench:api's uncached server, bench:list).
    const none = new LinkReadCache({ ttlMs: 0 });
    none.reset(true);
    none.set('acc_1', 'lnk_a', link('A'), none.snapshot('acc_1'));
    expect(none.size).toBe(0);
  });

  test('is bounded by the links it holds: a page of 100 weighs 100', () => {
    const cache = new LinkReadCache({ maxLinks: 150 });
    cache.reset(true);
    const page = (n: number) => ({
      links: Array.from({ length: 100 }, () => link(`page ${n}`)),
      page: n,
      per_page: 100,
      total: 300,
      link_limit: null,
    });
    for (let n = 1; n <= 3; n++) cache.set('acc_1', `?page=${n}`, page(n), cache.snapshot('acc_1'));
    expect(cache.size).toBe(1);
    expect(cache.get('acc_1', '?page=3')).toBeDefined();
    cache.set('acc_1', 'lnk_a', link('A'), cache.snapshot('acc_1'));
    expect(cache.size).toBe(2);
  });

  test('what it keeps is frozen: every reader shares it', () => {
    const cache = new LinkReadCache();
    cache.reset(true);
    cache.set('acc_1', 'lnk_a', link('A'), cache.snapshot('acc_1'));
    const kept = cache.get('acc_1', 'lnk_a') as Link;
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept.tags)).toBe(true);
    cache.set('acc_1', '?page=1', { links: [link('B')], page: 1, per_page: 20, total: 1, link_limit: 100 }, cache.snapshot('acc_1'));
    const page = cache.get('acc_1', '?page=1') as { links: Link[] };
    expect(Object.isFrozen(page)).toBe(true);
    expect(Object.isFrozen(page.links)).toBe(true);
    expect(Object.isFrozen(page.links[0])).toBe(true);
  });
});
