import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, watch } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { embeddedMemorySettings } from './embedded-memory.ts';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from './embedded-postgres.ts';
import { importWithoutSignalHandlers } from './embedded-postgres-library.ts';
import { withClient } from './embedded-roles.ts';
import { migrationsList } from './migrations/index.ts';
import { createOrm, migrate } from './orm.ts';

/*
 * Each describe starts a cluster of its own in a temporary DATA_DIR (initdb takes a few seconds),
 * and stops it even when a test fails.
 */

const CLUSTER_TIMEOUT = 180_000;
const isRoot = userInfo().uid === 0;

describe('a fresh embedded PostgreSQL', () => {
  const systemTemp = tmpdir();
  let dataDir: string;
  let tempDir: string;
  let database: EmbeddedDatabase | undefined;
  const tempFiles: SeenFile[] = [];
  const dataDirEntries: SeenFile[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(systemTemp, 'shortlinks-fresh-'));
    // A temporary directory of its own, open to all as /tmp is, so every file initdb's
    // launcher puts there is seen (and read, as any local user could) while it exists.
    tempDir = await mkdtemp(path.join(systemTemp, 'shortlinks-tmpdir-'));
    await chmod(tempDir, 0o1777);
    const stopRecording = [recordFiles(tempDir, tempFiles), recordFiles(dataDir, dataDirEntries)];
    // A file that lives far shorter than initdb's run (seconds), as the library's password file
    // did: the recording must see it, or the first test below would pass having seen nothing.
    const probe = path.join(tempDir, 'pg-password-probe');
    await writeFile(probe, 'probe-secret', { mode: 0o644 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await rm(probe);
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = tempDir;
    try {
      database = await startEmbeddedPostgres({ dataDir });
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      for (const stop of stopRecording) stop();
    }
  }, CLUSTER_TIMEOUT);

  afterAll(async () => {
    await database?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(tempDir, { recursive: true, force: true });
  }, CLUSTER_TIMEOUT);

  test('initdb leaves no file that other users can read with a database password in the temporary directory', async () => {
    expect(tempFiles.some((file) => file.file.endsWith('pg-password-probe') && file.content === 'probe-secret')).toBe(true);
    const passwords = await passwordsIn(dataDir);
    const files = [...tempFiles, ...(await filesIn(tempDir))].filter((file) => !file.file.endsWith('pg-password-probe'));
    const exposed = files.filter((file) => (file.mode & 0o044) !== 0 && passwords.some((password) => file.content.includes(password)));
    expect(exposed).toEqual([]);
  });

  test("initdb reads the superuser's password from a file under DATA_DIR that only initdb's user can reach, gone afterwards", async () => {
    const passwordDirectories = dataDirEntries.filter((entry) => path.basename(entry.file).startsWith('initdb-'));
    expect(passwordDirectories.length).toBeGreaterThan(0);
    for (const directory of passwordDirectories) expect(directory.mode & 0o777).toBe(0o700);
    // Created by this process, then handed to the user PostgreSQL runs as.
    const initdbUser = isRoot ? Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })) : userInfo().uid;
    expect(passwordDirectories.at(-1)?.uid).toBe(initdbUser);
    expect((await readdir(dataDir)).sort()).toEqual(['postgres', 'postgres-credentials.json']);
  });

  test('the passwords are kept in postgres-credentials.json, which only its owner can read', async () => {
    const file = path.join(dataDir, 'postgres-credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const passwords = await passwordsIn(dataDir);
    expect(passwords).toContain(decodeURIComponent(new URL(required(database).url).password));
    expect(passwords).toContain(decodeURIComponent(new URL(required(database).adminUrl).password));
    if (isRoot) expect((await stat(dataDir)).mode & 0o777).toBe(0o711);
  });

  test('the cluster listens on 127.0.0.1 only, with no Unix socket, and asks for passwords by SCRAM', async () => {
    await withClient(required(database).adminUrl, async (admin) => {
      expect((await admin.query('show listen_addresses')).rows).toEqual([{ listen_addresses: '127.0.0.1' }]);
      expect((await admin.query('show unix_socket_directories')).rows).toEqual([{ unix_socket_directories: '' }]);
      const methods = await admin.query('select distinct auth_method from pg_hba_file_rules');
      expect(methods.rows).toEqual([{ auth_method: 'scram-sha-256' }]);
    });
  });

  test("shared_buffers is a quarter of the machine's memory (128 MB to 2 GB), effective_cache_size half of it", async () => {
    const { sharedBuffersMiB, effectiveCacheSizeMiB } = embeddedMemorySettings();
    await withClient(required(database).adminUrl, async (admin) => {
      const setting = async (name: string) =>
        Number((await admin.query(`select setting::bigint * 8 / 1024 as mib from pg_settings where name = '${name}'`)).rows[0].mib);
      expect(await setting('shared_buffers')).toBe(sharedBuffersMiB);
      expect(await setting('effective_cache_size')).toBe(effectiveCacheSizeMiB);
    });
  });

  test('the application connects as a role that is not a superuser and cannot run programs on the server', async () => {
    await withClient(required(database).url, async (client) => {
      const role = await client.query('select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = current_user');
      expect(role.rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
      await expect(client.query("copy (select 1) to program 'true'")).rejects.toThrow(/permission denied/);
    });
  });

  test("privileges given to the application's role are taken back at the next start", async () => {
    const role = decodeURIComponent(new URL(required(database).url).username);
    await withClient(required(database).adminUrl, (admin) => admin.query(`alter role ${role} superuser createdb createrole`));
    // A second start in this process shares the running cluster, as the CLI does with a server.
    const again = await startEmbeddedPostgres({ dataDir });
    expect(again.owned).toBe(false);
    await withClient(again.url, async (client) => {
      const attributes = await client.query('select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = current_user');
      expect(attributes.rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
    });
  });

  test('migrations apply as that role, which owns the database and all it holds, and may add the trusted extension pg_trgm', async () => {
    const orm = await createOrm({ databaseUrl: required(database).url, poolSize: 2 });
    try {
      expect(await migrate(orm)).toEqual(migrationsList.map((migration) => migration.name));
    } finally {
      await orm.close();
    }
    await withClient(required(database).url, async (client) => {
      const owner = await client.query(
        'select pg_get_userbyid(datdba) = current_user as owns from pg_database where datname = current_database()',
      );
      expect(owner.rows).toEqual([{ owns: true }]);
      expect(await objectsNotOwnedByCurrentUser(client)).toEqual([]);
      // The link search's migration added it (PostgreSQL has its members owned by the bootstrap superuser).
      const trgm = await client.query(
        "select pg_get_userbyid(extowner) = current_user as owns from pg_extension where extname = 'pg_trgm'",
      );
      expect(trgm.rows).toEqual([{ owns: true }]);
    });
  });
});

describe('a data directory made by the previous version', () => {
  test('is upgraded in place: its data is kept, and the application connects as a role that is not a superuser and can still migrate and write', {
    timeout: CLUSTER_TIMEOUT,
  }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-legacy-'));
    try {
      const legacy = await createLegacyCluster(dataDir);
      const database = await startEmbeddedPostgres({ dataDir });
      try {
        const orm = await createOrm({ databaseUrl: database.url, poolSize: 2 });
        try {
          expect(await migrate(orm)).toEqual(migrationsList.slice(1).map((migration) => migration.name));
        } finally {
          await orm.close();
        }
        await withClient(database.url, async (client) => {
          const role = await client.query('select rolsuper from pg_roles where rolname = current_user');
          expect(role.rows).toEqual([{ rolsuper: false }]);
          expect((await client.query('select slug, title from link')).rows).toEqual([{ slug: 'kept', title: 'Kept' }]);
          await client.query(
            "insert into link (id, account_id, slug, destination_url, title) values ('lnk_after', 'acc_legacy', 'after', 'https://example.com/after', 'After')",
          );
          await client.query('create index link_title_idx on link (title)');
          await client.query("insert into legacy_extra.note (body) values ('still writable')");
          expect(await objectsNotOwnedByCurrentUser(client)).toEqual([]);
        });
      } finally {
        await database.stop();
      }
      // The previous version's entry is kept as it was, so that version could still start.
      const file = path.join(dataDir, 'postgres-credentials.json');
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ user: 'shortlinks', password: legacy.password });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A cluster as the previous version made it: its only role, `shortlinks`, is the superuser the
 * application connected as, and owns everything; the first migration is applied and holds a link.
 */
async function createLegacyCluster(dataDir: string): Promise<{ password: string }> {
  const password = randomBytes(18).toString('base64url');
  await writeFile(path.join(dataDir, 'postgres-credentials.json'), `${JSON.stringify({ user: 'shortlinks', password })}\n`, {
    mode: 0o600,
  });
  if (isRoot) await chmod(dataDir, 0o711);
  const EmbeddedPostgres = await importWithoutSignalHandlers();
  const port = await freePort();
  const cluster = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'postgres'),
    port,
    user: 'shortlinks',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  });
  await cluster.initialise();
  await cluster.start();
  try {
    const url = `postgres://shortlinks:${password}@127.0.0.1:${port}`;
    await withClient(`${url}/postgres`, (client) => client.query('create database shortlinks'));
    const orm = await createOrm({ databaseUrl: `${url}/shortlinks`, poolSize: 2 });
    try {
      await orm.migrator.up({ to: required(migrationsList[0]).name });
    } finally {
      await orm.close();
    }
    await withClient(`${url}/shortlinks`, async (client) => {
      await client.query("insert into account (id, name, plan) values ('acc_legacy', 'Legacy', 'starter')");
      await client.query(
        "insert into link (id, account_id, slug, destination_url, title) values ('lnk_legacy', 'acc_legacy', 'kept', 'https://example.com/kept', 'Kept')",
      );
      // Kinds of objects no migration has made yet, which must change owner all the same.
      await client.query(`
        create type legacy_mood as enum ('calm');
        create sequence legacy_counter;
        create view legacy_slugs as select slug from link;
        create function legacy_answer() returns integer language sql as 'select 42';
        create schema legacy_extra;
        create table legacy_extra.note (id integer generated always as identity, body text)`);
    });
  } finally {
    await cluster.stop();
  }
  return { password };
}

