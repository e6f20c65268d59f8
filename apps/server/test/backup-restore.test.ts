import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import { createOrm, migrate } from '@shortlinks/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BROWSER_USER_AGENT,
  callApi,
  createAccount,
  createEmptyDatabase,
  createLink,
  inDays,
  seedAcmeAccount,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';
import { runCli, waitFor } from './processes.ts';

/*
 * `pnpm shortlinks backup` and `restore`, run as the operator runs them (the CLI as a process),
 * against the real PostgreSQL: what a restored database serves, and that every refusal leaves
 * the database as it was.
 */

const TIMEOUT = 120_000;

let original: TestServer;
let acme: TestAccount;
let other: TestAccount;
let revokedKey: string;
let dir: string;
let backupFile: string;
let backupOutput: { code: number | null; stdout: string; stderr: string };
/** A fixed window, so both servers answer statistics for the same moments. */
const window = `start=${Date.now() - 40 * 86_400_000}&end=${Date.now() + 60_000}`;

beforeAll(async () => {
  original = await startTestServer();
  acme = await createAccount(original, { plan: 'team', name: 'Acme' });
  other = await createAccount(original, { plan: 'starter', name: 'Other', link_limit: 7 });
  // Four tags, five links with tags and a month of clicks recorded through the click recorder.
  await seedAcmeAccount(original, acme);
  await createLink(other, {
    slug: 'other-full',
    destination_url: 'https://example.org/full?b=2',
    utm: { source: 'news' },
    tag_names: ['Mine'],
    external_id: 'crm-1',
    comments: 'two\nlines\tand a tab, "quotes" and a \\ backslash',
    expires_at: inDays(10),
    expiration_url: 'https://example.org/after',
  });
  const gone = await createLink(other, { slug: 'other-gone' });
  expect((await other.call('DELETE', `/links/${gone.id}`)).status).toBe(204);
  const revoked = await original.services.apiKeys.create(other.account.id);
  revokedKey = revoked.secret;
  await original.services.apiKeys.revoke(revoked.key.id);
  expect((await callApi(original, revokedKey, 'GET', '/links')).status).toBe(401);
  const env = { DATABASE_URL: original.databaseUrl };
  expect((await runCli(['denylist', 'add', 'evil.example'], env)).code).toBe(0);

  dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-backup-'));
  backupFile = path.join(dir, 'shortlinks.backup');
  backupOutput = await runCli(['backup', '--output', backupFile], env);
}, TIMEOUT);

afterAll(async () => {
  await original?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every table's rows as one digest, and their number: two databases with the same digests hold the same rows. */
async function tableDigests(databaseUrl: string): Promise<Record<string, string>> {
  return withClient(databaseUrl, async (client) => {
    const tables = await client.query<{ name: string }>(
      "select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r' order by 1",
    );
    const digests: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const table = pg.escapeIdentifier(name);
      const result = await client.query<{ rows: number; digest: string | null }>(
        `select count(*)::int as rows, md5(string_agg(t::text, E'\\n' order by t::text)) as digest from ${table} t`,
      );
      digests[name] = `${result.rows[0]?.rows} ${result.rows[0]?.digest}`;
    }
    return digests;
  });
}

async function tablesIn(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r', 'S', 'v')",
    );
    return result.rows[0]?.n ?? -1;
  });
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** What a visitor and an API caller see of an account: its links (with tags and clicks), tags, statistics, and where each slug goes. */
async function servedTo(server: TestServer, key: string) {
  const call = (route: string) => callApi(server, key, 'GET', route);
  const links = await call('/links?per_page=100');
  expect(links.status).toBe(200);
  const redirects: Record<string, [number, string | null]> = {};
  const linkStats: Record<string, unknown> = {};
  for (const link of links.body.links) {
    const response = await fetch(`${server.origin}/${link.slug}`, { redirect: 'manual', headers: { 'user-agent': 'curl/8.0' } });
    redirects[link.slug] = [response.status, response.headers.get('location')];
    linkStats[link.id] = (await call(`/links/${link.id}/stats?${window}`)).body;
  }
  return { links: links.body, tags: (await call('/tags')).body, stats: (await call(`/stats?${window}`)).body, linkStats, redirects };
}

