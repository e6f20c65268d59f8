import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { runCli } from './processes.ts';

let server: TestServer;
let alice: TestAccount;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server, { plan: 'unlimited' });
  env = { DATABASE_URL: server.databaseUrl, SHORT_DOMAIN: server.shortDomain };
  dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-transfer-'));
  for (const [i, name] of ['Comma, "quoted"', 'Plain'].entries()) {
    const created = await alice.call('POST', '/links', {
      title: name,
      destination_url: `https://example.com/${i}`,
      slug: `cli-${i}`,
      tag_names: ['CLI', `tag|${i}`],
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function restExport(format: string): Promise<string> {
  const response = await fetch(`${server.api}/links/export?format=${format}`, { headers: { authorization: `Bearer ${alice.key}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('pnpm shortlinks export', () => {
  test('writes the same file as GET /links/export to stdout, CSV by default', { timeout: 60_000 }, async () => {
    const csv = await runCli(['export', '--account', alice.account.id], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(await restExport('csv'));
    expect(csv.stdout.split('\r\n')).toHaveLength(4);
    const jsonl = await runCli(['export', '--account', alice.account.id, '--format', 'jsonl'], env);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).toBe(await restExport('jsonl'));
  });

  test('--output FILE writes the file, and leaves no partial file behind', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'links.jsonl');
    const result = await runCli(['export', '--account', alice.account.id, '--format', 'jsonl', '--output', file], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(await readFile(file, 'utf8')).toBe(await restExport('jsonl'));
    await expect(stat(`${file}.partial`)).rejects.toThrow();
  });

  test('a bad format, an unknown account or a missing --account is a usage error (exit 2) that writes nothing', {
    timeout: 60_000,
  }, async () => {
    const file = path.join(dir, 'never.csv');
    for (const args of [
      ['export', '--account', alice.account.id, '--format', 'xml', '--output', file],
      ['export', '--account', 'acc_nobody', '--output', file],
      ['export', '--output', file],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.length).toBeGreaterThan(0);
      await expect(stat(file)).rejects.toThrow();
    }
  });
});
