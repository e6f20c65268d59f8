import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import type { TestProject } from 'vitest/node';
import { ensureDashboardBuilt } from '../src/dashboard/build-on-start.ts';

export const TEMPLATE_DATABASE = 'shortlinks_template';

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
 * Starts one real embedded PostgreSQL for the whole run and migrates a template database;
 * each test file then gets its own copy (CREATE DATABASE ... TEMPLATE), so files are
 * independent and run in parallel.
 */
export default async function setup(project: TestProject) {
  // Once for the run, while PostgreSQL starts: the servers the tests start (main.ts included)
  // then find the web dashboard built, and do not all build it at once.
  const dashboard = ensureDashboardBuilt();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-test-'));
  const cluster = await startEmbeddedPostgres({ dataDir, database: TEMPLATE_DATABASE });
  const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 2 });
  await migrate(orm);
  await orm.close();
  const build = await dashboard;
  if (build.state === 'failed') {
    await cluster.stop();
    throw new Error(`the web dashboard did not build: ${build.problem}`);
  }

  project.provide('adminDatabaseUrl', cluster.adminUrl);
  project.provide('appDatabaseUrl', cluster.url);
  project.provide('templateDatabase', TEMPLATE_DATABASE);

  return async () => {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
