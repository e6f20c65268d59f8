import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.ts';
import { withClient } from './embedded-roles.ts';

/** A cluster of its own, supervised as a server's is, whose postmaster the tests kill. */

const CLUSTER_TIMEOUT = 180_000;

let dataDir: string;
let database: EmbeddedDatabase | undefined;
const lines: string[] = [];
const gaveUp: Error[] = [];

const clusterDir = () => path.join(dataDir, 'postgres');

async function killPostmaster() {
  const pid = Number((await readFile(path.join(clusterDir(), 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGKILL');
}

async function until(holds: () => Promise<boolean> | boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const answers = (url: string) =>
  withClient(url, async (client) => Number((await client.query('select count(*)::int as n from kept')).rows[0].n)).catch(() => -1);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-supervised-'));
  database = await startEmbeddedPostgres({
    dataDir,
    supervise: { log: (line) => lines.push(line), gaveUp: (error) => gaveUp.push(error), giveUpAfterMs: 5000 },
  });
}, CLUSTER_TIMEOUT);

afterAll(async () => {
  await database?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, CLUSTER_TIMEOUT);

describe('a supervised embedded PostgreSQL', () => {
  test('killed, it is started again on the same port, with every committed row', async () => {
    const url = database?.url ?? '';
    await withClient(url, async (client) => {
      await client.query('create table kept (n int)');
      await client.query('insert into kept select generate_series(1, 1000)');
    });
    await killPostmaster();
    await until(async () => (await answers(url)) === 1000, 60_000, 'the restarted cluster to answer');
    expect(lines.some((line) => /exited unexpectedly \(SIGKILL\); restarting it/.test(line))).toBe(true);
    expect(lines.some((line) => /restarted after \d+ attempts? \(\d+ ms\)/.test(line))).toBe(true);
    expect(gaveUp).toEqual([]);
  }, 90_000);

  test('killed again, it is still supervised; when it cannot start, its owner is told to give up', async () => {
    const version = path.join(clusterDir(), 'PG_VERSION');
    // Without PG_VERSION, PostgreSQL refuses the directory: every restart fails.
    await rename(version, `${version}.away`);
    try {
      await killPostmaster();
      await until(() => gaveUp.length > 0, 30_000, 'the supervisor to give up');
      expect(gaveUp[0]?.message).toMatch(/could not be restarted in 5 s/);
    } finally {
      await rename(`${version}.away`, version);
    }
  }, 60_000);
});