/**
 * Schemas, relations (with indexes and sequences), routines and types of the current database,
 * outside PostgreSQL's own schemas, owned by another role (the database's owner aside), except the members
 * of an extension, which PostgreSQL gives the bootstrap superuser (as prepareApplicationDatabase skips them).
 */
async function objectsNotOwnedByCurrentUser(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`
    with mine(oid) as (select oid from pg_roles where rolname = current_user union all select 'pg_database_owner'::regrole::oid),
      own_schema as (select oid, nspname, nspowner from pg_namespace where nspname <> 'information_schema' and nspname not like 'pg\\_%')
    select nspname as name from own_schema where nspowner not in (select oid from mine)
    union all
    select c.oid::regclass::text from pg_class c where c.relnamespace in (select oid from own_schema) and c.relowner not in (select oid from mine)
      and not exists (select from pg_depend e where e.classid = 'pg_class'::regclass and e.objid = c.oid and e.deptype = 'e')
    union all
    select p.oid::regprocedure::text from pg_proc p where p.pronamespace in (select oid from own_schema) and p.proowner not in (select oid from mine)
      and not exists (select from pg_depend e where e.classid = 'pg_proc'::regclass and e.objid = p.oid and e.deptype = 'e')
    union all
    select t.oid::regtype::text from pg_type t where t.typnamespace in (select oid from own_schema) and t.typowner not in (select oid from mine)
      and not exists (select from pg_depend e where e.classid = 'pg_type'::regclass and e.objid = t.oid and e.deptype = 'e')`);
  return rows.map((row) => row.name);
}

