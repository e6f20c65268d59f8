import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, isReady, runCli, startServerProcess, waitFor } from './processes.ts';

/**
 * Ctrl-C in a terminal sends SIGINT to the whole foreground process group: the server and,
 * unless it runs apart, the embedded PostgreSQL. The buffered clicks must still be written.
 */
describe('Ctrl-C on `pnpm start` with the embedded database', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-ctrl-c-'));
    const port = await freePort();
    // A flush interval far longer than the test: only the shutdown can write the clicks.
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', CLICK_FLUSH_MS: '60000' };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const ready = () => isReady(base);

  test('SIGINT to the process group: exit code 0 and no buffered click lost', { timeout: 90_000 }, async () => {
    const server = startServerProcess(env, { processGroup: true });
    const pid = server.child.pid ?? 0;
    let slug: string;
    let linkId: string;
    let headers: Record<string, string>;
    try {
      await waitFor(ready, 60_000, 'the server');
      const created = await runCli(['account', 'create', '--name', 'CtrlC', '--plan', 'starter', '--json'], env);
      headers = {
        authorization: `Bearer ${(JSON.parse(created.stdout) as { api_key: string }).api_key}`,
        'content-type': 'application/json',
      };
      const link = (await (
        await fetch(`${base}/api/v1/links`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: 'x', destination_url: 'https://example.com/c' }),
        })
      ).json()) as { id: string; slug: string };
      slug = link.slug;
      linkId = link.id;
      const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' };
      for (let i = 0; i < 5; i++) expect((await fetch(`${base}/${slug}`, { redirect: 'manual', headers: browser })).status).toBe(302);
    } finally {
      process.kill(-pid, 'SIGINT');
    }
    const [code] = await new Promise<[number | null]>((resolve) => server.child.once('exit', (c) => resolve([c])));
    expect(code, server.output()).toBe(0);

    const again = startServerProcess(env);
    try {
      await waitFor(ready, 60_000, 'the restarted server');
      const fetched = (await (await fetch(`${base}/api/v1/links/${linkId}`, { headers })).json()) as { click_count: number };
      expect(fetched.click_count).toBe(5);
    } finally {
      again.child.kill('SIGTERM');
      await new Promise((resolve) => again.child.once('exit', resolve));
    }
  });
});
