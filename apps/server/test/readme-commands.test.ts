import type { ChildProcess } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, waitFor } from './processes.ts';
import {
  type Finished,
  interrupt,
  readerEnvironment,
  readmeCommand,
  readmeCommands,
  repoRoot,
  runAsWritten,
  startAsWritten,
} from './readme.ts';

/**
 * Every command of the README, run as written from the repository (a clean clone in CI), in a shell
 * with only Node.js and npm on its PATH: `npm start` on a new data directory, the curl example, the
 * operator's commands, the extension's builds. Values the README writes as placeholders (`acc_…`,
 * `slk_…`, port 3000, `/backups`, `/tmp`) are replaced by this run's; nothing else is changed.
 * The SDK's two commands are run by sdk-package.test.ts, and `npm test` is what CI runs.
 */

const RUN_ELSEWHERE = ['npm test', 'npm run client:pack', 'npm install /tmp/shortlinks-client-'];
const RUN_HERE = [
  'npm start',
  'curl ',
  'npm run extension:build',
  'npm run -s shortlinks -- account create',
  'npm run -s shortlinks -- key create',
  'npm run -s shortlinks -- key revoke',
  'npm run -s shortlinks -- user ',
  'npm run -s shortlinks -- denylist ',
  'npm run -s shortlinks -- export',
  'npm run -s shortlinks -- import',
  'npm run -s shortlinks -- backup',
  'npm run -s shortlinks -- restore',
];

let port: number;
let origin: string;
let dataDir: string;
let scratch: string;
let server: { child: ChildProcess; output: () => string };
let defaultKey: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  port = await freePort();
  origin = `http://localhost:${port}`;
  dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-readme-data-'));
  // A directory of the repository other than its root and apps/server, where a reader may stand.
  scratch = await mkdtemp(path.join(repoRoot, '.readme-commands-'));
  env = readerEnvironment({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  server = startAsWritten(readmeCommand('npm start'), { env });
  await waitFor(() => /Its API key is shown only this once:\s+slk_\S+/.test(server.output()), 240_000, `npm start:\n${server.output()}`);
  defaultKey = /(slk_\S+)/.exec(server.output())?.[1] as string;
}, 300_000);

