import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, getLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

function visit(target: TestServer, slug: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return fetch(`${target.origin}/${slug}`, {
    redirect: 'manual',
    method: init.method ?? 'GET',
    headers: { 'user-agent': BROWSER, ...init.headers },
  });
}

async function until(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('GET /{slug}', () => {
  test('a live link answers 302 to exactly its destination, uncacheable and not indexed', async () => {
    const link = await createLink(alice, { destination_url: 'https://example.com/landing?a=1&b=%20x#frag', slug: 'go-here' });
    const response = await visit(server, 'go-here');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(link.destination_url);
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
  });

  test('slugs are case-sensitive', async () => {
    await createLink(alice, { slug: 'CaseOnly', destination_url: 'https://example.com/case' });
    expect((await visit(server, 'CaseOnly')).status).toBe(302);
    expect((await visit(server, 'caseonly')).status).toBe(404);
  });

  test('an unknown slug gives 404 with a small HTML page', async () => {
    const response = await visit(server, 'nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('not found');
  });

  test('a deleted link gives 404 on the very next request, even after it was cached', async () => {
    const link = await createLink(alice, { slug: 'soon-gone' });
    expect((await visit(server, 'soon-gone')).status).toBe(302);
    expect((await alice.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    expect((await visit(server, 'soon-gone')).status).toBe(404);
  });

  test('a PATCH of the destination applies to the very next request', async () => {
    const link = await createLink(alice, { slug: 'moving', destination_url: 'https://example.com/old' });
    expect((await visit(server, 'moving')).headers.get('location')).toBe('https://example.com/old');
    await alice.call('PATCH', `/links/${link.id}`, { destination_url: 'https://example.com/new' });
    expect((await visit(server, 'moving')).headers.get('location')).toBe('https://example.com/new');
  });

  test('a slug unknown a moment ago redirects as soon as a link takes it (no stale negative cache)', async () => {
    expect((await visit(server, 'fresh-slug')).status).toBe(404);
    await createLink(alice, { slug: 'fresh-slug', destination_url: 'https://example.com/fresh' });
    expect((await visit(server, 'fresh-slug')).status).toBe(302);
  });

  test("the server's own paths are never treated as slugs", async () => {
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.origin}/docs/`, { redirect: 'manual' })).status).toBe(200);
    expect((await fetch(`${server.origin}/api/v1/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.origin}/robots.txt`)).status).toBe(200);
  });
});

describe('expiry', () => {
  test('after expires_at the link redirects to expiration_url; without one it answers 410 Gone', async () => {
    const expiresAt = Date.now() + 1500;
    await createLink(alice, {
      slug: 'with-fallback',
      destination_url: 'https://example.com/live',
      expires_at: expiresAt,
      expiration_url: 'https://example.com/fallback',
    });
    await createLink(alice, { slug: 'no-fallback', destination_url: 'https://example.com/live2', expires_at: expiresAt });
    expect((await visit(server, 'with-fallback')).headers.get('location')).toBe('https://example.com/live');
    expect((await visit(server, 'no-fallback')).status).toBe(302);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    const fallback = await visit(server, 'with-fallback');
    expect(fallback.status).toBe(302);
    expect(fallback.headers.get('location')).toBe('https://example.com/fallback');
    const gone = await visit(server, 'no-fallback');
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('expired');
  });
});

describe('click counting', () => {
  test('each GET redirect counts one click once flushed; HEAD and bots do not count', async () => {
    const link = await createLink(alice, { slug: 'counted' });
    for (let i = 0; i < 7; i++) await visit(server, 'counted', { headers: { referer: 'https://news.example.org/item?id=1' } });
    for (let i = 0; i < 3; i++) await visit(server, 'counted', { headers: { 'user-agent': PHONE } });
    for (let i = 0; i < 2; i++) expect((await visit(server, 'counted', { method: 'HEAD' })).status).toBe(302);
    for (let i = 0; i < 4; i++) expect((await visit(server, 'counted', { headers: { 'user-agent': GOOGLEBOT } })).status).toBe(302);

    expect((await getLink(alice, link.id)).click_count).toBe(0); // buffered, not yet written
    await server.services.clicks.flush();
    expect((await getLink(alice, link.id)).click_count).toBe(10);

    const events = await server.orm.em
      .fork()
      .getConnection()
      .execute(`select referrer_host, agent_class, sum(clicks)::int as n from click where link_id = ? group by 1, 2 order by 1`, [link.id]);
    expect(events).toEqual([
      { referrer_host: 'news.example.org', agent_class: 'desktop', n: 7 },
      { referrer_host: null, agent_class: 'mobile', n: 3 },
    ]);
  });

  test('a flush writes all buffered clicks of many links in one statement and keeps counts exact', async () => {
    const links = await Promise.all(Array.from({ length: 5 }, (_, i) => createLink(alice, { slug: `many-${i}` })));
    await Promise.all(links.flatMap((link, i) => Array.from({ length: i + 1 }, () => visit(server, link.slug))));
    await server.services.clicks.flush();
    for (const [i, link] of links.entries()) expect((await getLink(alice, link.id)).click_count).toBe(i + 1);
  });

  test('visits counted while a flush is writing go to the next flush: none lost, none twice', async () => {
    const link = await createLink(alice, { slug: 'mid-flush' });
    // The same visitor, in the same second: each visit joins the group counted last.
    for (let i = 0; i < 3; i++) await visit(server, 'mid-flush');
    const writing = server.services.clicks.flush();
    for (let i = 0; i < 4; i++) await visit(server, 'mid-flush');
    await writing;
    await server.services.clicks.flush();
    expect((await getLink(alice, link.id)).click_count).toBe(7);
    // Two visitors alternating: neither's clicks go to the other's group.
    for (let i = 0; i < 4; i++) await visit(server, 'mid-flush', { headers: { 'user-agent': i % 2 ? PHONE : BROWSER } });
    await server.services.clicks.flush();
    const events = await server.orm.em
      .fork()
      .getConnection()
      .execute(`select agent_class, sum(clicks)::int as n from click where link_id = ? group by 1 order by 1`, [link.id]);
    expect(events).toEqual([
      { agent_class: 'desktop', n: 9 },
      { agent_class: 'mobile', n: 2 },
    ]);
  });
});

describe('several server processes on one database', () => {
  test('an update, a delete or a new link on one server is seen by the other at once', async () => {
    const other = await startTestServer({ databaseUrl: server.databaseUrl });
    try {
      const link = await createLink(alice, { slug: 'shared', destination_url: 'https://example.com/v1' });
      expect((await visit(other, 'shared')).headers.get('location')).toBe('https://example.com/v1');

      await alice.call('PATCH', `/links/${link.id}`, { destination_url: 'https://example.com/v2' });
      await until(async () => (await visit(other, 'shared')).headers.get('location') === 'https://example.com/v2', 1000);

      await alice.call('DELETE', `/links/${link.id}`);
      await until(async () => (await visit(other, 'shared')).status === 404, 1000);

      expect((await visit(other, 'later')).status).toBe(404);
      await createLink(alice, { slug: 'later' });
      await until(async () => (await visit(other, 'later')).status === 302, 1000);
    } finally {
      await other.close();
    }
  });
});
