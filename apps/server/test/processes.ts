import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '..');

/**
 * Runs the server's real entry point (what `pnpm start` runs) as a child process. With
 * `processGroup`, it leads a process group of its own, as in a terminal, so a test can send a
 * signal to the whole group the way Ctrl-C does.
 */
export function startServerProcess(
  env: Record<string, string>,
  { processGroup = false }: { processGroup?: boolean } = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--experimental-async-context-frame', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: processGroup,
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  return { child, output: () => text };
}

/** Runs the operator CLI (what `pnpm shortlinks` runs) to completion. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--experimental-async-context-frame', 'src/cli/main.ts', ...args],
    {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** The pid of the embedded PostgreSQL's postmaster under `dataDir` (the first line of its postmaster.pid). */
export async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

/** Whether the server at `origin` answers `/readyz` with 200 (false while it is not listening yet). */
export async function isReady(origin: string): Promise<boolean> {
  try {
    return (await fetch(`${origin}/readyz`)).status === 200;
  } catch {
    return false;
  }
}

/** Waits until `predicate` holds, polling; fails after `ms`. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Whether a process runs (a zombie waiting to be reaped by init does not). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
