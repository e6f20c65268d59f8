import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
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
}

/** How long opening a database connection may take before it fails (503 DATABASE_UNAVAILABLE). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * pg's Client with a bound on connecting, so a database host that stops answering (rather than
 * refusing) cannot hold a request waiting for a new connection for ever. The pool's own
 * `connectionTimeoutMillis` would also bound the wait for a busy pooled connection, which long
 * work (a streamed export, a bulk load) may rightly hold for longer.
 */
class BoundedConnectClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    // The pool keeps the password out of its options' enumerable properties (so it is not logged).
    super({ ...config, password: config?.password, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/** Idle time after which a connection's TCP keep-alive probes start. */
export const KEEP_ALIVE_AFTER_MS = 10_000;

/** Connects to PostgreSQL (nothing is created or changed: see {@link migrate}). */
export async function createOrm({ databaseUrl, poolSize = 10, debug = false, connection }: OrmOptions): Promise<Orm> {
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
          Client: BoundedConnectClient,
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
  const applied = await whileHoldingSchemaLock(databaseUrl, () => orm.migrator.up());
  return applied.map((migration) => migration.name);
}

/** A pool that always lends the same connection and never closes it: its owner does. */
function poolOfOne(connection: pg.Client): PostgresPool {
  const lent = { query: connection.query.bind(connection), release: () => {} } as unknown as PostgresPoolClient;
  return { connect: async () => lent, end: async () => {}, options: {} };
}
