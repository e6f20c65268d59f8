import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, runCli, startServerProcess, waitFor } from './processes.ts';

/**
 * Log lines are written asynchronously (log-destination.ts): a busy server must still write each
 * line whole, and the lines still buffered when it is stopped. At info, visits are summed up
 * (redirects/visit-log.ts): a stop must lose none of their count.
 */
describe('request log lines at the default level (info)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-request-log-'));
    const port = await freePort();
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'info', REDIRECT_RATE_LIMIT: '100000' };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test('3,000 redirects in bursts of 50, then SIGTERM: every line whole, every visit counted, the API call logged', {
    timeout: 120_000,
  }, async () => {
    const server = startServerProcess(env);
    const visits = 3_000;
    let slug = '';
    try {
      await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'the server');
      const created = await runCli(['account', 'create', '--name', 'Logs', '--plan', 'starter', '--json'], env);
      const key = (JSON.parse(created.stdout) as { api_key: string }).api_key;
      const link = (await (
        await fetch(`${base}/api/v1/links`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Logged', destination_url: 'https://example.com/logged' }),
        })
      ).json()) as { slug: string };
      slug = link.slug;
      for (let sent = 0; sent < visits; sent += 50) {
        const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${base}/${slug}`, { redirect: 'manual' })));
        expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(302));
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    const [code] = await new Promise<[number | null]>((resolve) => server.child.once('exit', (exitCode) => resolve([exitCode])));
    expect(code, server.output()).toBe(0);

    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) => JSON.parse(line) as { msg?: string; url?: string; status?: number; method?: string; statuses?: Record<string, number> },
      );
    expect(lines.filter((line) => line.url === `/${slug}`)).toEqual([]);
    const counted = lines.filter((line) => line.msg === 'visits').reduce((sum, line) => sum + (line.statuses?.['302'] ?? 0), 0);
    expect(counted).toBe(visits);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', method: 'POST', status: 201 }));
    expect(lines.some((line) => line.msg === 'shutting down')).toBe(true);
  });
});
