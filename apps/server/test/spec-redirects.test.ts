import { isReservedSlug } from '@shortlinks/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  createAccount,
  createCachedLink,
  createLink,
  createTestDatabase,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';

/**
 * Issue #3's redirect rules the other redirect tests leave out, the reserved slugs checked
 * against every route the server really serves, and /readyz without a database.
 */

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

function visit(slug: string, method = 'GET') {
  return fetch(`${server.origin}/${slug}`, {
    method,
    redirect: 'manual',
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
  });
}

/** Moves a link's expiry into the past behind the API's back (the API refuses past expiries). */
async function expireInDatabase(linkId: string) {
  await server.orm.em.fork().getConnection().execute(`update link set expires_at = now() - interval '1 second' where id = '${linkId}'`);
}

/** Every path the server routes, rebuilt from Fastify's route tree. */
function servedPaths(app: FastifyInstance): string[] {
  const prefixes: string[] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^([│ ]*)[└├]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    // With routes of several methods (CORS answers OPTIONS on every path), the tree hangs under
    // an unnamed root node.
    const path = ((prefixes[depth - 1] ?? '') + match[2]).replace('(empty root node)', '');
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (match[3]) paths.push(path);
  }
  return paths;
}

describe('reserved slugs cover every route the server serves', () => {
  test('the first segment of every static route is a reserved slug', () => {
    const paths = servedPaths(server.app);
    // Sanity: the tree was read, with the routes we know of.
    expect(paths).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/docs', '/api/v1/openapi.json', '/trpc/:path', '/:slug']));
    const segments = new Set(paths.map((path) => path.split('/')[1] ?? '').filter((segment) => segment !== '' && !segment.startsWith(':')));
    const unreserved = [...segments].filter((segment) => !isReservedSlug(segment));
    expect(unreserved).toEqual([]);
  });

  test('a served path cannot be taken as a slug', async () => {
    for (const slug of ['healthz', 'readyz', 'docs', 'api', 'trpc']) {
      const response = await alice.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', slug });
      expect(response.body).toMatchObject({ code: 'SLUG_INVALID', field: 'slug' });
    }
  });
});

describe('the pages a visitor sees', () => {
  test('404 and 410 are small, self-contained, uncacheable HTML pages', async () => {
    const link = await createLink(alice, { slug: 'page-gone', expires_at: Date.now() + 86_400_000 });
    await expireInDatabase(link.id);
    for (const [slug, status] of [
      ['page-unknown', 404],
      ['page-gone', 410],
    ] as const) {
      const response = await visit(slug);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toContain('no-store');
      const html = await response.text();
      expect(html).toMatch(/^<!doctype html>/i);
      expect(Buffer.byteLength(html)).toBeLessThan(2048);
      expect(html).not.toMatch(/<script|<link|src=/i);
    }
  });

  test('paths that are no slugs (a trailing slash, two segments, a reserved word) get the same HTML 404 page', async () => {
    await createLink(alice, { slug: 'page-slash' });
    for (const path of ['/page-slash/', '/a/b', '/api']) {
      const response = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('Link not found');
    }
  });

  test('HEAD answers like GET, without a body', async () => {
    const link = await createLink(alice, { slug: 'head-live' });
    const get = await visit('head-live');
    const head = await visit('head-live', 'HEAD');
    expect(head.status).toBe(302);
    for (const header of ['location', 'cache-control', 'x-robots-tag']) expect(head.headers.get(header)).toBe(get.headers.get(header));
    expect(await head.text()).toBe('');
    expect((await visit('head-unknown', 'HEAD')).status).toBe(404);
    await expireInDatabase((await createLink(alice, { slug: 'head-gone', expires_at: Date.now() + 86_400_000 })).id);
    expect((await visit('head-gone', 'HEAD')).status).toBe(410);
    expect(link.slug).toBe('head-live');
  });

  test('Location is the stored destination exactly, also for an internationalised URL', async () => {
    const link = await createLink(alice, { slug: 'idn', destination_url: 'https://bücher.example/straße?q=ä' });
    expect(link.destination_url).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4');
    expect((await visit('idn')).headers.get('location')).toBe(link.destination_url);
  });

  test('the expiry fallback redirect is uncacheable and not indexed either', async () => {
    const link = await createLink(alice, {
      slug: 'fallback-headers',
      expires_at: Date.now() + 86_400_000,
      expiration_url: 'https://example.com/after',
    });
    await expireInDatabase(link.id);
    const response = await visit('fallback-headers');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/after');
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
  });
});

