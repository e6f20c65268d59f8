import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's superuser on its `postgres` database, for creating per-file databases. */
    adminDatabaseUrl: string;
    /** The template database as the application's role (not a superuser), which tests connect as. */
    appDatabaseUrl: string;
    templateDatabase: string;
  }
}

/**
 * A fresh database of its own (a copy of the migrated template), for one test file, owned by and
 * reached as the application's role, as in production.
 */
export async function createTestDatabase(): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const url = new URL(inject('appDatabaseUrl'));
  const owner = pg.escapeIdentifier(decodeURIComponent(url.username));
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('templateDatabase')} owner ${owner}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}
