import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BROWSER_USER_AGENT as BROWSER,
  createAccount,
  createCachedLink,
  createLink,
  createTestDatabase,
  msUntil,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';

/**
 * Where a slug redirects is announced to every server process by triggers, whoever writes
 * (Migration20261127100000_link_slug_changes, docs/redirects.md): a link imported by the CLI or
 * changed by hand in SQL reaches the redirect caches of running servers, and a click count does not
 * make them forget anything.
 */

describe('redirects of links written outside the API, and by another server', () => {
  let here: TestServer;
  let there: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    here = await startTestServer({ databaseUrl });
    there = await startTestServer({ databaseUrl });
    account = await createAccount(here, { plan: 'unlimited' });
  }, 60_000);
  afterAll(async () => {
    await here?.close();
    await there?.close();
  });

  const visit = (server: TestServer, slug: string) =>
    fetch(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
  const sql = (text: string, values: unknown[]) => here.orm.em.fork().getConnection().execute(text, values);

  test('a slug asked for before it existed redirects once a link with it is written by hand (as an import writes it)', async () => {
    // Both servers now hold "no such link" for the slug.
    for (const server of [here, there]) expect((await visit(server, 'imported-later')).status).toBe(404);
    expect(here.services.redirects.cache.size).toBeGreaterThan(0);

    const writing = performance.now();
    await sql(
      `insert into link (id, account_id, slug, destination_url, title) values ('lnk_byhand1', ?, 'imported-later', 'https://example.com/imported', 'By hand')`,
      [account.account.id],
    );
    const redirected = async () =>
      (await visit(here, 'imported-later')).headers.get('location') === 'https://example.com/imported' &&
      (await visit(there, 'imported-later')).headers.get('location') === 'https://example.com/imported';
    expect(await msUntil(redirected, writing)).toBeLessThan(1_000);
  });

  test('a destination changed by hand is followed by every server within 1 s', async () => {
    const { id, slug } = await createLink(account, { destination_url: 'https://example.com/first' });
    for (const server of [here, there]) expect((await visit(server, slug)).headers.get('location')).toBe('https://example.com/first');

    const writing = performance.now();
    await sql(`update link set destination_url = 'https://example.com/second' where id = ?`, [id]);
    const followed = async () =>
      (await visit(here, slug)).headers.get('location') === 'https://example.com/second' &&
      (await visit(there, slug)).headers.get('location') === 'https://example.com/second';
    expect(await msUntil(followed, writing)).toBeLessThan(1_000);
  });

  test('a link deleted through one server stops redirecting through the other within 1 s', async () => {
    const { id, slug } = await createLink(account);
    for (const server of [here, there]) expect((await visit(server, slug)).status).toBe(302);

    const deleting = performance.now();
    expect((await account.call('DELETE', `/links/${id}`)).status).toBe(204);
    expect((await visit(here, slug)).status).toBe(404);
    expect(await msUntil(async () => (await visit(there, slug)).status === 404, deleting)).toBeLessThan(1_000);
  });

  test('written clicks make no server forget where a link redirects', async () => {
    const slug = 'clicks-written';
    await createCachedLink(account, [here, there], { slug });
    for (const server of [here, there]) expect((await visit(server, slug)).status).toBe(302);
    const cached = (server: TestServer) => server.services.redirects.cache.get(slug) !== undefined;
    expect(cached(here) && cached(there)).toBe(true);

    await here.services.clicks.flush();
    expect((await sql('select click_count from link where slug = ?', [slug]))[0]).toMatchObject({ click_count: '1' });
    // Long enough for an announcement to arrive, had there been one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cached(here) && cached(there)).toBe(true);
  });
});
