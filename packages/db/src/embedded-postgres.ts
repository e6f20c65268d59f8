import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { importWithoutSignalHandlers, withDetachedSpawn } from './embedded-postgres-library.ts';

/** A PostgreSQL cluster on this machine, started by us or found already running. */
export interface EmbeddedDatabase {
  /** Connection URL of the application database. */
  url: string;
  /** True when this process started the cluster and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where the cluster lives (DATA_DIR); created when missing. */
  dataDir: string;
  database?: string;
  log?: (line: string) => void;
}

interface Credentials {
  user: string;
  password: string;
}

const RUN_AS = 'postgres';

/**
 * Starts (or attaches to) the embedded PostgreSQL of `dataDir`, using the `embedded-postgres`
 * package's binaries.
 *
 * - As root, PostgreSQL runs as the system user `postgres` (created when missing), which must be
 *   able to reach `dataDir`.
 * - A cluster already running for this directory under a live process (a server, or the CLI) is
 *   shared, not started twice. One orphaned by a killed process is stopped and started afresh,
 *   and a stale `postmaster.pid` is removed.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const database = options.database ?? 'shortlinks';
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  const credentials = await loadOrCreateCredentials(dataDir);
  const urlFor = (port: number) =>
    `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;

  const running = await inspectRunningCluster(clusterDir);
  if (running?.kind === 'shared') {
    log(`embedded PostgreSQL already running (pid ${running.pid}, port ${running.port}); sharing it`);
    return { url: urlFor(running.port), owned: false, stop: async () => {} };
  }
  if (running?.kind === 'orphan') {
    log(`stopping embedded PostgreSQL orphaned by a killed process (pid ${running.pid})`);
    await stopProcess(running.pid);
  }

  const isRoot = userInfo().uid === 0;
  if (isRoot) await ensureRunAsUserCanReach(dataDir);

  const EmbeddedPostgres = await importWithoutSignalHandlers();
  const port = await freePort();
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    persistent: true,
    createPostgresUser: isRoot,
    // The builtin C.UTF-8 provider gives Unicode-aware lower() (tag names compare ignoring
    // case) without depending on the host's installed locales.
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: (message: unknown) => log(String(message).trimEnd()),
    onError: (error: unknown) => log(`[error] ${String(error)}`),
  });

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    // A directory without PG_VERSION is a half-finished initdb: start over.
    await rm(clusterDir, { recursive: true, force: true });
    log(`initialising embedded PostgreSQL in ${clusterDir}`);
    await cluster.initialise();
  }
  try {
    await withDetachedSpawn(() => cluster.start());
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start in ${clusterDir}${error ? `: ${String(error)}` : ''}`);
  }

  const admin = cluster.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }

  // Last resort when the process exits without stopping the cluster (an uncaught error):
  // a fast shutdown request, which PostgreSQL completes on its own.
  const stopOnExit = () => (cluster as unknown as { process?: ChildProcess }).process?.kill('SIGINT');
  process.once('exit', stopOnExit);

  let stopped: Promise<void> | undefined;
  return {
    url: urlFor(port),
    owned: true,
    stop: () => {
      process.removeListener('exit', stopOnExit);
      stopped ??= cluster.stop();
      return stopped;
    },
  };
}

async function loadOrCreateCredentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'postgres-credentials.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  const credentials = { user: 'shortlinks', password: randomBytes(18).toString('base64url') };
  await writeFile(file, `${JSON.stringify(credentials)}\n`, { mode: 0o600 });
  return credentials;
}

type RunningCluster = { kind: 'shared' | 'orphan'; pid: number; port: number };

/** Reads postmaster.pid: is a postmaster alive for this directory, and does a live process own it? */
async function inspectRunningCluster(clusterDir: string): Promise<RunningCluster | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await readFile(pidFile, 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgresProcess(pid)) {
    // The process is gone (or the pid now belongs to something else): the file is stale.
    await unlink(pidFile).catch(() => {});
    return undefined;
  }
  const parent = parentPid(pid);
  const parentIsNode = parent !== undefined && parent > 1 && commandLine(parent).includes('node');
  return { kind: parentIsNode ? 'shared' : 'orphan', pid, port };
}

function commandLine(pid: number): string {
  try {
    return execFileSync('cat', [`/proc/${pid}/cmdline`], { encoding: 'utf8' }).replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but not ours to signal (the postgres user's process when we are not root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return /postgres/.test(commandLine(pid));
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = execFileSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' });
    // Format: pid (comm) state ppid ...; comm may contain spaces, so split after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

async function stopProcess(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT'); // PostgreSQL's "fast" shutdown
  } catch {
    return;
  }
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (!isPostgresProcess(pid)) return;
    await sleep(100);
  }
  process.kill(pid, 'SIGKILL');
}

/**
 * The postgres user must be able to enter every parent of the data directory, and of this
 * repository (the PostgreSQL binaries live in its node_modules).
 */
async function ensureRunAsUserCanReach(dataDir: string): Promise<void> {
  let uid: number;
  try {
    uid = Number(execFileSync('id', ['-u', RUN_AS], { encoding: 'utf8' }));
  } catch {
    return; // embedded-postgres creates the user; a fresh user reaches what "others" reach.
  }
  const blocked = async (start: string) => {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const info = await stat(dir);
      const enterable = info.uid === uid ? (info.mode & 0o100) !== 0 : (info.mode & 0o001) !== 0;
      if (!enterable) return dir;
      if (dir === path.dirname(dir)) return undefined;
    }
  };
  const forData = await blocked(path.dirname(dataDir));
  if (forData) {
    throw new Error(
      `PostgreSQL runs as the user "${RUN_AS}" when started by root, and cannot enter ${forData} to reach DATA_DIR=${dataDir}. ` +
        'Set DATA_DIR to a directory it can reach (for example /var/lib/shortlinks), run as another user, or set DATABASE_URL.',
    );
  }
  const forBinaries = await blocked(import.meta.dirname);
  if (forBinaries) {
    throw new Error(
      `PostgreSQL runs as the user "${RUN_AS}" when started by root, and cannot enter ${forBinaries} to reach its binaries ` +
        `under ${import.meta.dirname}. Clone the repository where that user can read it (e.g. under /srv or /opt), run as another user, or set DATABASE_URL.`,
    );
  }
  // The data dir itself holds our credentials file (root only); the cluster lives in a subdirectory.
  await chmod(dataDir, 0o711);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
