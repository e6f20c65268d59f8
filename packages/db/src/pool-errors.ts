import type pg from 'pg';

/** Failures of one pool since it was created (for metrics). */
export interface PoolErrors {
  /** Statements PostgreSQL refused or that broke off (a lost connection, a constraint, a timeout). */
  query: number;
  /** Connections the pool could not open or hand out (database down, pool timeout). */
  connect: number;
}

const counted = new WeakMap<pg.Pool, PoolErrors>();

/**
 * Counts the pool's failures: each query that rejects and each connection that cannot be had.
 * Counting waits on the promise the caller gets anyway, so it adds one reaction per query and
 * changes nothing the caller sees.
 */
export function countPoolErrors(pool: pg.Pool): void {
  const errors: PoolErrors = { query: 0, connect: 0 };
  counted.set(pool, errors);
  const countQuery = () => {
    errors.query++;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]): unknown => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, ...rest: unknown[]) => {
          if (error) countQuery();
          return callback(error, ...rest);
        };
        return query(...args);
      }
      const result = query(...args);
      // A Submittable (a cursor, a COPY stream) reports its own errors to its reader.
      if (result instanceof Promise) result.then(undefined, countQuery);
      return result;
    }) as typeof client.query;
  });
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((callback?: unknown): unknown => {
    if (typeof callback === 'function') {
      return connect((error: unknown, ...rest: unknown[]) => {
        if (error) errors.connect++;
        return callback(error, ...rest);
      });
    }
    const result = connect() as Promise<unknown>;
    result.then(undefined, () => {
      errors.connect++;
    });
    return result;
  }) as typeof pool.connect;
}

/** The failures counted on a pool since {@link countPoolErrors}; undefined for a pool not counted. */
export function poolErrorsOf(pool: pg.Pool): Readonly<PoolErrors> | undefined {
  return counted.get(pool);
}
