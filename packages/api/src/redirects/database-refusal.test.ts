import { describe, expect, test } from 'vitest';
import { refusalOf } from './database-refusal.ts';

/** An error shaped like pg's DatabaseError. */
const postgres = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('refusalOf', () => {
  test.each([
    ['54000', 'index row size 4064 exceeds btree version 4 maximum 2704 for index "account_click_daily_dimension_pkey"'],
    ['22021', 'invalid byte sequence for encoding "UTF8": 0x00'],
    ['22008', 'timestamp out of range'],
    ['23514', 'new row for relation "click" violates check constraint "refuses_poison"'],
    ['23503', 'insert or update on table "click_hourly" violates foreign key constraint'],
  ])('PostgreSQL refusing the data (%s) is a refusal: the same data can never be written', (code, message) => {
    expect(refusalOf(postgres(code, message))).toEqual({ code, message });
  });

  test.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a broken pipe', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })],
    ['a connection lost without a code', new Error('Connection terminated unexpectedly')],
    ['a terminated backend', postgres('57P01', 'terminating connection due to administrator command')],
    ['a database starting up', postgres('57P03', 'the database system is starting up')],
    ['a connection failure', postgres('08006', 'connection failure')],
    ['too many connections', postgres('53300', 'sorry, too many clients already')],
    ['a deadlock', postgres('40P01', 'deadlock detected')],
    ['a missing table', postgres('42P01', 'relation "click" does not exist')],
    ['not an error', 'boom'],
    ['nothing', undefined],
  ])('%s is no refusal: the clicks are kept for the next attempt', (_what, error) => {
    expect(refusalOf(error)).toBeUndefined();
  });

  test('a refusal wrapped by a driver is still found through `cause`', () => {
    const wrapped = new Error('query failed', { cause: postgres('54000', 'index row size 4064 exceeds btree version 4 maximum 2704') });
    expect(refusalOf(wrapped)).toMatchObject({ code: '54000' });
  });
});
