import pg from 'pg';

/** How long opening a database connection may take before it fails (503 DATABASE_UNAVAILABLE). */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * How long one statement may go unanswered unless configured (`DATABASE_QUERY_TIMEOUT_MS`,
 * docs/operations.md). Every statement the API, the click recorder and the CLI send is a short
 * one (a page of an export is one statement of 1,000 links; a click flush is written in chunks),
 * so this bounds how long a request waits on a database that stopped answering.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 5000;

/** What node-postgres rejects a statement with when its `query_timeout` passes (database-unavailable.ts knows it). */
const QUERY_TIMED_OUT = 'Query read timeout';

/**
 * pg's Client with a bound on connecting and, when `queryTimeoutMs` > 0, on each statement.
 *
 * A database that stops answering (a stalled disk, a frozen VM, a network partition) leaves a
 * statement on an open connection waiting for ever: the connect timeout does not apply, and
 * `statement_timeout` is the server's, which is frozen too. pg's client-side `query_timeout`
 * rejects the statement, but leaves the connection as it was, still waiting for the answer, and
 * Kysely hands it back to the pool without an error: the next request to borrow it would queue
 * behind the lost statement. So a statement that timed out ends its connection: `end()` destroys
 * the socket at once when a statement is in flight and marks the client as ending, which makes
 * the pool discard it rather than keep it. On a connection cut inside a transaction, PostgreSQL
 * rolls the transaction back once it runs again.
 *
 * Only plain statements are bounded: a Submittable (a cursor, a COPY stream) runs as long as its
 * reader reads, and none is used on the pool.
 */
export function boundedClient(queryTimeoutMs: number): typeof pg.Client {
  return class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      // The pool keeps the password out of its options' enumerable properties (so it is not logged).
      super({ ...config, password: config?.password, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }

    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them all through.
    override query(config: any, values?: any, callback?: any): any {
      const submittable = typeof config === 'object' && config !== null && typeof config.submit === 'function';
      if (queryTimeoutMs <= 0 || submittable) return super.query(config, values, callback);
      const bounded =
        typeof config === 'string' ? { text: config, query_timeout: queryTimeoutMs } : { ...config, query_timeout: queryTimeoutMs };
      const endIfTimedOut = (error: unknown) => {
        if ((error as Error | undefined)?.message === QUERY_TIMED_OUT) void this.end().catch(() => {});
      };
      const callbackAt = typeof values === 'function' ? 'values' : typeof callback === 'function' ? 'callback' : undefined;
      if (callbackAt === 'values') {
        return super.query(bounded, (error: Error, result: unknown) => {
          endIfTimedOut(error);
          values(error, result);
        });
      }
      if (callbackAt === 'callback') {
        return super.query(bounded, values, (error: Error, result: unknown) => {
          endIfTimedOut(error);
          callback(error, result);
        });
      }
      const result = super.query(bounded, values) as Promise<unknown>;
      // Registered before the caller's own reaction, so the client is ending before it is released.
      result.then(undefined, endIfTimedOut);
      return result;
    }
  };
}
