import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { freePort } from './embedded-postgres.ts';
import { countPoolErrors, poolErrorsOf } from './pool-errors.ts';

describe('countPoolErrors', () => {
  test('a database nobody listens for: each connection refused counts once, promise or callback', async () => {
    const pool = new pg.Pool({ host: '127.0.0.1', port: await freePort(), connectionTimeoutMillis: 5_000 });
    countPoolErrors(pool);
    try {
      await expect(pool.connect()).rejects.toThrow(/ECONNREFUSED/);
      // pool.query asks for its connection with a callback.
      await expect(pool.query('select 1')).rejects.toThrow(/ECONNREFUSED/);
      expect(poolErrorsOf(pool)).toEqual({ query: 0, connect: 2 });
    } finally {
      await pool.end();
    }
  });

  test('a pool not counted has no counts', () => {
    expect(poolErrorsOf(new pg.Pool())).toBeUndefined();
  });
});
