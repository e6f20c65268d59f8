import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createAccount, startTestServer, type TestServer } from './harness.ts';

/**
 * On Node 22 the first `AsyncLocalStorage.run()` or `enterWith()` switches on async hooks for
 * every promise of the process, until every storage is disabled; that once cost each redirect
 * about a tenth of its CPU (docs/performance.md). MikroORM's `em.transactional()` and `em.flush()`
 * do that, so the services bind transactions by hand (database/database.ts). The one storage the
 * API enters names who acts for the audit log (packages/api/src/audit/acting.ts): only mutations
 * enter it, and it is disabled again as soon as none is running. Reads, visits and a click flush
 * must never enter one.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
});

describe('async context', () => {
  test('reads, redirects and a click flush never enter an AsyncLocalStorage; writes leave it disabled', async () => {
    const account = await createAccount(server);
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    const disable = vi.spyOn(AsyncLocalStorage.prototype, 'disable');

    const tag = await account.call('POST', '/tags', { name: 'news' });
    expect(tag.status).toBe(201);
    const created = await account.call('POST', '/links', {
      title: 'Async',
      destination_url: 'https://example.com/async',
      tag_ids: [tag.body.id],
    });
    expect(created.status).toBe(201);
    const updated = await account.call('PATCH', `/links/${created.body.id}`, { title: 'Async 2' });
    expect(updated.status).toBe(200);
    // Each write ran as its caller, and left the storage disabled (the hooks off) once answered.
    expect(run).toHaveBeenCalledTimes(3);
    expect(disable).toHaveBeenCalledTimes(3);
    run.mockClear();

    const visit = await fetch(`${server.origin}/${created.body.slug}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 Firefox/133.0' },
    });
    expect(visit.status).toBe(302);
    await server.services.clicks.flush();
    const read = await account.call('GET', `/links/${created.body.id}`);
    expect(read.body.click_count).toBe(1);
    expect((await account.call('GET', '/links')).status).toBe(200);
    expect((await account.call('GET', '/audit-log')).status).toBe(200);

    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  });
});