afterAll(async () => {
  if (server) await interrupt(server.child);
  await rm(scratch, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** A README command with this run's values for its placeholders. */
const filled = (command: string, values: Record<string, string>) =>
  Object.entries(values).reduce((line, [placeholder, value]) => line.split(placeholder).join(value), command);

const ok = (result: Finished) => {
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
};

const cli = (start: string, values: Record<string, string> = {}, cwd = repoRoot) =>
  runAsWritten(filled(readmeCommand(start), values), { cwd, env });

const api = (key: string, method: string, route: string, body?: unknown) =>
  fetch(`${origin}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe("the README's commands, as written", () => {
  test('each one is run by a test', () => {
    const unrun = readmeCommands.filter((command) => ![...RUN_HERE, ...RUN_ELSEWHERE].some((start) => command.startsWith(start)));
    expect(unrun).toEqual([]);
  });

  test('CI runs the test command', async () => {
    expect(await readFile(path.join(repoRoot, '.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });

  test("this run's pnpm is not on the reader's PATH", async () => {
    expect((await runAsWritten('command -v pnpm || true', { env })).stdout).not.toContain('.toolchain');
  });

  test('npm start prints the dashboard, and the curl example creates a link with the key it printed', async () => {
    expect(server.output()).toMatch(new RegExp(`Dashboard: +http://127\\.0\\.0\\.1:${port}/app`));
    const result = ok(await runAsWritten(filled(readmeCommand('curl'), { 'slk_…': defaultKey, 'http://localhost:3000': origin }), { env }));
    expect(JSON.parse(result.stdout)).toMatchObject({ title: 'Launch', destination_url: 'https://example.com/launch' });
  });

  test('accounts, keys and the denylist', { timeout: 180_000 }, async () => {
    const { account: acme } = JSON.parse(ok(await cli('npm run -s shortlinks -- account create')).stdout) as {
      account: { id: string; name: string };
    };
    expect(acme.name).toBe('Acme');
    const created = ok(await cli('npm run -s shortlinks -- key create', { 'acc_…': acme.id })).stdout;
    const keyId = /(key_\S+)/.exec(created)?.[1] as string;
    const secret = /(slk_\S+)/.exec(created)?.[1] as string;
    expect((await api(secret, 'GET', '/links')).status).toBe(200);
    ok(await cli('npm run -s shortlinks -- key revoke', { 'key_…': keyId }));
    await waitFor(async () => (await api(secret, 'GET', '/links')).status === 401, 10_000, 'the revoked key refused');

    ok(await cli('npm run -s shortlinks -- denylist add evil.example'));
    ok(await cli('npm run -s shortlinks -- denylist add https://files.example/phish'));
    expect(ok(await cli('npm run -s shortlinks -- denylist list')).stdout).toMatch(
      /evil\.example[\s\S]*files\.example\/phish|files\.example\/phish[\s\S]*evil\.example/,
    );
    const refused = await api(defaultKey, 'POST', '/links', { title: 'No', destination_url: 'https://www.evil.example/x' });
    expect(refused.status).toBe(422);
    ok(await cli('npm run -s shortlinks -- denylist remove evil.example'));
    expect(ok(await cli('npm run -s shortlinks -- denylist list')).stdout).not.toContain('evil.example\n');
  });

  test('npm start prints a one-time owner link; the operator adds people and resets passwords with links', {
    timeout: 180_000,
  }, async () => {
    expect(server.output()).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/app/setup#slp_[\\w-]{43}`));
    const accounts = JSON.parse(ok(await runAsWritten('npm run -s shortlinks -- account list --json', { env })).stdout) as {
      accounts: { id: string; name: string }[];
    };
    const account = (accounts.accounts.find((each) => each.name === 'Default') as { id: string }).id;
    const created = ok(await cli('npm run -s shortlinks -- user create', { 'acc_…': account })).stdout;
    expect(created).toMatch(/ada@example\.com \(usr_\S+\) is admin of Default/);
    expect(created).toMatch(/\/app\/set-password#slp_[\w-]{43}/);
    expect(ok(await cli('npm run -s shortlinks -- user list')).stdout).toMatch(/ada@example\.com +\(no password yet\) +Default=admin/);
    expect(ok(await cli('npm run -s shortlinks -- user reset-password')).stdout).toMatch(/\/app\/set-password#slp_[\w-]{43}/);
  });

  test('export and import read and write files where the command is run', { timeout: 180_000 }, async () => {
    const accounts = JSON.parse(ok(await runAsWritten('npm run -s shortlinks -- account list --json', { env })).stdout) as {
      accounts: { id: string; name: string }[];
    };
    const account = (accounts.accounts.find((each) => each.name === 'Default') as { id: string }).id;
    const made = (await (
      await api(defaultKey, 'POST', '/links', { title: 'Exported', destination_url: 'https://example.com/exported' })
    ).json()) as {
      id: string;
    };

    const exported = ok(await cli('npm run -s shortlinks -- export', { 'acc_…': account }, scratch));
    const file = path.join(scratch, 'links.jsonl');
    expect(exported.stderr).toContain(file);
    expect(await readFile(file, 'utf8')).toContain('https://example.com/exported');
    await expect(access(path.join(repoRoot, 'apps/server/links.jsonl'))).rejects.toThrow();
    await expect(access(path.join(repoRoot, 'links.jsonl'))).rejects.toThrow();

    // Deleted, so that the file brings it back.
    expect((await api(defaultKey, 'DELETE', `/links/${made.id}`)).status).toBe(204);
    const dryRun = ok(await cli('npm run -s shortlinks -- import', { 'acc_…': account }, scratch));
    expect(dryRun.stdout).toMatch(/^Dry run \(nothing written\): \d+ rows/m);
    expect(dryRun.stdout).toMatch(/^ {2}created {3}1$/m);
    expect((await api(defaultKey, 'GET', `/links/${made.id}`)).status).toBe(404);
    const imported = ok(await runAsWritten(`npm run -s shortlinks -- import --account ${account} links.jsonl`, { cwd: scratch, env }));
    expect(imported.stdout).toMatch(/^ {2}created {3}1$/m);
    const listed = (await (await api(defaultKey, 'GET', '/links?search=Exported')).json()) as { links: { destination_url: string }[] };
    expect(listed.links.map((link) => link.destination_url)).toContain('https://example.com/exported');
  });

  test('a backup is restored into a new data directory', { timeout: 240_000 }, async () => {
    const backup = path.join(scratch, 'sl.backup');
    ok(await cli('npm run -s shortlinks -- backup', { '/backups/sl.backup': backup }));
    const restoredDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-readme-restored-'));
    try {
      const restoreEnv = readerEnvironment({ DATA_DIR: restoredDir, LOG_LEVEL: 'warn' });
      ok(
        await runAsWritten(filled(readmeCommand('npm run -s shortlinks -- restore'), { '/backups/sl.backup': backup }), {
          env: restoreEnv,
          timeoutMs: 180_000,
        }),
      );
      const listed = ok(await runAsWritten('npm run -s shortlinks -- account list', { env: restoreEnv }));
      expect(listed.stdout).toContain('Acme');
    } finally {
      await rm(restoredDir, { recursive: true, force: true });
    }
  });

  test('the extension builds for Chromium and Firefox', { timeout: 400_000 }, async () => {
    ok(await runAsWritten(readmeCommand('npm run extension:build'), { env, timeoutMs: 240_000 }));
    await access(path.join(repoRoot, 'apps/extension/build/chrome-mv3-prod/manifest.json'));
    ok(await runAsWritten(readmeCommand('npm run extension:build:firefox'), { env, timeoutMs: 240_000 }));
    await access(path.join(repoRoot, 'apps/extension/build/firefox-mv3-prod/manifest.json'));
  });
});
