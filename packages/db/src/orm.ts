import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { boundedClient, DEFAULT_QUERY_TIMEOUT_MS } from './bounded-client.ts';
import { entities } from './entities/index.ts';
import { whileHoldingSchemaLock } from './migration-lock.ts';
import { migrationsList } from './migrations/index.ts';
import { countPoolErrors } from './pool-errors.ts';
import { namePreparedStatements } from './prepared-statements.ts';

export type Orm = MikroORM;

export interface OrmOptions {
  databaseUrl: string;
  /** Connections in the pool; PostgreSQL work per request is short, a small pool suffices. */
  poolSize?: number;
  debug?: boolean;
  /**
   * Every query on this one connection, which the caller opened and will close, instead of a pool:
   * a restore runs migrations and its own COPY in one transaction (see backup/restore-backup.ts).
   */
  connection?: pg.Client;
  /**
   * How long one statement may go unanswered, and how long a statement may wait for a pooled
   * connection, in ms (`DATABASE_QUERY_TIMEOUT_MS`, docs/operations.md); 0: for ever. A statement
   * past it fails (503 DATABASE_UNAVAILABLE) and its connection is discarded (bounded-client.ts).
   */
  queryTimeoutMs?: number;
}

/** Idle time after which a connection's TCP keep-alive probes start. */
export const KEEP_ALIVE_AFTER_MS = 10_000;

/** Connects to PostgreSQL (nothing is created or changed: see {@link migrate}). */
export async function createOrm({
  databaseUrl,
  poolSize = 10,
  debug = false,
  connection,
  queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
}: OrmOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: { min: 0, max: poolSize },
    driverOptions: connection
      ? new PostgresDialect({ pool: poolOfOne(connection) })
      : {
          onPoolCreated: (pool: pg.Pool) => {
            namePreparedStatements(pool);
            countPoolErrors(pool);
          },
          Client: boundedClient(queryTimeoutMs),
          // Bounds the wait for a pooled connection too: while the database hangs, every pooled
          // connection is held by a statement that waits for its bound, and the requests queued
          // behind them would otherwise wait for all of those in turn. (A new connection's own
          // connect is bounded by the client, CONNECT_TIMEOUT_MS.)
          ...(queryTimeoutMs > 0 ? { connectionTimeoutMillis: queryTimeoutMs } : {}),
          // TCP keep-alive probes, so a connection to a host that vanished is found dead, in the
          // system's keep-alive time, rather than never.
          keepAlive: true,
          keepAliveInitialDelayMillis: KEEP_ALIVE_AFTER_MS,
        },
    debug,
    // Request handlers always work in an explicit fork or transaction.
    allowGlobalContext: false,
    ensureDatabase: false,
  });
}

/**
 * Applies every pending migration in one transaction. Processes starting at once take turns
 * through the schema lock (the migrator has none of its own): the later ones find nothing to do.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const databaseUrl = orm.config.get('clientUrl');
  if (!databaseUrl) throw new Error('migrate needs an ORM made by createOrm');
  // On a connection without the statement bound: a migration may rewrite a large table or build
  // an index for longer than any request's statement should take.
  const unbounded = await createOrm({ databaseUrl, poolSize: 1, queryTimeoutMs: 0 });
  try {
    const applied = await whileHoldingSchemaLock(databaseUrl, () => unbounded.migrator.up());
    return applied.map((migration) => migration.name);
  } finally {
    await unbounded.close();
  }
}

/** A pool that always lends the same connection and never closes it: its owner does. */
function poolOfOne(connection: pg.Client): PostgresPool {
  const lent = { query: connection.query.bind(connection), release: () => {} } as unknown as PostgresPoolClient;
  return { connect: async () => lent, end: async () => {}, options: {} };
}
