import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { CALLER_CACHE_MS, createServices, type Services } from '@shortlinks/api/services';
import { ChangeListener, createOrm, type Orm } from '@shortlinks/db';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, msUntil } from './harness.ts';
import { freePort, startServerProcess, waitFor } from './processes.ts';

/**
 * API keys are answered from memory (docs/security.md): a revocation must still be refused by
 * every process within 1 s of its commit, announced or not.
 */

describe('two server processes on one database', () => {
  let databaseUrl: string;
  let orm: Orm;
  let services: Services;
  const servers: { child: ChildProcess; output: () => string; origin: string }[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    orm = await createOrm({ databaseUrl, poolSize: 2 });
    services = createServices({ orm, shortDomain: 'https://sho.rt' });
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const server = startServerProcess({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' });
      servers.push({ ...server, origin: `http://127.0.0.1:${port}` });
    }
    for (const server of servers) {
      await waitFor(
        async () => (await fetch(`${server.origin}/readyz`).catch(() => undefined))?.status === 200,
        60_000,
        `server ${server.origin}: ${server.output()}`,
      );
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      servers.map(async ({ child }) => {
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        await once(child, 'exit');
      }),
    );
    await orm.close();
  });

  const status = async (origin: string, secret: string) =>
    (await fetch(`${origin}/api/v1/links`, { headers: { authorization: `Bearer ${secret}` } })).status;

  test('a key revoked in another process is refused by both servers within 1 s', { timeout: 30_000 }, async () => {
    const account = await services.accounts.create({ name: 'Revoked', plan: 'starter' });
    const { key, secret } = await services.apiKeys.create(account.id);
    // Both servers have found the key, and would answer it from memory.
    for (const { origin } of servers) for (let i = 0; i < 3; i++) expect(await status(origin, secret)).toBe(200);

    const revoking = performance.now();
    expect(await services.apiKeys.revoke(key.id)).toBe(true);
    const delays = await Promise.all(servers.map(({ origin }) => msUntil(async () => (await status(origin, secret)) === 401, revoking)));
    for (const delay of delays) expect(delay).toBeLessThan(1_000);
    // And it stays refused.
    for (const { origin } of servers) expect(await status(origin, secret)).toBe(401);
  });

  test("an account's new rate limit, set in another process, is applied by both servers within 1 s", { timeout: 30_000 }, async () => {
    const account = await services.accounts.create({ name: 'Limited', plan: 'starter' });
    const { secret } = await services.apiKeys.create(account.id);
    // Both servers have found the key under the plan's limit (120 a minute), and used 2 of it.
    for (const { origin } of servers) for (let i = 0; i < 2; i++) expect(await status(origin, secret)).toBe(200);

    const updating = performance.now();
    await services.accounts.update(account.id, { api_rate_limit: 4 });
    // Under the old limit, the few requests sent in a second would all be answered.
    const delays = await Promise.all(servers.map(({ origin }) => msUntil(async () => (await status(origin, secret)) === 429, updating)));
    for (const delay of delays) expect(delay).toBeLessThan(1_000);
  });

  test('a key created in another process is accepted at once, and other keys of the account keep working', async () => {
    const account = await services.accounts.create({ name: 'Two keys', plan: 'starter' });
    const first = await services.apiKeys.create(account.id);
    for (const { origin } of servers) expect(await status(origin, first.secret)).toBe(200);
    const second = await services.apiKeys.create(account.id);
    for (const { origin } of servers) expect(await status(origin, second.secret)).toBe(200);
    await services.apiKeys.revoke(second.key.id);
    await waitFor(async () => (await status(servers[1]?.origin ?? '', second.secret)) === 401, 1_000, 'the revocation');
    for (const { origin } of servers) expect(await status(origin, first.secret)).toBe(200);
  });
});

describe('the callers one process keeps in memory', () => {
  let databaseUrl: string;
  const orms: Orm[] = [];
  const listeners: ChangeListener[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    for (const listener of listeners) await listener.stop();
    for (const orm of orms) await orm.close();
  });

  /** A process's services, on an ORM of its own. */
  async function process(callerCacheMs?: number): Promise<Services> {
    const orm = await createOrm({ databaseUrl, poolSize: 2 });
    orms.push(orm);
    return createServices({ orm, shortDomain: 'https://sho.rt', ...(callerCacheMs === undefined ? {} : { callerCacheMs }) });
  }

  test('an announced revocation is seen at once, however long entries could otherwise live', { timeout: 15_000 }, async () => {
    const here = await process(60_000);
    const elsewhere = await process();
    const listener = new ChangeListener(databaseUrl, {
      linkChanged: () => {},
      callerChanged: () => here.apiKeys.callers.clear(),
      accountLinksChanged: () => {},
      reset: () => here.apiKeys.callers.clear(),
    });
    listeners.push(listener);
    await listener.start();
    const account = await elsewhere.accounts.create({ name: 'Announced', plan: 'starter' });
    const { key, secret } = await elsewhere.apiKeys.create(account.id);
    expect(await here.apiKeys.authenticate(secret)).toMatchObject({ accountId: account.id, keyId: key.id });
    expect(here.apiKeys.callers.size).toBe(1);

    const revoking = performance.now();
    await elsewhere.apiKeys.revoke(key.id);
    expect(await msUntil(async () => (await here.apiKeys.authenticate(secret)) === undefined, revoking)).toBeLessThan(1_000);
  });

  test('without the announcement, a cached caller is refused within 1 s of its revocation', { timeout: 15_000 }, async () => {
    const here = await process();
    const elsewhere = await process();
    const account = await elsewhere.accounts.create({ name: 'Missed', plan: 'starter' });
    const { key, secret } = await elsewhere.apiKeys.create(account.id);
    expect(await here.apiKeys.authenticate(secret)).toMatchObject({ keyId: key.id });

    // `here` listens to nothing: it misses the announcement, as a process whose listening
    // connection is down would.
    const revoking = performance.now();
    await elsewhere.apiKeys.revoke(key.id);
    // Answered from memory until then (so the bound, not a lookup, is what this test measures)...
    expect(await here.apiKeys.authenticate(secret)).toMatchObject({ keyId: key.id });
    // ...but never past CALLER_CACHE_MS after the revocation committed.
    const delay = await msUntil(async () => (await here.apiKeys.authenticate(secret)) === undefined, revoking);
    expect(CALLER_CACHE_MS).toBeLessThanOrEqual(1_000);
    expect(delay).toBeLessThanOrEqual(CALLER_CACHE_MS + 50);
  });

  test('an unknown key is never kept: guessing cannot fill the cache', async () => {
    const here = await process();
    for (let i = 0; i < 20; i++) expect(await here.apiKeys.authenticate(`slk_guess${i}${'x'.repeat(30)}`)).toBeUndefined();
    expect(here.apiKeys.callers.size).toBe(0);
  });
});
