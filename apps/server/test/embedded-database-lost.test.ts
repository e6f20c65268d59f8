import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT } from './harness.ts';
import { freePort, isReady, postmasterPid, runCli, startServerProcess, waitFor } from './processes.ts';

/**
 * `pnpm start` on the embedded database, whose postmaster is killed under it: the server restarts
 * it in place, keeps running, and serves again what was committed (docs/operations.md).
 */
describe('the embedded database dies under a running server', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-embedded-lost-'));
    const port = await freePort();
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', CLICK_FLUSH_MS: '200' };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const ready = () => isReady(base);

  test('SIGKILL of the postmaster: PostgreSQL is restarted, the server keeps running and serves its links again', {
    timeout: 150_000,
  }, async () => {
    const server = startServerProcess(env);
    try {
      await waitFor(ready, 90_000, 'the server');
      const created = await runCli(['account', 'create', '--name', 'Lost', '--plan', 'starter', '--json'], env);
      const headers = {
        authorization: `Bearer ${(JSON.parse(created.stdout) as { api_key: string }).api_key}`,
        'content-type': 'application/json',
      };
      const create = await fetch(`${base}/api/v1/links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Kept', destination_url: 'https://example.com/kept', slug: 'kept-through' }),
      });
      expect(create.status).toBe(201);
      const visit = () => fetch(`${base}/kept-through`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });
      expect((await visit()).status).toBe(302);

      process.kill(await postmasterPid(dataDir), 'SIGKILL');
      // Meanwhile the link seen before keeps redirecting (stale-if-error, or the restarted database).
      expect((await visit()).status).toBe(302);
      await waitFor(async () => /restarted after \d+ attempt/.test(server.output()), 60_000, 'the restart');
      await waitFor(ready, 30_000, 'the server to be ready again');
      expect(server.child.exitCode).toBeNull();

      const list = await fetch(`${base}/api/v1/links`, { headers });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { links: { slug: string }[] }).links.map((link) => link.slug)).toEqual(['kept-through']);
      expect(server.output()).toMatch(/embedded PostgreSQL exited unexpectedly \(SIGKILL\); restarting it/);
      // Both visits are counted once the clicks are written to the restarted database.
      await waitFor(
        async () => {
          const links = (await (await fetch(`${base}/api/v1/links`, { headers })).json()) as { links: { click_count: number }[] };
          return links.links[0]?.click_count === 2;
        },
        30_000,
        'both clicks to be counted',
      );
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  });
});
