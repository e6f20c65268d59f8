import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@shortlinks/db/embedded';
import { ensureDebianPrograms, REDIS_SERVER } from './debian-packages.ts';
import { waitFor } from './processes.ts';

export interface TestRedis {
  url: string;
  port: number;
  /** SIGKILL, as a crash: nothing is saved (nothing is kept on disk anyway). */
  kill(): Promise<void>;
  /** Starts again on the same port, empty. */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers, as with a hung server or a black-holed network. */
  freeze(): void;
  /** SIGCONT: answers again, the waiting commands first. */
  thaw(): void;
  stop(): Promise<void>;
}

/**
 * A real redis-server of its own on a free loopback port, keeping nothing on disk, for one test
 * file. Installed from Debian's package when missing (debian-packages.ts).
 */
export async function startRedis(): Promise<TestRedis> {
  ensureDebianPrograms();
  const dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    output = '';
    const started = spawn(
      REDIS_SERVER,
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    started.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    await waitFor(
      () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode}):\n${output}`);
        return output.includes('Ready to accept connections');
      },
      15_000,
      `redis-server on port ${port}`,
    );
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill(signal);
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end('SIGKILL'),
    restart: start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    stop: async () => {
      await end('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