interface SeenFile {
  file: string;
  mode: number;
  uid: number;
  /** Empty for a directory. */
  content: string;
}

/**
 * Looks at every entry created or changed in `dir` (not below) as it happens, and reads it when it
 * is a file, until the returned function is called.
 */
function recordFiles(dir: string, seen: SeenFile[]): () => void {
  const watcher = watch(dir, (_event, name) => {
    if (!name) return;
    const file = path.join(dir, name);
    try {
      const info = statSync(file);
      seen.push({ file, mode: info.mode, uid: info.uid, content: info.isFile() ? readFileSync(file, 'utf8') : '' });
    } catch {
      // Already gone.
    }
  });
  return () => watcher.close();
}

async function filesIn(dir: string): Promise<SeenFile[]> {
  const files: SeenFile[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file);
    files.push({ file, mode: info.mode, uid: info.uid, content: await readFile(file, 'utf8') });
  }
  return files;
}

/** Every password in the data directory's credentials file, whatever its layout. */
async function passwordsIn(dataDir: string): Promise<string[]> {
  const passwords: string[] = [];
  JSON.parse(await readFile(path.join(dataDir, 'postgres-credentials.json'), 'utf8'), (key, value) => {
    if (key === 'password' && typeof value === 'string') passwords.push(value);
    return value;
  });
  return passwords;
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('missing: the cluster did not start');
  return value;
}
