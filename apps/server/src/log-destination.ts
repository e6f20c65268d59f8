import pino from 'pino';

/**
 * Where the server writes its log lines: standard output unless told otherwise, written
 * asynchronously. A synchronous write per line (pino's default) makes every request wait for a
 * system call (docs/redirects.md#logs). Written asynchronously, the lines that arrive while one write is in
 * flight go out together in the next, so a busy server makes few system calls and an idle one
 * still writes each line at once. pino flushes what is left when the process exits; only a
 * SIGKILL can lose the lines of the last write in flight.
 */
export function logDestination(dest: number | string = 1) {
  return pino.destination({ dest, sync: false, mkdir: typeof dest === 'string' });
}