describe('expiry changes apply to the very next request', () => {
  test('PATCH expires_at null revives an expired link; PATCH expiration_url null turns its fallback into 410', async () => {
    const link = await createLink(alice, {
      slug: 'expiry-edits',
      destination_url: 'https://example.com/main',
      expires_at: Date.now() + 86_400_000,
      expiration_url: 'https://example.com/after',
    });
    await expireInDatabase(link.id);
    expect((await visit('expiry-edits')).headers.get('location')).toBe('https://example.com/after');
    expect((await alice.call('PATCH', `/links/${link.id}`, { expiration_url: null })).status).toBe(200);
    expect((await visit('expiry-edits')).status).toBe(410);
    expect((await alice.call('PATCH', `/links/${link.id}`, { expires_at: null })).status).toBe(200);
    expect((await visit('expiry-edits')).headers.get('location')).toBe('https://example.com/main');
  });
});

describe('the link change listener', () => {
  const on = (target: TestServer, slug: string) => fetch(`${target.origin}/${slug}`, { redirect: 'manual' });
  const listeners = async () => {
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute("select pid from pg_stat_activity where datname = current_database() and application_name = 'shortlinks change listener'");
    return rows as { pid: number }[];
  };
  async function until(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 5000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  test('when its connection drops, changes missed meanwhile are not served stale, and it reconnects', async () => {
    const other = await startTestServer({ databaseUrl: server.databaseUrl });
    try {
      const link = await createCachedLink(alice, [other], { slug: 'listener-drop', destination_url: 'https://example.com/v1' });
      expect((await on(other, 'listener-drop')).headers.get('location')).toBe('https://example.com/v1');
      expect(other.services.redirects.cache.get('listener-drop')).toBeDefined();

      const before = await listeners();
      expect(before).toHaveLength(2);
      await server.orm.em
        .fork()
        .getConnection()
        .execute(`select pg_terminate_backend(pid) from pg_stat_activity where pid in (${before.map((row) => row.pid).join(',')})`);
      // The other server forgets what it cached, since announcements may now be missed.
      await until(async () => other.services.redirects.cache.get('listener-drop') === undefined, 'the cache to be dropped');
      await alice.call('PATCH', `/links/${link.id}`, { destination_url: 'https://example.com/v2' });
      expect((await on(other, 'listener-drop')).headers.get('location')).toBe('https://example.com/v2');

      // Both listeners come back, and announcements invalidate the other server's cache again.
      await until(async () => (await listeners()).length === 2, 'the listeners to reconnect');
      await until(async () => {
        await on(other, 'listener-drop');
        return other.services.redirects.cache.get('listener-drop') !== undefined;
      }, 'caching to resume');
      await alice.call('PATCH', `/links/${link.id}`, { destination_url: 'https://example.com/v3' });
      await until(async () => (await on(other, 'listener-drop')).headers.get('location') === 'https://example.com/v3', 'the change');
    } finally {
      await other.close();
    }
  });
});

describe('GET /readyz', () => {
  test('answers 503 once the database is gone, while /healthz still answers 200', async () => {
    const databaseUrl = await createTestDatabase();
    const doomed = await startTestServer({ databaseUrl });
    try {
      expect((await fetch(`${doomed.origin}/readyz`)).status).toBe(200);
      const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
      await admin.connect();
      try {
        await admin.query(`drop database ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
      } finally {
        await admin.end();
      }
      const ready = await fetch(`${doomed.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ database: 'down' });
      expect((await fetch(`${doomed.origin}/healthz`)).status).toBe(200);
    } finally {
      await doomed.close();
    }
  });
});
