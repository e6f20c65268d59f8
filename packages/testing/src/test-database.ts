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
export function createTestDatabase(): Promise<string> {
  return createDatabase(inject('templateDatabase'));
}

/**
 * A database with nothing in it, not even the schema (a copy of `template0`), owned by and reached
 * as the application's role: what an operator creates to restore a backup into.
 */
export function createEmptyDatabase(): Promise<string> {
  return createDatabase('template0');
}

async function createDatabase(template: string): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const url = new URL(inject('appDatabaseUrl'));
  const owner = pg.escapeIdentifier(decodeURIComponent(url.username));
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template} owner ${owner}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}
