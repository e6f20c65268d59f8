import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, getLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { rawVisit, seen } from './raw-visits.ts';

/**
 * A link's first visit is answered by Fastify's route, which caches it; the next ones by the fast
 * path before Fastify (src/redirects/fast-redirects.ts). Visitors must not be able to tell them
 * apart: same answer, same counting, same log line, same proxy trust.
 */

let server: TestServer;
let alice: TestAccount;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = await startTestServer({ logLevel: 'info', logStream: { write: (line) => lines.push(JSON.parse(line)) } });
  alice = await createAccount(server);
});
afterAll(() => server.close());

describe('a cached link is answered as the route answers it', () => {
  test('the first visit (route) and the next (fast path) give the same status, headers and empty body', async () => {
    await createLink(alice, { slug: 'same-answer', destination_url: 'https://example.com/same?x=1' });
    const first = await rawVisit(server.origin, '/same-answer');
    const second = await rawVisit(server.origin, '/same-answer');
    expect(first.status).toBe(302);
    expect(first.headers['content-length']).toBe('0');
    expect(first.headers.location).toBe('https://example.com/same?x=1');
    expect(seen(second)).toEqual(seen(first));
    // With a query string the link is the same (the query is not the slug's).
    expect(seen(await rawVisit(server.origin, '/same-answer?utm_source=x'))).toEqual(seen(first));
  });

  test('every GET counts once and HEAD never, whichever path answered', async () => {
    const link = await createLink(alice, { slug: 'counted-fast' });
    for (let i = 0; i < 5; i++) expect((await rawVisit(server.origin, '/counted-fast')).status).toBe(302);
    const head = await rawVisit(server.origin, '/counted-fast', { method: 'HEAD' });
    expect(head.status).toBe(302);
    await server.services.clicks.flush();
    expect((await getLink(alice, link.id)).click_count).toBe(5);
  });

  test('a cached link that is deleted or expires stops redirecting at once', async () => {
    const link = await createLink(alice, { slug: 'cached-then-gone' });
    expect((await rawVisit(server.origin, '/cached-then-gone')).status).toBe(302);
    expect((await rawVisit(server.origin, '/cached-then-gone')).status).toBe(302);
    expect((await alice.call('DELETE', `/links/${link.id}`)).status).toBe(204);
    const after = await rawVisit(server.origin, '/cached-then-gone');
    expect(after.status).toBe(404);
    expect(after.headers['content-type']).toContain('text/html');
  });

  test('a visit sending a whole body is redirected too, by the route (one whose body never comes: connection-limits.test.ts)', async () => {
    await createLink(alice, { slug: 'with-body' });
    expect((await rawVisit(server.origin, '/with-body')).status).toBe(302);
    const answer = await rawVisit(server.origin, '/with-body', { headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(answer.status).toBe(302);
  });

  test('at debug, each visit writes its own line, on either path', async () => {
    const logged: Record<string, unknown>[] = [];
    const verbose = await startTestServer({ logLevel: 'debug', logStream: { write: (line) => logged.push(JSON.parse(line)) } });
    try {
      await createLink(await createAccount(verbose), { slug: 'logged-visit' });
      await rawVisit(verbose.origin, '/logged-visit');
      await rawVisit(verbose.origin, '/logged-visit');
      await rawVisit(verbose.origin, '/logged-visit', { method: 'HEAD' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const visits = logged.filter((line) => line.url === '/logged-visit');
      expect(visits.map((line) => [line.msg, line.method, line.status])).toEqual([
        ['visit', 'GET', 302],
        ['visit', 'GET', 302],
        ['visit', 'HEAD', 302],
      ]);
      for (const line of visits) expect(line.ms).toEqual(expect.any(Number));
    } finally {
      await verbose.close();
    }
  });

  test('at info (the default), visits on either path are summed up by status, with no line each; API calls keep theirs', async () => {
    const logged: Record<string, unknown>[] = [];
    const quick = await startTestServer({
      logLevel: 'info',
      visitSummaryMs: 200,
      logStream: { write: (line) => logged.push(JSON.parse(line)) },
    });
    try {
      const account = await createAccount(quick);
      await createLink(account, { slug: 'summed-visit' });
      await rawVisit(quick.origin, '/summed-visit');
      await rawVisit(quick.origin, '/summed-visit');
      await rawVisit(quick.origin, '/no-such-link-here');
      expect((await account.call('GET', '/links/ext_nothing')).status).toBe(404);
      const summaries = () => logged.filter((line) => line.msg === 'visits') as { visits: number; statuses: Record<string, number> }[];
      const deadline = Date.now() + 3_000;
      while (summaries().reduce((sum, line) => sum + line.visits, 0) < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const statuses: Record<string, number> = {};
      for (const line of summaries())
        for (const [status, count] of Object.entries(line.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
      expect(statuses).toEqual({ '302': 2, '404': 1 });
      expect(logged.filter((line) => line.url === '/summed-visit' || line.url === '/no-such-link-here')).toEqual([]);
      expect(logged).toContainEqual(
        expect.objectContaining({ msg: 'request', method: 'GET', url: expect.stringContaining('/links/ext_nothing'), status: 404 }),
      );
    } finally {
      await quick.close();
    }
  });

  test('the visits since the last summary are summed up when the server closes', async () => {
    const logged: Record<string, unknown>[] = [];
    const closing = await startTestServer({ logLevel: 'info', logStream: { write: (line) => logged.push(JSON.parse(line)) } });
    await createLink(await createAccount(closing), { slug: 'last-visit' });
    await rawVisit(closing.origin, '/last-visit');
    await rawVisit(closing.origin, '/last-visit');
    expect(logged.filter((line) => line.msg === 'visits')).toEqual([]);
    await closing.close();
    expect(logged.filter((line) => line.msg === 'visits')).toEqual([expect.objectContaining({ visits: 2, statuses: { '302': 2 } })]);
  });
});

describe('limits and proxies on the fast path', () => {
  test('the per-visitor limit counts cached visits, and its 429 is the route’s', async () => {
    const limited = await startTestServer({ rateLimits: { redirects: 3 } });
    try {
      const bob = await createAccount(limited);
      await createLink(bob, { slug: 'limited-fast' });
      for (let i = 0; i < 3; i++) expect((await rawVisit(limited.origin, '/limited-fast')).status).toBe(302);
      const refused = await rawVisit(limited.origin, '/limited-fast');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
      // An unknown slug is refused too: the budget is the visitor's, whichever path answers.
      expect((await rawVisit(limited.origin, '/not-a-link')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  test('with TRUST_PROXY the forwarded address is the visitor on cached visits too', async () => {
    const proxied = await startTestServer({ rateLimits: { redirects: 2 }, trustProxy: true });
    try {
      const bob = await createAccount(proxied);
      await createLink(bob, { slug: 'proxied-fast' });
      const from = (address: string) => rawVisit(proxied.origin, '/proxied-fast', { headers: { 'x-forwarded-for': address } });
      expect((await from('203.0.113.1')).status).toBe(302);
      expect((await from('203.0.113.1')).status).toBe(302);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(302);
    } finally {
      await proxied.close();
    }
  });
});
