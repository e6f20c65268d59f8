/** Why PostgreSQL refused a statement because of the data it carried. */
export interface Refusal {
  /** The SQLSTATE, e.g. `54000` (an index row too long), `23514` (a check constraint). */
  code: string;
  /** The message only: PostgreSQL's `detail` may quote the failing row, i.e. what a visitor sent, into the logs. */
  message: string;
}

/**
 * SQLSTATE classes that blame the data of a statement, not the database's state: 22 data
 * exception (e.g. a NUL in text), 23 integrity constraint violation, 54 program limit exceeded
 * (an index row over 2,704 bytes). Retrying the same data can never succeed.
 */
const DATA_CLASSES = /^(22|23|54)[0-9A-Z]{3}$/;

/**
 * The refusal when `error` is PostgreSQL refusing the data itself, else undefined: connection
 * errors (`ECONNREFUSED`, a terminated backend's `57P01`, class `08`), lack of resources (`53`),
 * deadlocks and serialization failures (`40`) and anything unknown may pass once the database is
 * back, so whatever met them is kept and tried again. Looks through wrappers' `cause`.
 */
export function refusalOf(error: unknown): Refusal | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    // Node's own error codes (`ECONNRESET`, `EPIPE`) start with a letter, SQLSTATEs of these classes with digits.
    if (typeof code === 'string' && DATA_CLASSES.test(code)) return { code, message: typeof message === 'string' ? message : code };
    current = cause;
  }
  return undefined;
}
