import pg from 'pg';

/**
 * The pool of a job queue that runs on the application's database (the webhooks' graphile-worker):
 * every connection, idle or held (the queue holds one for LISTEN), reports its errors to `warn`.
 * A connection ended by the database (a restart, an operator's `pg_terminate_backend`, a stop
 * while the queue still held it) would otherwise raise an error nobody listens to, which ends
 * the process. The queue's owner ends the pool after the queue.
 */
export function queuePool(connectionString: string, max: number, warn: (message: string) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  const report = (error: Error) => warn(`queue connection: ${error.message}`);
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  return pool;
}
