/**
 * Node's codes for a connection that could not be made or was cut: the database's host is down,
 * unreachable or restarting.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a database that cannot serve now, whatever was asked: class 08 (connection
 * exception), 57P01-57P03 (shut down by an administrator or a crash, or still starting up) and
 * 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** node-postgres's own errors for a lost or never-made connection, which carry no code. */
const CODELESS =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|timeout expired|Query read timeout)$/;

/**
 * Whether `error` says the database cannot be reached or cannot serve now (an outage, a restart),
 * as opposed to a statement failing: such a request may succeed if retried later, and is no bug of
 * ours (503 `DATABASE_UNAVAILABLE`, docs/operations.md). MikroORM and Kysely wrap node-postgres's
 * errors keeping their `code`; wrappers are looked through by `cause`, and an AggregateError (a
 * host with several addresses) by its `errors`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNREACHABLE.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && CODELESS.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
