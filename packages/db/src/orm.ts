import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';
import { countPoolErrors } from './pool-errors.ts';
import { namePreparedStatements } from './prepared-statements.ts';

export type Orm = MikroORM;

export interface OrmOptions {
  databaseUrl: string;
  /** Connections in the pool; PostgreSQL work per request is short, a small pool suffices. */
  poolSize?: number;
  debug?: boolean;
}

/** How long a request waits for a database connection, new or pooled, before it fails. */
const CONNECT_TIMEOUT_MS = 5000;

/** Connects to PostgreSQL (nothing is created or changed: see {@link migrate}). */
export async function createOrm({ databaseUrl, poolSize = 10, debug = false }: OrmOptions): Promise<Orm> {
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
    // A database host that stops answering (not refusing) would otherwise hold every request
    // waiting for a connection for ever; this also bounds the wait for a free pooled one under
    // overload. Either way the caller gets 503 DATABASE_UNAVAILABLE (docs/operations.md).
    driverOptions: {
      onPoolCreated: (pool: pg.Pool) => {
        namePreparedStatements(pool);
        countPoolErrors(pool);
      },
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    },
    debug,
    // Request handlers always work in an explicit fork or transaction.
    allowGlobalContext: false,
    ensureDatabase: false,
  });
}

/** Applies every pending migration; concurrent starts are serialised by the migrator's lock. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}
