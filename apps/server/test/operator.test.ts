import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, isAlive, isReady, postmasterPid, runCli, startServerProcess, waitFor } from './processes.ts';

/**
 * What an operator does: `pnpm start` on a fresh machine (embedded PostgreSQL, first key
 * printed), the CLI beside a running server, restarts that lose nothing, and recovery after
 * the server process was killed.
 */
describe('operating the server on the embedded database', () => {
  let dataDir: string;
  let port: number;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-operator-'));
    port = await freePort();
    // The team plan's API rate limit set by the operator, as the server and the CLI both read it.
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', API_RATE_LIMIT_TEAM: '9' };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const ready = () => isReady(base);

  test('first start creates a default account and prints a working key; restart keeps data and prints none', {
    timeout: 90_000,
  }, async () => {
    const first = startServerProcess(env);
    await waitFor(() => /slk_[A-Za-z0-9_-]{20,}/.test(first.output()), 60_000, 'the first key');
    const key = /slk_[A-Za-z0-9_-]{20,}/.exec(first.output())?.[0];
    expect(first.output()).toContain(`${base}/docs`);
    // The dashboard: its address, and whether it was built or found up to date, and how fast.
    expect(first.output()).toContain(`Dashboard:    ${base}/app`);
    expect(first.output()).toMatch(/dashboard: (built in \d+\.\d s|up to date \(checked in \d+ ms\))/);
    const created = await fetch(`${base}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Survives restarts', destination_url: 'https://example.com/kept' }),
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { id: string };

    // Graceful stop: the server and its PostgreSQL both go away.
    const pgPid = await postmasterPid(dataDir);
    first.child.kill('SIGTERM');
    const [code] = await new Promise<[number | null]>((resolve) => first.child.once('exit', (c) => resolve([c])));
    expect(code).toBe(0);
    await waitFor(() => !isAlive(pgPid), 15_000, 'PostgreSQL to stop');

    const second = startServerProcess(env);
    await waitFor(ready, 60_000, 'the restarted server');
    const fetched = await fetch(`${base}/api/v1/links/${link.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(fetched.status).toBe(200);
    expect(second.output()).not.toMatch(/slk_/);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  });

  test('the CLI creates accounts and keys while the server runs, sharing its embedded database', { timeout: 90_000 }, async () => {
    const server = startServerProcess(env);
    await waitFor(ready, 60_000, 'the server');
    try {
      const created = await runCli(['account', 'create', '--name', 'Acme', '--plan', 'team', '--link-limit', '3', '--json'], env);
      expect(created.code).toBe(0);
      const { account, api_key } = JSON.parse(created.stdout) as { account: Record<string, unknown>; api_key: string };
      expect(account).toMatchObject({ name: 'Acme', plan: 'team', link_limit: 3, tag_limit: 200 });
      expect(api_key).toMatch(/^slk_/);

      const list = await fetch(`${base}/api/v1/links`, { headers: { authorization: `Bearer ${api_key}` } });
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ total: 0, link_limit: 3 });

      const second = await runCli(['key', 'create', '--account', String(account.id), '--json'], env);
      const { key, api_key: secondKey } = JSON.parse(second.stdout) as { key: { id: string }; api_key: string };
      expect((await fetch(`${base}/api/v1/tags`, { headers: { authorization: `Bearer ${secondKey}` } })).status).toBe(200);

      const revoked = await runCli(['key', 'revoke', key.id], env);
      expect(revoked.code).toBe(0);
      expect((await fetch(`${base}/api/v1/tags`, { headers: { authorization: `Bearer ${secondKey}` } })).status).toBe(401);
      expect((await fetch(`${base}/api/v1/tags`, { headers: { authorization: `Bearer ${api_key}` } })).status).toBe(200);

      // The rate limit: the plan's from API_RATE_LIMIT_TEAM, then the account's own, none, and the plan's again.
      const tags = () => fetch(`${base}/api/v1/tags`, { headers: { authorization: `Bearer ${api_key}` } });
      // The limit in force, whether this answer is within it or a 429.
      const rateLimitOf = async () => (await tags()).headers.get('ratelimit-limit');
      expect(await rateLimitOf()).toBe('9');
      const setRateLimit = async (value: string) => {
        const updated = await runCli(['account', 'update', String(account.id), '--rate-limit', value, '--json'], env);
        expect(updated.code).toBe(0);
        return (JSON.parse(updated.stdout) as { account: { api_rate_limit: number | null } }).account.api_rate_limit;
      };
      expect(await setRateLimit('2')).toBe(2);
      await waitFor(async () => (await rateLimitOf()) === '2', 1_000, 'the account rate limit within a second');
      expect(await setRateLimit('none')).toBe(0);
      await waitFor(async () => (await rateLimitOf()) === null, 1_000, 'no rate limit within a second');
      for (let i = 0; i < 12; i++) expect((await tags()).status).toBe(200);
      expect(await setRateLimit('default')).toBeNull();
      await waitFor(async () => (await rateLimitOf()) === '9', 1_000, "the plan's rate limit again within a second");
      const text = await runCli(['account', 'update', String(account.id), '--plan', 'starter', '--link-limit', 'default'], env);
      expect(text.stdout).toMatch(/plan=starter {2}links=1000 {2}tags=25 {2}api-rate=120\/min \(plan\)/);
      for (const bad of [['--rate-limit', '-3'], ['--rate-limit', 'fast'], ['--link-limit', 'none'], []]) {
        const refused = await runCli(['account', 'update', String(account.id), ...bad], env);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toMatch(bad[0] ?? 'at least one of');
      }
      const missing = await runCli(['account', 'update', 'acc_nothing', '--plan', 'team'], env);
      expect([missing.code, missing.stderr.trim()]).toEqual([2, 'No account acc_nothing.']);

      const listed = await runCli(['account', 'list', '--json'], env);
      expect((JSON.parse(listed.stdout) as { accounts: { name: string }[] }).accounts.map((a) => a.name)).toContain('Acme');

      const bad = await runCli(['account', 'create', '--name', 'X', '--plan', 'gold'], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--plan');
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  });

  test('after the server is killed with SIGKILL, the next start recovers the orphaned database', { timeout: 90_000 }, async () => {
    const victim = startServerProcess(env);
    await waitFor(ready, 60_000, 'the server');
    const orphan = await postmasterPid(dataDir);
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));

    const next = startServerProcess(env);
    await waitFor(ready, 60_000, 'the recovered server');
    expect(isAlive(orphan)).toBe(false);
    next.child.kill('SIGTERM');
    await new Promise((resolve) => next.child.once('exit', resolve));
  });

  test('a stale postmaster.pid left when both the server and PostgreSQL were killed does not stop the next start', {
    timeout: 90_000,
  }, async () => {
    const victim = startServerProcess(env);
    await waitFor(ready, 60_000, 'the server');
    const pgPid = await postmasterPid(dataDir);
    victim.child.kill('SIGKILL');
    process.kill(pgPid, 'SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    await waitFor(() => !isAlive(pgPid), 10_000, 'PostgreSQL to die');

    const next = startServerProcess(env);
    await waitFor(ready, 60_000, 'the server after a crash');
    next.child.kill('SIGTERM');
    await new Promise((resolve) => next.child.once('exit', resolve));
  });

  test('clicks buffered in memory are written on SIGTERM: a graceful shutdown loses none', { timeout: 90_000 }, async () => {
    // A flush interval far longer than the test: only the shutdown can write these clicks.
    const server = startServerProcess({ ...env, CLICK_FLUSH_MS: '60000' });
    await waitFor(ready, 60_000, 'the server');
    const created = await runCli(['account', 'create', '--name', 'Clicks', '--plan', 'starter', '--json'], env);
    const { api_key } = JSON.parse(created.stdout) as { api_key: string };
    const headers = { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' };
    const link = (await (
      await fetch(`${base}/api/v1/links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Counted', destination_url: 'https://example.com/c' }),
      })
    ).json()) as { id: string; slug: string };
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' };
    const visits = await Promise.all(
      Array.from({ length: 25 }, () => fetch(`${base}/${link.slug}`, { redirect: 'manual', headers: browser })),
    );
    expect(visits.every((visit) => visit.status === 302)).toBe(true);

    server.child.kill('SIGTERM');
    const [code] = await new Promise<[number | null]>((resolve) => server.child.once('exit', (c) => resolve([c])));
    expect(code).toBe(0);

    const again = startServerProcess(env);
    try {
      await waitFor(ready, 60_000, 'the restarted server');
      const fetched = (await (await fetch(`${base}/api/v1/links/${link.id}`, { headers })).json()) as { click_count: number };
      expect(fetched.click_count).toBe(25);
    } finally {
      again.child.kill('SIGTERM');
      await new Promise((resolve) => again.child.once('exit', resolve));
    }
  });

  test('an invalid environment stops start-up with one clear line per problem', async () => {
    const bad = startServerProcess({ ...env, PORT: 'eighty', SHORT_DOMAIN: 'not a url', LOG_LEVEL: 'loud' });
    const [code] = await new Promise<[number | null]>((resolve) => bad.child.once('exit', (c) => resolve([c])));
    expect(code).toBe(1);
    const lines = bad.output().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).toMatch(/PORT/);
    expect(lines.join('\n')).toMatch(/SHORT_DOMAIN/);
    expect(lines.join('\n')).toMatch(/LOG_LEVEL/);
  });
});