describe('pnpm shortlinks backup and restore', () => {
  test('a backup restored into an empty database holds the same rows, and a server on it serves the same links, keys and statistics', {
    timeout: TIMEOUT,
  }, async () => {
    expect(backupOutput.code).toBe(0);
    expect(backupOutput.stdout).toMatch(/^Backed up \d+ tables, \d+ rows \(schema at Migration\d+_\w+\) to .*shortlinks\.backup/);
    // Progress: a line per table on stderr.
    expect(backupOutput.stderr).toMatch(/^ {2}link: 7 rows$/m);
    expect(backupOutput.stderr).toMatch(/^ {2}click: [\d,]+ rows$/m);
    await expect(stat(`${backupFile}.partial`)).rejects.toThrow();

    const restoredUrl = await createEmptyDatabase();
    const restore = await runCli(['restore', backupFile], { DATABASE_URL: restoredUrl });
    expect(restore.stderr).toMatch(/^ {2}account: 2 rows$/m);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored \d+ tables, \d+ rows from a backup of /);

    // Every table, row for row (derived tables, rollups and the migrations table included).
    expect(await tableDigests(restoredUrl)).toEqual(await tableDigests(original.databaseUrl));

    const restored = await startTestServer({ databaseUrl: restoredUrl });
    try {
      for (const account of [acme, other]) {
        const before = await servedTo(original, account.key);
        const after = await servedTo(restored, account.key);
        expect(after).toEqual(before);
        expect(Object.values(after.redirects).every(([status]) => status === 301 || status === 302)).toBe(true);
      }
      // The deleted link stays deleted, the revoked key stays revoked.
      expect((await fetch(`${restored.origin}/other-gone`, { redirect: 'manual' })).status).toBe(404);
      expect((await callApi(restored, revokedKey, 'GET', '/links')).status).toBe(401);

      // Writes go on where the original left off: new links, clicks and denylist entries take ids
      // past the loaded ones (sequences were moved), and the link limit counts the loaded links.
      const created = await callApi(restored, other.key, 'POST', '/links', {
        title: 'New',
        destination_url: 'https://example.org/new',
        slug: 'other-new',
      });
      expect(created.status).toBe(201);
      // The search table is kept by triggers, which the restore turned off while loading only.
      const found = await callApi(restored, other.key, 'GET', '/links?search=example.org/new');
      expect(found.body.links.map((link: { slug: string }) => link.slug)).toEqual(['other-new']);
      const visit = await fetch(`${restored.origin}/other-new`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT } });
      expect(visit.status).toBe(302);
      await restored.services.clicks.flush();
      expect((await callApi(restored, other.key, 'GET', `/links/${created.body.id}`)).body.click_count).toBe(1);
      expect((await runCli(['denylist', 'add', 'worse.example'], { DATABASE_URL: restoredUrl })).code).toBe(0);
      // `other` may hold 7 live links: 1 before (the deleted one does not count), 1 made here, so 5 more fit.
      const onRestored: TestAccount = {
        ...other,
        call: (method, route, body, headers) => callApi(restored, other.key, method, route, body, headers),
      };
      for (let i = 0; i < 5; i++) await createLink(onRestored);
      const refused = await callApi(restored, other.key, 'POST', '/links', { title: 'Over', destination_url: 'https://example.org/over' });
      expect(refused.status).toBe(403);
    } finally {
      await restored.close();
    }
  });

  test('restore refuses a database that is not empty (exit 1), and changes nothing in it', { timeout: TIMEOUT }, async () => {
    const before = await tableDigests(original.databaseUrl);
    const result = await runCli(['restore', backupFile], { DATABASE_URL: original.databaseUrl });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Nothing was restored: DATABASE_NOT_EMPTY the database is not empty');
    expect(await tableDigests(original.databaseUrl)).toEqual(before);
  });

  test('a missing, foreign, damaged, truncated, future-format or newer-schema file is refused (exit 2) and the empty database stays empty', {
    timeout: TIMEOUT,
  }, async () => {
    const whole = await readFile(backupFile);
    const frames = gunzipSync(whole);
    // Frames: a type byte, the length, the CRC-32, the bytes (packages/db/src/backup/backup-format.ts).
    const header = JSON.parse(frames.subarray(9, 9 + frames.readUInt32BE(1)).toString('utf8'));
    const rest = frames.subarray(9 + frames.readUInt32BE(1));
    const withHeader = (changes: object) => {
      const json = Buffer.from(JSON.stringify({ ...header, ...changes }));
      const head = Buffer.alloc(9);
      head.write('H', 0, 'latin1');
      head.writeUInt32BE(json.length, 1);
      head.writeUInt32BE(crc32(json), 5);
      return gzipSync(Buffer.concat([head, json, rest]));
    };
    // The gzip stream whole, but its frames cut before the last table's end: found only once rows were loaded.
    const cutFrames = gzipSync(frames.subarray(0, frames.length - 200));
    const damaged = Buffer.from(whole);
    const middle = Math.floor(damaged.length / 2);
    damaged.writeUInt8(damaged.readUInt8(middle) ^ 0xff, middle);
    const cases: [string, Buffer | undefined, RegExp][] = [
      ['missing', undefined, /cannot read it \(ENOENT\)/],
      ['plain-text', Buffer.from('id,slug\n1,abc\n'), /NOT_A_BACKUP not a Shortlinks backup \(not gzip-compressed\)/],
      ['other-gzip', gzipSync('{"hello":"world"}\n'), /NOT_A_BACKUP/],
      ['damaged', damaged, /CORRUPT the file is damaged/],
      ['cut-file', whole.subarray(0, Math.floor(whole.length * 0.8)), /TRUNCATED the file ends early/],
      ['cut-frames', cutFrames, /TRUNCATED|CORRUPT/],
      [
        'future-format',
        withHeader({ version: 2 }),
        /UNSUPPORTED_FORMAT_VERSION the backup is in format version 2; this build reads version 1/,
      ],
      [
        'newer-schema',
        withHeader({ migrations: [...header.migrations, 'Migration20991231000000_from_the_future'] }),
        /NEWER_SCHEMA the backup comes from a newer schema than this build knows \(migration Migration20991231000000_from_the_future\)/,
      ],
    ];
    const emptyUrl = await createEmptyDatabase();
    for (const [name, bytes, message] of cases) {
      const file = path.join(dir, `${name}.backup`);
      if (bytes) await writeFile(file, bytes);
      const result = await runCli(['restore', file], { DATABASE_URL: emptyUrl });
      expect({ name, code: result.code, stderr: result.stderr }).toMatchObject({ name, code: 2, stderr: expect.stringMatching(message) });
      expect(result.stderr).toContain('Nothing was restored.');
      expect({ name, tables: await tablesIn(emptyUrl) }).toEqual({ name, tables: 0 });
    }
    // The same empty database then takes the whole backup.
    expect((await runCli(['restore', backupFile], { DATABASE_URL: emptyUrl })).code).toBe(0);
  });

  test('backing up a database that has no schema yet is refused (exit 1) and leaves no file', { timeout: TIMEOUT }, async () => {
    const file = path.join(dir, 'nothing.backup');
    const result = await runCli(['backup', '--output', file], { DATABASE_URL: await createEmptyDatabase() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Nothing was backed up: NOTHING_TO_BACK_UP');
    await expect(stat(file)).rejects.toThrow();
    await expect(stat(`${file}.partial`)).rejects.toThrow();
  });

  test('with the embedded database: a restore into a new DATA_DIR, and a backup of it, hold the same accounts', {
    timeout: 240_000,
  }, async () => {
    // A directory of its own (as root, PostgreSQL runs as another user, who cannot enter `dir`).
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-restore-embedded-'));
    const embedded = { DATABASE_URL: '', DATA_DIR: dataDir };
    try {
      const restore = await runCli(['restore', backupFile], embedded);
      expect(restore.stderr + restore.stdout).toMatch(/Restored \d+ tables/);
      expect(restore.code).toBe(0);
      const again = path.join(dir, 'from-embedded.backup');
      const backup = await runCli(['backup', '--output', again], embedded);
      expect(backup.code).toBe(0);
      // The embedded cluster's backup holds what the external database's did, table for table.
      const counts = (output: string) => output.match(/^ {2}\S+: [\d,]+ rows$/gm);
      expect(counts(backup.stderr)).toEqual(counts(backupOutput.stderr));
      const accounts = await runCli(['account', 'list', '--json'], embedded);
      expect(
        JSON.parse(accounts.stdout)
          .accounts.map((account: { name: string }) => account.name)
          .sort(),
      ).toEqual(['Acme', 'Other']);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('a server starting on the database during a restore waits for it, then finds the restored database migrated', {
    timeout: TIMEOUT,
  }, async () => {
    const url = await createEmptyDatabase();
    // The test holds the schema lock first, so that the restore and the start queue behind it in turn.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const waiting = async () => {
      const result = await holder.query<{ n: number }>(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())",
      );
      return result.rows[0]?.n ?? 0;
    };
    let restore: Promise<{ code: number | null; stdout: string; stderr: string }> | undefined;
    let start: Promise<string[]> | undefined;
    const orm = await createOrm({ databaseUrl: url, poolSize: 2 });
    try {
      await holder.query("select pg_advisory_lock(hashtextextended('shortlinks.schema', 0))");
      restore = runCli(['restore', backupFile], { DATABASE_URL: url });
      await waitFor(async () => (await waiting()) === 1, 30_000, 'the restore to wait for the schema lock');
      // What a server does on start, before it listens.
      start = migrate(orm);
      await waitFor(async () => (await waiting()) === 2, 30_000, 'the start to wait for the schema lock');
      await holder.query("select pg_advisory_unlock(hashtextextended('shortlinks.schema', 0))");
      expect((await restore).code).toBe(0);
      expect(await start).toEqual([]);
      expect(await tableDigests(url)).toEqual(await tableDigests(original.databaseUrl));
    } finally {
      await holder.end();
      await Promise.allSettled([restore, start]);
      await orm.close();
    }
  });

  test('backup --output - writes the backup to stdout', { timeout: TIMEOUT }, async () => {
    const result = await runCli(['backup', '--output', '-'], { DATABASE_URL: original.databaseUrl });
    expect(result.code).toBe(0);
    // runCli reads stdout as text; the gzip magic survives as its first two code points.
    expect(result.stdout.charCodeAt(0)).toBe(0x1f);
  });
});
