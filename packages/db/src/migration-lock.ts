import pg from 'pg';
import { CONNECT_TIMEOUT_MS } from './bounded-client.ts';

/**
 * The advisory lock every Shortlinks process takes before it changes the schema: the migrations a
 * server runs on start, and a restore. MikroORM 7's migrator takes no lock of its own, so two
 * instances starting at once on a new database would both try to create the same tables, and one
 * would fail. A key computed from a name keeps it apart from any lock another program takes.
 */
export const SCHEMA_LOCK_KEY = "hashtextextended('shortlinks.schema', 0)";

/**
 * Runs `work` while this process holds the schema lock, on a connection of its own (so it holds
 * whatever the pool's size). Another process waits here until the lock is free: a second server
 * then finds every migration applied. The lock goes with the connection if the process dies.
 */
export async function whileHoldingSchemaLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'shortlinks schema lock',
    // Waiting for the lock is not bounded (another process may be migrating); connecting is.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A connection dropped while we wait or work is reported through the query in flight or `end`.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${SCHEMA_LOCK_KEY})`);
    return await work();
  } finally {
    await client.end();
  }
}
