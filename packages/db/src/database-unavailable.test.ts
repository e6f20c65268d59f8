import { describe, expect, test } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.ts';

/** An error shaped like pg's DatabaseError. */
const postgres = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
const node = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isDatabaseUnavailable', () => {
  test.each([
    ['a refused connection', node('ECONNREFUSED')],
    ['a reset connection', node('ECONNRESET')],
    ['a timed-out connection', node('ETIMEDOUT')],
    ['a broken pipe', node('EPIPE')],
    ['an unknown host', node('ENOTFOUND')],
    ['a connection lost without a code', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a host that accepts and never answers (the connect bound)', new Error('timeout expired')],
    ['a client whose socket died', new Error('Client has encountered a connection error and is not queryable')],
    ['the postmaster gone', postgres('57P01', 'terminating connection due to unexpected postmaster exit')],
    ['a crash restart', postgres('57P02', 'terminating connection because of crash of another server process')],
    ['a database starting up', postgres('57P03', 'the database system is starting up')],
    ['a connection failure', postgres('08006', 'connection failure')],
    ['too many connections', postgres('53300', 'sorry, too many clients already')],
    ['a wrapped one', new Error('query failed', { cause: node('ECONNREFUSED') })],
    ['a host with several addresses', new AggregateError([node('ECONNREFUSED'), node('ECONNREFUSED')], '')],
  ])('%s is an outage: the request may succeed later', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ['a unique violation', postgres('23505', 'duplicate key value violates unique constraint')],
    ['a data refusal', postgres('22021', 'invalid byte sequence for encoding "UTF8": 0x00')],
    ['a deadlock', postgres('40P01', 'deadlock detected')],
    ['a missing table (a bug, or a migration not run)', postgres('42P01', 'relation "link" does not exist')],
    ['a query cancelled by a timeout', postgres('57014', 'canceling statement due to statement timeout')],
    ['a plain bug', new TypeError('Cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
    [
      'a cycle of causes',
      (() => {
        const error = new Error('loop') as Error & { cause?: unknown };
        error.cause = error;
        return error;
      })(),
    ],
  ])('%s is not', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
