import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClusterCredentials, loadOrCreateCredentials, type RoleCredentials } from './embedded-credentials.ts';
import { embeddedMemoryFlags } from './embedded-memory.ts';
import { importWithoutSignalHandlers, withDetachedSpawn } from './embedded-postgres-library.ts';
import { prepareApplicationDatabase } from './embedded-roles.ts';
import { type Supervision, superviseCluster } from './embedded-supervisor.ts';

export type { Supervision } from './embedded-supervisor.ts';

import { ensureRunAsUser, ensureRunAsUserCanReach, writePasswordFile } from './embedded-run-as.ts';

/** A PostgreSQL cluster on this machine, started by us or found already running. */
export interface EmbeddedDatabase {
  /** Connection URL of the application database, as the application's role (not a superuser). */
  url: string;
  /**
   * The superuser's URL to the `postgres` database, for administration (the test suite creates
   * its databases with it). The application never connects with it.
   */
  adminUrl: string;
  /** True when this process started the cluster and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where the cluster lives (DATA_DIR); created when missing. */
  dataDir: string;
  database?: string;
  /** The port to listen on; a free one when unset. */
  port?: number;
  log?: (line: string) => void;
  /** Restart the cluster if its postmaster dies (a server's own cluster; embedded-supervisor.ts). */
  supervise?: Supervision;
}

/**
 * embedded-postgres writes its `password` option, for initdb, to a file in the system's temporary
 * directory that every local user can read. So it is given this instead, and initdb reads the
 * superuser's password from a file of ours given by a later `--pwfile`, which takes precedence.
 * Were it ever used, the first connection with the real password would fail, and the start with it.
 */
const NOT_THE_PASSWORD = 'unused: initdb reads the password from a later --pwfile';

/**
 * Starts (or attaches to) the embedded PostgreSQL of `dataDir`, using the `embedded-postgres`
 * package's binaries.
 *
 * - As root, PostgreSQL runs as the system user `postgres` (created when missing), which must be
 *   able to reach `dataDir`.
 * - The application connects as a role of its own that owns its database and is not a superuser;
 *   a data directory of the previous version, whose superuser was the application's role, is
 *   upgraded in place (see {@link prepareApplicationDatabase}).
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
  const prepare = async (port: number) => {
    const urls = urlsFor(credentials, port, database);
    const moved = await prepareApplicationDatabase({ adminUrl: urls.adminUrl, database, app: credentials.app });
    if (moved > 0) log(`${moved} objects of the database "${database}" now belong to ${credentials.app.user}, the application's role`);
    return urls;
  };

  const running = await inspectRunningCluster(clusterDir);
  if (running?.kind === 'shared') {
    log(`embedded PostgreSQL already running (pid ${running.pid}, port ${running.port}); sharing it`);
    return { ...(await prepare(running.port)), owned: false, stop: async () => {} };
  }
  if (running?.kind === 'orphan') {
    log(`stopping embedded PostgreSQL orphaned by a killed process (pid ${running.pid})`);
    await stopProcess(running.pid);
  }

  const runAs = userInfo().uid === 0 ? ensureRunAsUser() : undefined;
  if (runAs) await ensureRunAsUserCanReach(dataDir, runAs);

  const initialise = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  // A directory without PG_VERSION is a half-finished initdb: start over.
  if (initialise) await rm(clusterDir, { recursive: true, force: true });

  const EmbeddedPostgres = await importWithoutSignalHandlers();
  const port = options.port ?? (await freePort());
  const passwordFile = initialise ? await writePasswordFile(dataDir, credentials.superuser.password, runAs) : undefined;
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: credentials.superuser.user,
    password: NOT_THE_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runAs !== undefined,
    initdbFlags: [
      // The builtin C.UTF-8 provider gives Unicode-aware lower() (tag names compare ignoring
      // case) without depending on the host's installed locales.
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      ...(passwordFile ? [`--pwfile=${passwordFile.path}`] : []),
    ],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      ...embeddedMemoryFlags(),
    ],
    onLog: (message: unknown) => log(String(message).trimEnd()),
    onError: (error: unknown) => log(`[error] ${String(error)}`),
  });

  if (passwordFile) {
    log(`initialising embedded PostgreSQL in ${clusterDir}`);
    try {
      await cluster.initialise();
    } finally {
      await passwordFile.remove();
    }
  }
  try {
    await withDetachedSpawn(() => cluster.start());
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start in ${clusterDir}${error ? `: ${String(error)}` : ''}`);
  }

  // Last resort when the process exits without stopping the cluster (an uncaught error):
  // a fast shutdown request, which PostgreSQL completes on its own.
  const supervised = cluster as unknown as { process?: ChildProcess; start(): Promise<void> };
  const stopOnExit = () => supervised.process?.kill('SIGINT');
  process.once('exit', stopOnExit);
  const stopSupervising = options.supervise
    ? superviseCluster(supervised, () => withDetachedSpawn(() => cluster.start()), options.supervise)
    : () => {};
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopSupervising();
    process.removeListener('exit', stopOnExit);
    stopped ??= cluster.stop();
    return stopped;
  };

  try {
    return { ...(await prepare(port)), owned: true, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function urlsFor(credentials: ClusterCredentials, port: number, database: string): Pick<EmbeddedDatabase, 'url' | 'adminUrl'> {
  const url = (role: RoleCredentials, name: string) =>
    `postgres://${encodeURIComponent(role.user)}:${encodeURIComponent(role.password)}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
  return { url: url(credentials.app, database), adminUrl: url(credentials.superuser, 'postgres') };
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

/** A loopback port free right now (the cluster's, and tests' other listeners'). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
